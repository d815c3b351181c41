package run

import (
	"slices"
	"strings"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/internal/clip"
	"github.com/difffuzz/difffuzz/value"
)

// allowedCase is one case with a difference the run's contract allows
// (compare.Verdict.Allowed): no finding, but the implementation's
// profile.
type allowedCase struct {
	index   uint64
	input   any
	verdict compare.Verdict
}

// trait is one row of an adapter's profile as the collector keeps it: its
// cases, and its example, the case of the lowest index (the least deep,
// for a nesting limit of its own, which says the most of that limit), so
// that the same seed and case count give the same report.
type trait struct {
	allowance compare.Allowance
	cases     uint64
	index     uint64
	input     any
}

// profileExample is the most characters of a trait's example kept.
const profileExample = 300

// profiles are each adapter's traits, by compare.Trait.
type profiles []map[compare.Trait]*trait

// add counts the allowed deviations of one case, for every adapter that
// showed them.
func (ps profiles) add(ac allowedCase) {
	for _, a := range ac.verdict.Allowed {
		for _, ai := range ac.verdict.Groups[a.Group] {
			if ps[ai] == nil {
				ps[ai] = map[compare.Trait]*trait{}
			}
			t := ps[ai][a.Trait]
			if t == nil {
				t = &trait{allowance: a, index: ac.index, input: ac.input}
				ps[ai][a.Trait] = t
			}
			t.cases++
			if better(a, ac.index, t) {
				t.allowance, t.index, t.input = a, ac.index, ac.input
			}
		}
	}
}

// better reports whether allowance a at case index makes a better example
// than t's.
func better(a compare.Allowance, index uint64, t *trait) bool {
	if a.Trait == compare.TraitDepthLimit && a.Depth != t.allowance.Depth {
		return a.Depth < t.allowance.Depth
	}
	return index < t.index
}

// report is the profiles for the report: one per adapter with a trait, in
// adapter order, each's traits by their word.
func (ps profiles) report(names []string) []report.Profile {
	var out []report.Profile
	for ai, m := range ps {
		if len(m) == 0 {
			continue
		}
		p := report.Profile{Adapter: names[ai]}
		for _, t := range m {
			p.Traits = append(p.Traits, report.Trait{Trait: string(t.allowance.Trait), Says: t.allowance.String(),
				Cases: t.cases, Example: clip.String(string(value.AppendText(nil, t.input)), profileExample)})
		}
		slices.SortFunc(p.Traits, func(a, b report.Trait) int { return strings.Compare(a.Trait, b.Trait) })
		out = append(out, p)
	}
	return out
}
