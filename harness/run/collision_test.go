package run

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/internal/testworker"
)

// A mutant that writes keys unescaped merges the generator's key twins: a
// run reports it as a collision with both inputs, in the summary, the JSON
// report and the corpus, and minimizes the pair. A mutant that writes -0
// as -0 diverges on the -0 twins but never collides: the reference writes
// both twins as 0.
func TestCollisionFound(t *testing.T) {
	mutant := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/mutant")
	for _, tt := range []struct {
		mutant, cause string // the cause's head, "" for no collision
	}{
		// One key writer: its collision and its wrong keys are one bucket,
		// named by its profile (lane.CollisionLabel).
		{"key-unescaped", "characters in keys written otherwise: `\"` `\\`"},
		{"neg-zero", ""},
	} {
		t.Run(tt.mutant, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			jsonPath := filepath.Join(dir, "report.json")
			var out, errb bytes.Buffer
			rep, _ := Run(context.Background(), Config{
				Adapters: []adapter.Spec{{Name: "go", InProcess: true}, {Name: "m", Command: []string{mutant, tt.mutant}}},
				Workers:  1, Cases: 4096, Seed: 1, CorpusDir: filepath.Join(dir, "corpus"), MinimizeTime: 10 * time.Second,
				Outputs: report.Outputs{"json": jsonPath}, Stdout: &out, Stderr: &errb})
			var g *report.Group
			for i := range rep.Distinct {
				if rep.Distinct[i].Kind == "collision" {
					g = &rep.Distinct[i]
				}
			}
			if tt.cause == "" {
				if g != nil {
					t.Fatalf("a collision: %s\n%s / %s", g.Signature, g.Example, g.Twin)
				}
				if rep.Divergences == 0 {
					t.Fatal("no divergence at all: the test sees nothing")
				}
				return
			}
			if g == nil {
				t.Fatalf("no collision found; summary:\n%s", out.String())
			}
			if !strings.HasPrefix(g.Cause, tt.cause) || g.Twin == "" || g.Example == g.Twin || g.MinimizedTwin == "" || !g.Minimized {
				t.Errorf("collision group %+v", g)
			}
			if rep.FirstCollisionCases == 0 || rep.FirstCollisionSeconds == 0 {
				t.Errorf("first collision at %d cases, %gs", rep.FirstCollisionCases, rep.FirstCollisionSeconds)
			}
			if sum := out.String(); !strings.Contains(sum, "and its twin:") || !strings.Contains(sum, "m gives both the digest") {
				t.Errorf("the summary does not show both inputs:\n%s", sum)
			}
			data, err := os.ReadFile(jsonPath)
			if err != nil {
				t.Fatal(err)
			}
			var back report.Report
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			for _, bg := range back.Distinct {
				if bg.Kind == "collision" && (bg.Twin == "" || bg.MinimizedTwin == "") {
					t.Errorf("the JSON report's collision lacks its twin: %+v", bg)
				}
			}
			for _, path := range []string{g.First, g.MinimizedPath} {
				e, err := corpus.Load(path)
				if err != nil {
					t.Fatal(err)
				}
				if e.Kind != "collision" || e.Twin == nil || len(e.TwinOutcomes) != 2 || e.TwinOutcomes[1].Digest != e.Outcomes[1].Digest {
					t.Errorf("%s: entry %+v", path, e)
				}
			}
		})
	}
}
