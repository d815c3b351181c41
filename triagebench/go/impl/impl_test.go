package impl

import (
	"encoding/json"
	"testing"
)

// TestBugs holds the planted bugs in place: the benchmark's cause lists
// (triagebench/impls/go-*.toml) count on each of them.
func TestBugs(t *testing.T) {
	tests := []struct {
		name    string
		fn      func(dst []byte, v any) ([]byte, error)
		in      any
		want    string
		wantErr string
	}{
		{"offsets NaN", offsetsAny, `{"args":{"a":NaN},"tool_name":"t"}`, "", "invalid character at offset 14"},
		{"offsets html", offsetsAny, `{"a":"<&>"}`, `{"a":"\u003c\u0026\u003e"}`, ""},
		{"offsets non-ASCII", offsetsAny, `{"a":"\u00e9"}`, `{"a":"é"}`, ""},
		{"offsets lone surrogate", offsetsAny, `{"a":"\udcee"}`, "{\"a\":\"\uFFFD\"}", ""},
		{"offsets number spelling", offsetsAny, `{"a":1.5E2,"b":-0.0}`, `{"a":1.5E2,"b":-0.0}`, ""},
		{"offsets last key wins", offsetsAny, `{"a":1,"a":2}`, `{"a":2}`, ""},
		{"dupkeys key unquoted", dupKeysAny, `{"args":{"a b":1,"a b":2},"tool_name":"t"}`, "", "Duplicate key: a b"},
		{"dupkeys NaN", dupKeysAny, `{"a":NaN}`, "", "invalid character 'N' looking for beginning of value"},
		{"dupkeys html", dupKeysAny, `{"b":["<&>"],"a":1}`, `{"a":1,"b":["\u003c\u0026\u003e"]}`, ""},
		{"dupkeys number spelling", dupKeysAny, `{"a":1.5E2}`, `{"a":1.5E2}`, ""},
		{"17g float", Seventeen, map[string]any{"a": 0.1}, `{"a":0.10000000000000001}`, ""},
		{"17g infinity", Seventeen, map[string]any{"a": inf()}, `{"a":+Inf}`, ""},
		{"17g key unescaped", Seventeen, map[string]any{`a":1,"b`: json.Number("2")}, `{"a":1,"b":2}`, ""},
		{"17g DEL in a key raw", Seventeen, map[string]any{"\x7f": nil}, "{\"\x7f\":null}", ""},
		{"17g astral", Seventeen, "\U0001F600", `"\ud83d\ude00"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.fn(nil, tt.in)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}

func dupKeysAny(dst []byte, v any) ([]byte, error) {
	s, _ := v.(string)
	return DupKeys(dst, []byte(s))
}

func offsetsAny(dst []byte, v any) ([]byte, error) {
	s, _ := v.(string)
	return Offsets(dst, []byte(s))
}

func inf() float64 {
	var zero float64
	return 1 / zero
}
