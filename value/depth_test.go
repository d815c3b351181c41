package value

import "testing"

func TestDepth(t *testing.T) {
	deep := any(nil)
	for range 600 {
		deep = []any{deep}
	}
	for _, tc := range []struct {
		name string
		v    any
		want int
	}{
		{"scalar", int64(1), 0},
		{"empty array", []any{}, 1},
		{"empty object", Object{}, 1},
		{"envelope", Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: Object{}}}, 2},
		{"deepest element", []any{int64(1), []any{[]any{}}, []any{}}, 3},
		{"raw key", RawObject{{Key: []any{[]any{}}, Value: nil}}, 3},
		{"map", map[string]any{"a": []any{}}, 2},
		{"strings", []string{"a"}, 1},
		{"600 levels", deep, 600},
	} {
		if got := Depth(tc.v); got != tc.want {
			t.Errorf("%s: Depth = %d, want %d", tc.name, got, tc.want)
		}
	}
}
