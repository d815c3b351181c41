package oneshot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/value"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// Entries of findings that one input does not show alone
// (docs/triage.md, "Nondeterministic"): a sequence (corpus.Entry.Before)
// is run in order on a fresh lane, and said to need its calls when the
// input alone agrees; a nondeterministic entry's input is asked twice.

// replaySequence replays an entry with calls before its input on a fresh
// lane, in order, and judges the input after them; when it diverges, the
// input alone on another fresh lane says whether it still needs them.
func (r *replayer) replaySequence(ctx context.Context, name string, e *corpus.Entry) error {
	j, err := r.lane.JudgeFresh(ctx, append(slices.Clone(e.Before), e.Input))
	if err != nil {
		return err
	}
	if j.Verdict.Agree || !j.Answered {
		r.passed++
		fmt.Fprintf(r.cfg.Stdout, "agrees     %s  (after its %d earlier calls)\n", name, len(e.Before))
		return nil
	}
	alone, err := r.lane.JudgeFresh(ctx, []any{e.Input})
	if err != nil {
		return err
	}
	r.failed++
	fmt.Fprintf(r.cfg.Stdout, "DIVERGES   %s  %s  after %d earlier calls (%s)\n%s", name, e.Signatures, len(e.Before), aloneWord(alone),
		r.lane.Comparator().Render(j.Verdict, j.Outs))
	return nil
}

// aloneWord says what the input alone on a fresh process shows.
func aloneWord(alone panel.Judged) string {
	if alone.Verdict.Agree {
		return "alone on a fresh process it agrees: the finding needs the calls before it"
	}
	return "alone on a fresh process it diverges too: " + compare.Signatures(alone.Signatures).String()
}

// replayTwice asks the inputs of the chunk's nondeterministic entries
// (idx, into entries and js) again and reports, per entry, the adapters
// whose second answer differs from their first (js), as Drifts.
func (r *replayer) replayTwice(ctx context.Context, entries []*corpus.Entry, idx []int, js [][]panel.Judged) ([][]panel.Drift, error) {
	inputs := make([]any, len(idx))
	for k, i := range idx {
		inputs[k] = entries[i].Input
	}
	again, err := r.lane.Judge(ctx, inputs)
	if err != nil {
		return nil, err
	}
	out := make([][]panel.Drift, len(idx))
	for k, i := range idx {
		first := js[i][0]
		for ai, o := range again[k].Outs {
			if first.Answered && again[k].Answered && compare.Nondeterministic(first.Outs[ai], o) {
				out[k] = append(out[k], panel.Drift{Adapter: ai, Before: first.Outs[ai], After: o, How: "a replay's second ask"})
			}
		}
	}
	return out, nil
}

// printDrifts prints an entry's drifts as a failure of the replay.
func (r *replayer) printDrifts(out *strings.Builder, name string, ds []panel.Drift) {
	for _, d := range ds {
		n := r.lane.Names()[d.Adapter]
		fmt.Fprintf(out, "DIVERGES   %s  %s\n%s", name, compare.NondeterministicSignature(n), compare.RenderNondeterministic(n, d.How, d.Before, d.After))
	}
}

// minimizeSequence shrinks an entry with calls before its input
// (panel.ShrinkSequence), keeping the signature the input shows after them
// on a fresh lane, and writes the shrunk sequence beside it.
func minimizeSequence(ctx context.Context, cfg Config, path string, e *corpus.Entry) int {
	l, err := panel.Open(ctx, cfg.Adapters, cfg.Stderr)
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz: %v\n", err)
		return triage.ExitSetup
	}
	defer l.Close()
	mctx, stop := withBudget(ctx, cfg)
	defer stop()
	j, err := l.JudgeFresh(mctx, append(slices.Clone(e.Before), e.Input))
	switch {
	case err != nil:
		fmt.Fprintf(cfg.Stderr, "difffuzz: %v\n", err)
		return triage.ExitSetup
	case j.Verdict.Agree || len(j.Signatures) == 0:
		fmt.Fprintf(cfg.Stdout, "%s: the adapters agree on this input after its %d earlier calls; nothing to minimize\n", path, len(e.Before))
		return triage.ExitOK
	}
	sig := j.Signatures[0]
	fmt.Fprintf(cfg.Stdout, "before (%s after %d earlier calls):\n  %s\n", sig, len(e.Before), clip.String(string(value.AppendText(nil, e.Input)), 2000))
	began := time.Now()
	s, err := l.ShrinkSequence(mctx, e.Before, e.Input, sig)
	switch {
	case errors.Is(err, panel.ErrShowsAlone):
		fmt.Fprintf(cfg.Stdout, "the input shows %s alone on a fresh process: minimize it as a plain input\n", sig)
		return triage.ExitDivergence
	case err != nil:
		if !overBudget(mctx, cfg) {
			fmt.Fprintf(cfg.Stderr, "difffuzz: minimize: %v\n", err)
		}
		return triage.ExitSetup
	}
	fmt.Fprintf(cfg.Stdout, "after (%s; %d fresh processes, %.1fs), the calls in order:\n", s.Label, s.Runs, time.Since(began).Seconds())
	for _, c := range append(slices.Clone(s.Before), s.Input) {
		fmt.Fprintf(cfg.Stdout, "  %s\n", value.AppendText(nil, c))
	}
	fmt.Fprint(cfg.Stdout, l.Comparator().Render(s.Judged.Verdict, s.Judged.Outs))
	return writeMinimized(cfg, path, l.SequenceEntry(s))
}

// aloneAgrees reports whether input i of check, which diverged after the
// inputs before it on one lane, agrees alone on a fresh lane: the finding
// needs the calls before it. The first input was alone already.
func aloneAgrees(ctx context.Context, l *panel.Panel, i int, input any) bool {
	if i == 0 {
		return false
	}
	j, err := l.JudgeFresh(ctx, []any{input})
	return err == nil && j.Answered && j.Verdict.Agree
}
