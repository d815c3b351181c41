package retain

import (
	"fmt"
	"testing"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/report"
)

// An overflow bucket lists its first causes with their findings, and
// counts the distinct ones up to a bound, past which it says "more".
func TestFolded(t *testing.T) {
	f, g := NewFolded(), &report.Group{}
	cause := func(i int) compare.Signature {
		return compare.Signature{Kind: compare.KindInternal, Cause: fmt.Sprintf("no handler for w%d", i), Deviants: []string{"x"}}
	}
	for range 3 {
		f.Add(g, cause(0))
	}
	for i := range report.MaxFoldedCounted + 50 {
		f.Add(g, cause(i))
	}
	if len(g.Folded) != report.MaxFoldedListed || g.Folded[0].Count != 4 || g.Folded[1].Count != 1 || g.Folded[0].Cause != "internal: no handler for w0" {
		t.Errorf("listed %d causes, the first %+v", len(g.Folded), g.Folded[:2])
	}
	if g.FoldedCauses != report.MaxFoldedCounted || !g.FoldedMore || g.FoldedText() != "more than 10000 causes" {
		t.Errorf("counted %d causes (more: %v)", g.FoldedCauses, g.FoldedMore)
	}
	if len(f.seen) != report.MaxFoldedCounted {
		t.Errorf("remembers %d causes, want at most %d", len(f.seen), report.MaxFoldedCounted)
	}
}
