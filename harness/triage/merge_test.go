package triage

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/value"
)

// The merge groups as each run did: a shard's minimized entry carries the
// label its bucket took, and the findings of the bucket it was minimized
// from count under it; two buckets whose minimized pairs show one
// signature are one, listing both; a bucket without a minimized entry
// keeps its own.
func TestRegroupFollowsMinimizedLabels(t *testing.T) {
	dir := t.TempDir()
	write := func(input any, sig string, from string) string {
		t.Helper()
		e := &corpus.Entry{Input: input, Kind: "collision", Signatures: compare.Signatures{compare.MustParseSignature(sig)}, MinimizedFrom: from, Twin: []any{input}}
		path, err := corpus.Write(dir, e)
		if err != nil {
			t.Fatal(err)
		}
		return filepath.Base(path)
	}
	a := write(value.Object{{Key: "a", Value: 1.0}}, "collision: a key: go, rust", "")
	write(value.Object{{Key: "a", Value: 2.0}}, "collision: a key: go", "")
	b := write(value.Object{{Key: "b", Value: 1.0}}, "collision: a value: go", "")
	write("x", "collision: a member dropped: go", a)
	write("yy", "collision: a member dropped: go", b)
	write(value.Object{{Key: "c", Value: 1.0}}, "number: -0: go", "")
	rep := &report.Report{}
	if err := regroup(rep, dir, nil); err != nil {
		t.Fatal(err)
	}
	if len(rep.Distinct) != 2 {
		t.Fatalf("%d buckets, want 2: %+v", len(rep.Distinct), rep.Distinct)
	}
	g := rep.Distinct[0]
	if g.Signature.String() != "collision: a member dropped: go" || g.Count != 3 || !g.Minimized || g.MinimizedInput != `"x"` ||
		!slices.Equal(g.MergedFrom, []string{"collision: a key: go, rust", "collision: a value: go"}) {
		t.Errorf("merged bucket: %s, %d findings, minimized %v %q, merged from %q", g.Signature, g.Count, g.Minimized, g.MinimizedInput, g.MergedFrom)
	}
	if g := rep.Distinct[1]; g.Signature.String() != "number: -0: go" || g.Count != 1 || g.Minimized || len(g.MergedFrom) != 0 {
		t.Errorf("a bucket no shard minimized: %+v", g)
	}
	if rep.Divergences != 4 {
		t.Errorf("%d divergences, want 4 (the minimized entries are not findings)", rep.Divergences)
	}
}
