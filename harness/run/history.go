package run

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/internal/clip"
	"github.com/difffuzz/difffuzz/value"
)

// Findings that need earlier calls (docs/triage.md, "Depends on an earlier
// call"). Each lane keeps the indexes of the last HistoryLen cases its
// workers answered, in the order they answered them, and a finding the
// corpus keeps carries those before it. When the run minimizes a bucket
// whose example its input alone does not show on a fresh worker process,
// the example is tried again after those calls, and the sequence shrunk
// (panel.ShrinkSequence).

// HistoryLen is how many earlier calls a finding carries: 64 indexes, 512
// bytes a finding kept. A state that outlives more calls than that (a
// cache that is never flushed) shows alone often enough, or in a later
// finding whose trigger is nearer.
const HistoryLen = 64

// history is one lane's last calls, oldest first: case indexes, the cases
// being functions of (seed, index).
type history struct{ calls []uint64 }

// push adds a round trip's cases, in the order a worker answered them.
func (h *history) push(indexes ...uint64) {
	h.calls = append(h.calls, indexes...)
	if over := len(h.calls) - HistoryLen; over > 0 {
		h.calls = append(h.calls[:0], h.calls[over:]...)
	}
}

// before is the last HistoryLen calls of h, then more: the calls a worker
// answered before a case whose answer came after them.
func (h *history) before(more []uint64) []uint64 {
	all := append(slices.Clone(h.calls), more...)
	return all[max(0, len(all)-HistoryLen):]
}

// callsBefore is what a worker of the lane answered before its answer to
// case i of batch b: the calls of earlier round trips, then the batch's
// cases before i, or, for a case asked again with text (reasked, in the
// order asked), the whole batch and the cases re-asked before it.
func callsBefore(h *history, b *batch, i int, reasked []int) []uint64 {
	k := slices.Index(reasked, i)
	if k < 0 {
		return h.before(b.indexes[:i])
	}
	more := slices.Clone(b.indexes)
	for _, j := range reasked[:k] {
		more = append(more, b.indexes[j])
	}
	return h.before(more)
}

// pushBatch adds batch b's round trips to h: its cases, then those asked
// again with text.
func (h *history) pushBatch(b *batch, reasked []int) {
	h.push(b.indexes...)
	for _, j := range reasked {
		h.push(b.indexes[j])
	}
}

// needsEarlier minimizes g as a sequence when its example's input alone,
// on a fresh lane, does not show it: done is true when it did (g is then
// labelled panel.DependsSignature, or noted as not minimized). done is
// false when the input shows it alone, or no fresh lane can be started,
// and g is minimized as always: from fresh, the fresh lane it showed on,
// when there is one, which the caller closes. A hang is not checked: each
// try would wait out the worker's deadline.
func (c *collector) needsEarlier(ctx context.Context, l *panel.Panel, g *group) (done bool, fresh *panel.Panel, err error) {
	if g.before == nil || c.caseOf == nil || g.exampleSig.Kind == compare.KindHang {
		return false, nil, nil
	}
	fresh, alone, err := l.FreshShows(ctx, g.input, g.exampleSig)
	if err != nil || alone {
		return false, fresh, nil
	}
	done, err = c.shrinkSequence(ctx, l, g)
	return done, nil, err
}

// shrinkSequence shrinks g's example after its earlier calls
// (panel.ShrinkSequence), or relabels g when a bucket of the same deviants
// was shrunk so already; done is false when the input shows g alone on a
// fresh lane after all.
func (c *collector) shrinkSequence(ctx context.Context, l *panel.Panel, g *group) (done bool, err error) {
	key := strings.Join(g.exampleSig.Deviants, deviantsSep)
	if label, ok := c.shrunkSequence[key]; ok {
		// One bucket an implementation, never one a symptom: its sequence
		// is shrunk once, and this bucket of the same deviants merges into
		// it (regroup).
		g.NotMinimized, g.MinimizeNote = report.NotMinimizedNondeterministic, "its input alone does not show it on a fresh process: "+
			"merged into the bucket of its implementation's findings that depend on an earlier call"
		g.relabel(label)
		return true, nil
	}
	before := make([]any, len(g.before))
	for k, i := range g.before {
		before[k] = c.caseOf(i)
	}
	s, err := l.ShrinkSequence(ctx, before, g.input, g.exampleSig)
	switch {
	case errors.Is(err, panel.ErrShowsAlone):
		return false, nil
	case err != nil:
		notMinimized(g, fmt.Errorf("%w (and alone on a fresh process it does not either)", err))
		return true, nil
	}
	e := l.SequenceEntry(s)
	e.MinimizedFrom = filepath.Base(g.First)
	path, err := corpus.Write(c.cfg.CorpusDir, e)
	if err != nil {
		return true, err
	}
	g.minimized(path, s.Input, nil, s.Runs, s.Minimal)
	g.MinimizeNote = strings.TrimSpace(sequenceNote(s) + " " + g.MinimizeNote)
	g.Diff = c.cmp.Render(s.Judged.Verdict, s.Judged.Outs)
	g.relabel(s.Label)
	if c.shrunkSequence == nil {
		c.shrunkSequence = map[string]compare.Signature{}
	}
	c.shrunkSequence[key] = s.Label
	return true, nil
}

// deviantsSep joins a symptom's deviants into a key of shrunkSequence.
const deviantsSep = "\x00"

// sequenceNote says which calls a sequence's input needs before it.
func sequenceNote(s *panel.Sequence) string {
	calls := make([]string, len(s.Before))
	for k, b := range s.Before {
		calls[k] = compare.Visible(clip.String(string(value.AppendText(nil, b)), 200))
	}
	return fmt.Sprintf("shows only after %d earlier call(s) on one process, run first: %s", len(calls), strings.Join(calls, "; "))
}
