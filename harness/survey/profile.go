package survey

import (
	"fmt"
	"slices"
	"strings"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/panel"
)

// Trait is one row of a library's profile: a way it differs from the
// reference that its contract allows (compare.Trait), so no divergence:
// the survey shows it apart from the violations.
type Trait struct {
	Trait string `json:"trait"` // compare.Trait's word
	Says  string `json:"says"`  // as a person reads it, from its example
	Count int    `json:"count"`
	// Example is the first case that showed it, in extended JSON.
	Example string `json:"example"`
	depth   int    // the example's, for a nesting limit: the least is kept
}

// allowed counts the allowed differences of an agreeing case; the
// profile is kept in the order of its traits' words.
func (lr *Library) allowed(input any, j panel.Judged) {
	for _, a := range j.Verdict.Allowed {
		i := slices.IndexFunc(lr.Profile, func(t *Trait) bool { return t.Trait == string(a.Trait) })
		if i < 0 {
			t := &Trait{Trait: string(a.Trait), Says: a.String(), Example: text(input), depth: a.Depth}
			i, _ = slices.BinarySearchFunc(lr.Profile, t, func(x, y *Trait) int { return strings.Compare(x.Trait, y.Trait) })
			lr.Profile = slices.Insert(lr.Profile, i, t)
		}
		t := lr.Profile[i]
		t.Count++
		if a.Trait == compare.TraitDepthLimit && a.Depth < t.depth {
			t.Says, t.Example, t.depth = a.String(), text(input), a.Depth
		}
	}
}

// writeProfile lists what a library's contract allowed it, apart from
// its divergences.
func writeProfile(b *strings.Builder, l *Library) {
	if len(l.Profile) == 0 {
		return
	}
	fmt.Fprintf(b, "Allowed by the contract %s, so not divergences (its profile):\n\n| does | cases | example |\n|---|---:|---|\n", l.Contract)
	for _, t := range l.Profile {
		fmt.Fprintf(b, "| %s | %d | `%s` |\n", cell(t.Says), t.Count, cell(shown(t.Example)))
	}
	fmt.Fprintf(b, "\n")
}
