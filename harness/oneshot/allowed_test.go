package oneshot

import (
	"testing"

	"github.com/difffuzz/difffuzz/harness/compare"
)

func TestAllowedNote(t *testing.T) {
	names := []string{"reference", "a", "b"}
	v := compare.Verdict{Agree: true, Groups: [][]int{{0}, {1, 2}}, Allowed: []compare.Allowance{{Group: 1, Trait: compare.TraitOwnErrors}}}
	if got, want := allowedNote("rfc8785", names, v), " (allowed by contract rfc8785: raises its own exceptions for what it refuses: a, b)"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	if got := allowedNote("difffuzz", names, compare.Verdict{Agree: true}); got != "" {
		t.Errorf("note %q without an allowance", got)
	}
}
