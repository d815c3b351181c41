package run

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/internal/testworker"
)

// A stateful implementation of the mutant zoo is found as one bucket of
// the nondeterministic kind, "gives one input two digests", naming it
// alone, however many cases show it and whatever their texts were; its
// corpus entry keeps both answers. A deterministic implementation, right
// or wrong, never is. sort-skip-nth shows by the re-ask (its skipped sort
// is asked again with text, and sorted), seeded-order only by the resend
// share on the other lane's process, and length-cache by either.
func TestNondeterministicBucket(t *testing.T) {
	mutant := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/mutant")
	tests := []struct {
		mutant  string
		workers int
		cases   uint64
		resend  int
		want    bool
	}{
		{mutant: "sort-skip-nth", workers: 1, cases: 3000, resend: -1, want: true},
		{mutant: "length-cache", workers: 1, cases: 2000, want: true},
		{mutant: "seeded-order", workers: 2, cases: 8000, resend: 8, want: true},
		{mutant: "seeded-order", workers: 2, cases: 8000, resend: -1, want: false}, // one process a lane answers alike
		{mutant: "ok", workers: 2, cases: 8000, resend: 8, want: false},
		{mutant: "utf16-key-order", workers: 2, cases: 8000, resend: 8, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.mutant, func(t *testing.T) {
			specs := []adapter.Spec{{Name: "go", InProcess: true}, {Name: "sdk", Command: []string{mutant, tt.mutant}}}
			dir := t.TempDir()
			var errb bytes.Buffer
			rep, _ := Run(context.Background(), Config{Adapters: specs, Workers: tt.workers, Batch: 256, Cases: tt.cases, Seed: 5,
				ResendOneIn: tt.resend, CorpusDir: dir, MinimizeTime: -1, Stderr: &errb})
			if rep.Error != "" {
				t.Fatalf("run: %s\n%s", rep.Error, lastLines(errb.String(), 10))
			}
			var found []string
			for _, g := range rep.Distinct {
				if g.Signature.Kind == compare.KindNondeterministic {
					found = append(found, g.Signature.String())
				}
			}
			want := compare.NondeterministicSignature("sdk").String()
			switch {
			case !tt.want && len(found) > 0:
				t.Fatalf("buckets %q in a run of %s", found, tt.mutant)
			case tt.want && (len(found) != 1 || found[0] != want):
				t.Fatalf("nondeterministic buckets %q, want one: %q", found, want)
			}
			if tt.want {
				checkDriftEntries(t, dir)
			}
		})
	}
}

// checkDriftEntries checks that the nondeterministic entries in dir keep
// both answers of the implementation, and that they differ.
func checkDriftEntries(t *testing.T, dir string) {
	t.Helper()
	files, err := corpus.Files([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	entries, _, err := corpus.LoadAll(files)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.Kind != corpus.KindNondeterministic {
			continue
		}
		n++
		if len(e.Earlier) != 1 || e.Earlier[0].Adapter != "sdk" || len(e.Outcomes) != 2 {
			t.Fatalf("entry %+v: want sdk's first answer in Earlier, both adapters' in Outcomes", e)
		}
		first, second := e.Earlier[0], e.Outcomes[1]
		if first.Digest == second.Digest && first.Error == second.Error {
			t.Errorf("entry keeps two equal answers: %+v and %+v", first, second)
		}
	}
	if n == 0 {
		t.Error("no nondeterministic entry in the corpus")
	}
}

// A finding of length-cache that its input alone does not show on a fresh
// process is shrunk as a sequence of calls and labelled "depends on an
// earlier call", one bucket for the implementation, into which the
// buckets its symptoms made merge; its corpus entry holds the calls to
// run first.
func TestDependsOnEarlierCall(t *testing.T) {
	if testing.Short() {
		t.Skip("minimizes sequences of calls, a fresh worker for each try")
	}
	mutant := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/mutant")
	specs := []adapter.Spec{{Name: "go", InProcess: true}, {Name: "sdk", Command: []string{mutant, "length-cache"}}}
	var errb bytes.Buffer
	rep, _ := Run(context.Background(), Config{Adapters: specs, Workers: 1, Batch: 256, Cases: 3000, Seed: 2,
		CorpusDir: t.TempDir(), MinimizeTime: 90 * time.Second, Stderr: &errb})
	want := panel.DependsSignature([]string{"sdk"})
	var found []report.Group
	for _, g := range rep.Distinct {
		if g.Signature.Bucket() == want.Bucket() {
			found = append(found, g)
		}
	}
	if len(found) != 1 || !found[0].Signature.Equal(want) || !found[0].Minimized {
		t.Fatalf("buckets %+v, want one minimized %s\n%s", found, want, lastLines(errb.String(), 20))
	}
	e, err := corpus.Load(found[0].MinimizedPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Before) == 0 || e.Kind != corpus.KindNondeterministic {
		t.Errorf("entry %s: %d calls before, kind %q", found[0].MinimizedPath, len(e.Before), e.Kind)
	}
	t.Logf("%s: merged from %d buckets; %s", want, len(found[0].MergedFrom), found[0].MinimizeNote)
}
