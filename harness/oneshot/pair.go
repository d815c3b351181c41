package oneshot

import (
	"context"
	"fmt"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/minimize"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/value"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// minimizePair shrinks the collision of a corpus entry with a twin: the
// first implementation that still gives both inputs one digest, while the
// reference tells them apart, is kept so, by the same cause
// (lane.MinimizePair).
func minimizePair(ctx context.Context, cfg Config, path string, e *corpus.Entry) int {
	s, js := judge(ctx, cfg, []any{e.Input, e.Twin})
	if s == nil {
		return triage.ExitSetup
	}
	defer s.Close()
	x := 0
	for ai := 1; ai < len(s.Names()) && x == 0; ai++ {
		if compare.Collides(js[0].Outs[0], js[1].Outs[0], js[0].Outs[ai], js[1].Outs[ai]) {
			x = ai
		}
	}
	if x == 0 {
		fmt.Fprintf(cfg.Stdout, "%s: no implementation gives the two inputs one digest now; nothing to minimize\n", path)
		return triage.ExitOK
	}
	sig, _ := compare.CollisionSignature(s.Names()[x], js[0].Outs[0], js[1].Outs[0], js[0].Outs[x], js[0].Signatures, js[1].Signatures)
	fmt.Fprintf(cfg.Stdout, "before (%s):\n  %s\n  %s\n", sig, clip.String(string(value.AppendText(nil, e.Input)), 2000),
		clip.String(string(value.AppendText(nil, e.Twin)), 2000))
	s.RoundTrips = 0
	mctx, stop := withBudget(ctx, cfg)
	defer stop()
	s.MaxCandidateBytes = minimize.BatchBytesFor(budgetOf(cfg))
	m, err := s.MinimizePair(mctx, e.Input, e.Twin, x, sig)
	if err != nil {
		if !overBudget(mctx, cfg) {
			fmt.Fprintf(cfg.Stderr, "difffuzz: minimize: %v\n", err)
		}
		return triage.ExitSetup
	}
	// The pair is labelled by the collision it shows now, as a run labels
	// a bucket (docs/triage.md).
	label, ok := s.CollisionLabel(ctx, m.X, m.A, m.B, m.JA, m.JB)
	if !ok {
		fmt.Fprintf(cfg.Stderr, "difffuzz: minimize: not reproducible: %s no longer gives the minimized pair one digest\n", s.Names()[x])
		return triage.ExitSetup
	}
	fmt.Fprintf(cfg.Stdout, "after (%s; %d rounds, %d round trips per adapter):\n  %s\n  %s\n%s", label, m.Rounds, s.RoundTrips,
		value.AppendText(nil, m.A), value.AppendText(nil, m.B), s.Comparator().RenderCollision(x, m.JA.Outs, m.JB.Outs))
	if cfg.Verbose {
		writePasses(cfg.Stdout, m.Passes)
	}
	return writeMinimized(cfg, path, s.CollisionEntry(label, m.A, m.B, m.JA, m.JB))
}
