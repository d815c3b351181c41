package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/internal/clip"
)

// Profile is what one implementation does that the run's contract leaves
// open (contract.Allows): differences from the reference that are not
// bugs, so never findings, never counted as divergences and never a
// failed run, but worth knowing of a library ("refuses integers past
// 2^53"). docs/canonical-json.md §7 says what each contract allows.
type Profile struct {
	Adapter string  `json:"adapter"`
	Traits  []Trait `json:"traits"`
}

// Trait is one row of a profile.
type Trait struct {
	// Trait is the word of compare.Trait ("depth_limit").
	Trait string `json:"trait"`
	// Says is the trait as a person reads it, from its example.
	Says  string `json:"says"`
	Cases uint64 `json:"cases"`
	// Example is one case that shows it, in extended JSON, clipped.
	Example string `json:"example"`
}

// profileSummary prints each profile's table for the closing summary.
func (r *Report) profileSummary(w io.Writer) {
	for _, p := range r.Profiles {
		fmt.Fprintf(w, "  %-10s allowed by contract %s (not divergences):\n", p.Adapter, r.Contract)
		for _, t := range p.Traits {
			fmt.Fprintf(w, "  %-10s   %s: %d cases, e.g. %s\n", "", t.Says, t.Cases, compare.Visible(clip.String(t.Example, 100)))
		}
	}
}

// profileMarkdown writes the profiles as one table.
func (r *Report) profileMarkdown(b *strings.Builder) {
	if len(r.Profiles) == 0 {
		return
	}
	fmt.Fprintf(b, "\n### Allowed by contract %s: not divergences\n\n| adapter | does | cases | example |\n|---|---|---|---|\n", r.Contract)
	for _, p := range r.Profiles {
		for _, t := range p.Traits {
			fmt.Fprintf(b, "| %s | %s | %d | %s |\n", p.Adapter, t.Says, t.Cases, codeSpan(strings.ReplaceAll(compare.Visible(t.Example), "|", `\|`)))
		}
	}
}

// MergeProfiles adds the profiles of add (another shard's) to into: the
// counts summed, trait by trait, each row's example the first seen.
func MergeProfiles(into, add []Profile) []Profile {
	for _, p := range add {
		i := slices.IndexFunc(into, func(q Profile) bool { return q.Adapter == p.Adapter })
		if i < 0 {
			into = append(into, Profile{Adapter: p.Adapter})
			i = len(into) - 1
		}
		for _, t := range p.Traits {
			j := slices.IndexFunc(into[i].Traits, func(u Trait) bool { return u.Trait == t.Trait })
			if j < 0 {
				into[i].Traits = append(into[i].Traits, t)
				continue
			}
			into[i].Traits[j].Cases += t.Cases
		}
		slices.SortFunc(into[i].Traits, func(a, b Trait) int { return strings.Compare(a.Trait, b.Trait) })
	}
	return into
}
