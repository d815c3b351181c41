package minimize

import (
	"bytes"
	"slices"
	"testing"

	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/value"
)

// TestPredictedMeasure checks that the sizes and weights computed without
// building candidates match the built candidates, and that the tree's
// size is the extended text's length: the ordering of candidates and the
// termination argument rest on both.
//
// Under -short, 20 cases and their first 1,000 candidates each: a property
// of every candidate, which fewer of them still exercise in each kind.
func TestPredictedMeasure(t *testing.T) {
	cases, perCase := uint64(60), 3000
	if testing.Short() {
		cases, perCase = 20, 1000
	}
	g := gen.New(gen.Config{Seed: 8, OutOfDomain: 0.3})
	for i := range cases {
		v, _ := g.Case(i)
		var tr tree
		tr.build(v, isEnvelope(v))
		if tr.size() != len(value.AppendText(nil, v)) {
			t.Fatalf("case %d: size %d, text %d bytes: %s", i, tr.size(), len(value.AppendText(nil, v)), value.AppendText(nil, v))
		}
		text := value.AppendText(nil, v)
		for _, n := range tr.nodes {
			if got := text[n.start : n.start+n.size]; !bytes.Equal(got, value.AppendText(nil, n.v)) {
				t.Fatalf("case %d: node text at %d is %s", i, n.start, got)
			}
		}
		tr.candidates()
		cands := slices.Clone(tr.sorted)
		if len(cands) > perCase {
			cands = cands[:perCase]
		}
		var check tree
		for j, c := range cands {
			built := tr.apply(&c)
			check.build(built, false)
			if check.size() != c.size || check.weight() != c.weight {
				t.Fatalf("case %d candidate %d (kind %d): predicted %d/%d, built %d/%d\n%s\n%s", i, j, c.kind,
					c.size, c.weight, check.size(), check.weight(), value.AppendText(nil, v), value.AppendText(nil, built))
			}
			if c.size > tr.size() || (c.size == tr.size() && c.weight >= tr.weight()) {
				t.Fatalf("candidate %d is not smaller", j)
			}
		}
	}
}
