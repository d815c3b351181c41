package zoo

import (
	"strings"
	"testing"
)

// A combination has every bug of its parts, and two parts that set the same
// non-composable hook are refused by name.
func TestCombine(t *testing.T) {
	m, err := Combine("del-raw", "html-escape", "neg-zero", "float-no-exp")
	if err != nil {
		t.Fatal(err)
	}
	ok, _ := Lookup("ok")
	ws := witnesses(t)
	for _, part := range []string{"del-raw", "html-escape", "neg-zero", "float-no-exp"} {
		want, _ := ok.Func()(nil, ws[part])
		got, err := m.Func()(nil, ws[part])
		if err != nil || string(got) == string(want) {
			t.Errorf("%s: the combination writes %s (%v), the spec %s: the bug is lost", part, got, err, want)
		}
	}
	if got, _ := m.Func()(nil, parse(t, `{"tool_name":"t","args":{"k":"plain"}}`)); string(got) != `{"args":{"k":"plain"},"tool_name":"t"}` {
		t.Errorf("a case with none of the bugs: %s", got)
	}
	tests := []struct {
		names []string
		err   string
	}{
		{[]string{"utf16-key-order", "sort-escaped"}, "mutants utf16-key-order and sort-escaped both set Order"},
		{[]string{"del-raw", "nosuch"}, `no mutant "nosuch"`},
	}
	for _, tt := range tests {
		if _, err := Combine(tt.names...); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("Combine(%v) = %v, want %q", tt.names, err, tt.err)
		}
	}
}
