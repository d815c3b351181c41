package run

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/oneshot"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/internal/testworker"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// shownBy is the signatures the one-shot commands show for a bucket's
// minimized example, judged afresh by new workers: check of the input, or
// for a collision, replay of the minimized pair's corpus file, whose
// collision line is the pair's own signature.
func shownBy(t *testing.T, specs []adapter.Spec, g report.Group) []compare.Signature {
	t.Helper()
	var out, errb bytes.Buffer
	cfg := oneshot.Config{Adapters: specs, Stdout: &out, Stderr: &errb}
	var lines []string
	in, err := oneshot.ReadLines("minimized", strings.NewReader(g.MinimizedInput))
	if g.MinimizedTwin != "" || err != nil {
		// A pair, or an input extended JSON cannot write (a non-string
		// key): the corpus file holds it exactly.
		oneshot.Replay(context.Background(), cfg, []string{g.MinimizedPath})
		for _, line := range strings.Split(out.String(), "\n") {
			if rest, ok := strings.CutPrefix(line, "DIVERGES   "+g.MinimizedPath+"  "); ok {
				lines = append(lines, strings.TrimSuffix(rest, "  (its twin)"))
			}
		}
	} else {
		oneshot.Check(context.Background(), cfg, in)
		if _, rest, ok := strings.Cut(out.String(), "line 1: DIVERGE "); ok {
			lines = append(lines, strings.SplitN(rest, "\n", 2)[0])
		}
	}
	var sigs []compare.Signature
	for _, line := range lines {
		var s compare.Signatures
		if err := s.UnmarshalText([]byte(line)); err != nil {
			t.Errorf("%s: check shows %q: %v", g.Signature, line, err)
		}
		sigs = append(sigs, s...)
	}
	if len(sigs) == 0 {
		t.Errorf("%s: the one-shot commands show no divergence on its minimized example:\n%s%s", g.Signature, out.String(), errb.String())
	}
	return sigs
}

// assertProven holds every bucket of rep to its label: the bucket was
// minimized, and its minimized example, judged afresh, shows exactly the
// bucket's signature (kind, cause, implementations). An overflow bucket
// stands for many causes: its example shows one of them, of its kind, in
// its implementations.
func assertProven(t *testing.T, specs []adapter.Spec, rep *report.Report) {
	t.Helper()
	for _, g := range rep.Distinct {
		if !g.Minimized {
			t.Errorf("bucket %s not minimized (%s): its label is unproven", g.Signature, g.NotMinimized)
			continue
		}
		shown := shownBy(t, specs, g)
		want := g.Signature
		proven := slices.ContainsFunc(shown, want.Equal)
		if want.Cause == compare.OverflowCause {
			proven = slices.ContainsFunc(shown, func(s compare.Signature) bool { return s.Overflow().Equal(want) })
		}
		if !proven {
			t.Errorf("bucket %s: its minimized example %s shows %q", g.Signature, clip.String(g.Input(), 200), compare.Signatures(shown))
		}
	}
}

// TestLabelsAreProven: every bucket's label is what its minimized example
// shows, for fake workers that diverge on every case (and collide), on
// keys, on numbers, and past the bucket limit. The mutant zoo's ten causes
// are held to the same in TestPlantedCauses.
func TestLabelsAreProven(t *testing.T) {
	for _, tt := range []struct {
		mode       string
		maxBuckets int
	}{{"differ", 0}, {"keyorder", 0}, {"number", 0}, {"unique-errors", 3}} {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			var out, errb bytes.Buffer
			sp := specs(t, tt.mode)
			rep, _ := Run(context.Background(), Config{Adapters: sp, Workers: 1, Batch: 256, Cases: 1000, Seed: 6, CorpusDir: t.TempDir(),
				MaxBuckets: tt.maxBuckets, MinimizeTime: 2 * time.Minute, Stdout: &out, Stderr: &errb})
			if len(rep.Distinct) == 0 {
				t.Fatalf("no bucket\n%s", errb.String())
			}
			assertProven(t, sp, rep)
			if t.Failed() {
				t.Logf("summary:\n%s", out.String())
			}
		})
	}
}

// TestFamilyLabelsAreProven: the triage benchmark's go-17g, whose floats
// are %.17g and whose keys are spliced between quotes as they are, makes
// one bucket a function, labelled by its measured profile (docs/triage.md,
// "Family probes"): the key writer's a collision, since a key that breaks
// out of its quotes makes two calls one. Check of each bucket's minimized
// example, which probes the implementation afresh, gives that label.
func TestFamilyLabelsAreProven(t *testing.T) {
	impl := testworker.Binary(t, "github.com/difffuzz/difffuzz/triagebench/go/cmd/go-17g")
	sp := []adapter.Spec{{Name: "reference", InProcess: true}, {Name: "go-17g", Command: []string{impl}}}
	var out, errb bytes.Buffer
	rep, _ := Run(context.Background(), Config{Adapters: sp, Workers: 1, Cases: 3000, Seed: 3, CorpusDir: t.TempDir(),
		MinimizeTime: time.Minute, Stdout: &out, Stderr: &errb})
	kinds := map[compare.Kind][]string{}
	for _, g := range rep.Distinct {
		kinds[g.Signature.Kind] = append(kinds[g.Signature.Kind], g.Signature.Cause)
	}
	for kind, head := range map[compare.Kind]string{compare.KindNumber: "floats formatted otherwise: 0.1 ", compare.KindCollision: "characters in keys written otherwise: "} {
		if causes := kinds[kind]; len(causes) != 1 || !strings.HasPrefix(causes[0], head) {
			t.Errorf("%s buckets %q, want one, %q...", kind, causes, head)
		}
	}
	if causes := append(kinds[compare.KindString], kinds[compare.KindKeyEscape]...); len(causes) > 0 {
		t.Errorf("string_escape and key_escape buckets %q: the key writer's are its collision's", causes)
	}
	assertProven(t, sp, rep)
	if t.Failed() || testing.Verbose() {
		t.Logf("summary:\n%s", out.String())
	}
}
