package report

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var jcsProfile = []Profile{{Adapter: "jcs", Traits: []Trait{
	{Trait: "depth_limit", Says: "refuses nesting 200 deep (a limit of its own)", Cases: 3, Example: "[[[[]]]]"},
	{Trait: "own_exceptions", Says: "raises its own exceptions for what it refuses", Cases: 5, Example: `{"a":NaN}`},
}}}

// TestProfileShown checks that the summary and the Markdown show each
// trait apart from the divergences, and show nothing without one.
func TestProfileShown(t *testing.T) {
	r := &Report{Contract: "rfc8785", Profiles: jcsProfile}
	var sum strings.Builder
	r.Summary(&sum)
	md := string(r.Markdown())
	for _, want := range []string{"jcs        allowed by contract rfc8785 (not divergences):", "refuses nesting 200 deep (a limit of its own): 3 cases, e.g. [[[[]]]]"} {
		if !strings.Contains(sum.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, sum.String())
		}
	}
	if !strings.Contains(md, "### Allowed by contract rfc8785: not divergences") || !strings.Contains(md, "| jcs | raises its own exceptions for what it refuses | 5 |") {
		t.Errorf("markdown:\n%s", md)
	}
	var none strings.Builder
	(&Report{}).Summary(&none)
	if strings.Contains(none.String(), "allowed by") || strings.Contains(string((&Report{}).Markdown()), "Allowed by") {
		t.Error("a report without profiles shows one")
	}
}

func TestMergeProfiles(t *testing.T) {
	other := []Profile{{Adapter: "jcs", Traits: []Trait{{Trait: "own_exceptions", Says: "x", Cases: 2, Example: "later"}, {Trait: "big_ints", Says: "y", Cases: 1}}}}
	got := MergeProfiles(MergeProfiles(nil, jcsProfile), other)
	want := []Profile{{Adapter: "jcs", Traits: []Trait{{Trait: "big_ints", Says: "y", Cases: 1}, jcsProfile[0].Traits[0], jcsProfile[0].Traits[1]}}}
	want[0].Traits[2].Cases = 7
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("merged (-want +got):\n%s", d)
	}
}
