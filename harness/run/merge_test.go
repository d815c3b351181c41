package run

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/harness/triage"
)

// Merging one shard's output gives its own report back: the same buckets,
// each with its findings count (not its corpus files: the run keeps a few
// of a bucket's findings), and the same divergences in all. The differ
// worker shows a collision and the plain bucket of its cause, which the
// run made one (mergeTwins): the merge makes them one alike (triage.Twins).
func TestMergeOfOneShardIsItsReport(t *testing.T) {
	if testing.Short() {
		t.Skip("a fuzzing run")
	}
	shard := t.TempDir()
	var out, errb bytes.Buffer
	rep, _ := Run(context.Background(), Config{Adapters: specs(t, "differ"), Workers: 1, Batch: 256, Cases: 1000, Seed: 6,
		CorpusDir: filepath.Join(shard, "corpus"), MinimizeTime: time.Minute, Stdout: &out, Stderr: &errb,
		Outputs: report.Outputs{"json": filepath.Join(shard, "report.json")}})
	if !hasTwins(rep) {
		t.Fatalf("no collision with its plain twin merged in: %+v\n%s", rep.Distinct, errb.String())
	}
	merged := filepath.Join(t.TempDir(), "merged.json")
	out.Reset()
	triage.Merge(triage.MergeConfig{Out: t.TempDir(), Outputs: report.Outputs{"json": merged}, Stdout: &out, Stderr: &out}, []string{shard})
	data, err := os.ReadFile(merged)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	var got report.Report
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Divergences != rep.Divergences {
		t.Errorf("%d divergences merged, the shard found %d", got.Divergences, rep.Divergences)
	}
	counts := func(r *report.Report) map[string]uint64 {
		m := map[string]uint64{}
		for _, g := range r.Distinct {
			m[g.Signature.String()] = g.Count
		}
		return m
	}
	want, have := counts(rep), counts(&got)
	if len(want) != len(have) {
		t.Errorf("%d buckets merged, the shard had %d:\nmerged %v\nshard  %v", len(have), len(want), have, want)
	}
	for sig, n := range want {
		if have[sig] != n {
			t.Errorf("%s: %d findings merged, the shard counted %d", sig, have[sig], n)
		}
	}
}

// hasTwins reports whether a bucket of rep is a collision that took a
// plain bucket of its cause (mergeTwins).
func hasTwins(rep *report.Report) bool {
	for _, g := range rep.Distinct {
		if g.Kind == "collision" && len(g.MergedFrom) > 1 && g.Count > g.Written {
			return true
		}
	}
	return false
}
