package minimize

import (
	"context"
	"testing"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/value"
)

// TestEqualStringsShrinkTogether: when the divergence needs two strings
// to stay equal (a repeated key, a key equal to a value), the minimizer
// shrinks the copies together, down to the smallest text.
func TestEqualStringsShrinkTogether(t *testing.T) {
	key := "get_weather_location"
	dupKey := func(v any) bool { // some object below the root repeats a key
		return objects(v, func(o canonjson.Object) bool {
			for i := range o {
				for j := range i {
					if o[i].Key == o[j].Key {
						return true
					}
				}
			}
			return false
		})
	}
	keyIsValue := func(v any) bool { // some member's value is its own key
		return objects(v, func(o canonjson.Object) bool {
			for _, m := range o {
				if s, ok := m.Value.(string); ok && s == m.Key {
					return true
				}
			}
			return false
		})
	}
	three := func(v any) bool { // an array of three equal non-empty strings
		return walk(v, func(x any) bool {
			a, ok := x.([]any)
			if !ok || len(a) != 3 {
				return false
			}
			s, ok := a[0].(string)
			return ok && s != "" && a[1] == a[0] && a[2] == a[0]
		})
	}
	tests := []struct {
		name  string
		in    string // extended JSON
		fails func(any) bool
		want  string // the minimized extended JSON
	}{
		{"repeated key", `{"tool_name":"t","args":{"` + key + `":1,"x":[1,2],"` + key + `":"v"}}`, dupKey,
			`{"tool_name":"","args":{"":0,"":0}}`},
		{"repeated key among others", `{"tool_name":"t","args":{"a":1,"b":2,"` + key + `":3,"c":4,"d":5,"e":6,"f":7,"g":8,"h":9,"i":10,"` + key + `":11}}`, dupKey,
			`{"tool_name":"","args":{"":0,"":0}}`},
		{"repeated key deep down (hoisted)", `{"tool_name":"t","args":{"a":[{"q":{"` + key + `":true,"z":null,"` + key + `":false}}]}}`, dupKey,
			`{"tool_name":"","args":{"":0,"":0}}`},
		{"key equal to its value", `{"tool_name":"t","args":{"` + key + `":"` + key + `"}}`, keyIsValue,
			`{"tool_name":"","args":{"":""}}`},
		{"order trap behind a shared prefix", `{"tool_name":"t","args":{"o":{"k":1,"prefix\uffff":2,"prefix\ud83d\ude00":3}}}`, hasUTF16OrderTrap,
			`{"tool_name":"","args":{"\uffff":0,"\ud83d\ude00":0}}`},
		{"three equal strings", `{"tool_name":"t","args":{"a":["` + key + `","` + key + `","` + key + `"]}}`, three,
			`{"tool_name":"","args":{"":["a","a","a"]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := value.Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.fails(in) {
				t.Fatal("the input does not fail")
			}
			got, st, err := Minimize(context.Background(), in, predicate(t, tt.fails, true, DefaultMaxBatch), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if s := string(value.AppendText(nil, got)); s != tt.want || !st.Minimal {
				t.Errorf("got %s (minimal %v, %d rounds), want %s", s, st.Minimal, st.Rounds, tt.want)
			}
		})
	}
}
