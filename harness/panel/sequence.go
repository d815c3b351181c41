package panel

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/minimize"
)

// Findings that need earlier calls. A worker whose answer depends on what
// it computed before (a cache keyed by a string's length) shows a finding
// that its input alone, on a fresh process, does not: the finding is the
// calls before it and the input, in order. The panel runs such a sequence on
// a fresh panel each time (Fresh), shrinks it by delta debugging over the
// calls and then shrinks each call with the pure minimizer, and names it
// one bucket per implementation (DependsCause), never one per symptom.

// DependsCause is the cause of a finding that its input shows only after
// earlier calls: what it shows says nothing of the state it came from, so
// it is one cause, of the nondeterministic kind (one input, two answers:
// alone and after the calls).
const DependsCause = "depends on an earlier call"

// DependsSignature names implementations whose finding needs earlier
// calls.
func DependsSignature(deviants []string) compare.Signature {
	return compare.Signature{Kind: compare.KindNondeterministic, Cause: DependsCause, Deviants: slices.Clone(deviants)}
}

// ErrShowsAlone is ShrinkSequence's error when the input shows the
// finding on a fresh panel without any call before it after all.
var ErrShowsAlone = errors.New("the input alone shows it on a fresh process")

// errNoFresh is Fresh's error on a panel made of adapters its caller
// started (Of): it cannot start them again.
var errNoFresh = errors.New("panel: its adapters cannot be started afresh")

// Fresh starts a new panel of the same adapters, judged by the same
// contract (Start's, from the same specs): every worker a new process,
// with no state from the calls of this one. The caller closes it.
func (l *Panel) Fresh(ctx context.Context) (*Panel, error) {
	if l.fresh == nil {
		return nil, errNoFresh
	}
	return l.fresh(ctx)
}

// JudgeFresh judges calls in order on a fresh panel, each worker answering
// them in that order, and returns the judgement of the last.
func (l *Panel) JudgeFresh(ctx context.Context, calls []any) (Judged, error) {
	f, err := l.Fresh(ctx)
	if err != nil {
		return Judged{}, err
	}
	defer f.Close()
	js, err := f.Judge(ctx, calls)
	if err != nil {
		return Judged{}, err
	}
	return js[len(js)-1], nil
}

// shows reports whether j shows sig's cause in its implementations
// (compare.Signature.Keeps).
func shows(j Judged, sig compare.Signature) bool {
	return j.Answered && slices.ContainsFunc(j.Signatures, func(s compare.Signature) bool { return s.Keeps(sig) })
}

// ShowsAlone reports whether input alone, on a fresh panel, shows sig.
func (l *Panel) ShowsAlone(ctx context.Context, input any, sig compare.Signature) (bool, error) {
	f, ok, err := l.FreshShows(ctx, input, sig)
	if f != nil {
		f.Close()
	}
	return ok, err
}

// FreshShows is ShowsAlone that hands over the fresh panel, open, when the
// input shows sig there: a minimizer can start from it rather than from a
// panel whose workers have answered many calls, whose state a stateful
// implementation's answers depend on. The caller closes it.
func (l *Panel) FreshShows(ctx context.Context, input any, sig compare.Signature) (*Panel, bool, error) {
	f, err := l.Fresh(ctx)
	if err != nil {
		return nil, false, err
	}
	js, err := f.Judge(ctx, []any{input})
	if err != nil || !shows(js[0], sig) {
		f.Close()
		return nil, false, err
	}
	return f, true, nil
}

// Sequence is a finding that needs earlier calls, shrunk: the calls to
// run first, the input, and its judgement after them.
type Sequence struct {
	Before []any
	Input  any
	Judged Judged
	// Label is the bucket's signature: DependsSignature of the
	// implementations whose answer to the input the calls changed.
	Label compare.Signature
	// Runs is how many fresh lanes the shrinking started; Minimal is false
	// when its time ran out before each call was shrunk.
	Runs    int
	Minimal bool
}

// ShrinkSequence shrinks a finding of sig that input shows after the calls
// before, and not alone: first the fewest of the calls (delta debugging,
// each subset run on a fresh panel, the input last), then the input with
// the pure minimizer, the fewest calls again, and each of them with the
// pure minimizer, the sequence still showing
// sig on a fresh panel. Every test starts a fresh panel, so the budget is
// ctx's: when it ends, the sequence shrunk so far is returned, not
// Minimal. An error says the sequence does not show sig even whole.
func (l *Panel) ShrinkSequence(ctx context.Context, before []any, input any, sig compare.Signature) (*Sequence, error) {
	s := &Sequence{Before: slices.Clone(before), Input: input, Label: DependsSignature(sig.Deviants)}
	test := func(calls []any) bool {
		if ctx.Err() != nil {
			return false
		}
		s.Runs++
		j, err := l.JudgeFresh(ctx, calls)
		return err == nil && shows(j, sig)
	}
	if !test(append(slices.Clone(s.Before), input)) {
		return nil, fmt.Errorf("not reproducible: %d calls then the input no longer show %q on a fresh process", len(before), sig)
	}
	fewest := func() {
		s.Before = ddmin(s.Before, func(sub []any) bool { return test(append(slices.Clone(sub), s.Input)) })
	}
	fewest()
	if len(s.Before) == 0 {
		return nil, ErrShowsAlone
	}
	// The input first: once small, it needs fewer of the calls, which
	// delta debugging then drops before each is shrunk.
	s.Minimal = l.shrinkCall(ctx, s, len(s.Before), sig)
	if fewest(); len(s.Before) == 0 {
		return nil, ErrShowsAlone
	}
	for i := 0; i < len(s.Before) && ctx.Err() == nil; i++ {
		if !l.shrinkCall(ctx, s, i, sig) {
			s.Minimal = false
		}
	}
	s.Minimal = s.Minimal && ctx.Err() == nil
	j, err := l.JudgeFresh(context.WithoutCancel(ctx), append(slices.Clone(s.Before), s.Input))
	if err != nil {
		return nil, err
	}
	alone, err := l.JudgeFresh(context.WithoutCancel(ctx), []any{s.Input})
	if err != nil {
		return nil, err
	}
	s.Judged, s.Label = j, DependsSignature(l.changed(alone, j, sig.Deviants))
	return s, nil
}

// changed names the adapters whose answer to one input differs alone and
// after earlier calls (compare.Nondeterministic): the implementations
// whose state the calls changed, the reference too, which a signature of
// the symptom never names. When none does (the calls changed no answer
// that can be compared), it is the symptom's deviants.
func (l *Panel) changed(alone, after Judged, deviants []string) []string {
	var names []string
	for ai := range l.names {
		if compare.Nondeterministic(alone.Outs[ai], after.Outs[ai]) {
			names = append(names, l.names[ai])
		}
	}
	if len(names) == 0 {
		return deviants
	}
	slices.Sort(names)
	return names
}

// shrinkCall shrinks call i of s (the input when i is len(s.Before)) with
// the pure minimizer, the others held, and reports whether it ended
// 1-minimal.
func (l *Panel) shrinkCall(ctx context.Context, s *Sequence, i int, sig compare.Signature) bool {
	with := func(v any) []any {
		calls := append(slices.Clone(s.Before), s.Input)
		calls[i] = v
		return calls
	}
	fails := func(ctx context.Context, cands []any) ([]bool, error) {
		res := make([]bool, len(cands))
		for k, c := range cands {
			s.Runs++
			j, err := l.JudgeFresh(ctx, with(c))
			if err != nil {
				return nil, err
			}
			res[k] = shows(j, sig)
		}
		return res, nil
	}
	v := s.Input
	if i < len(s.Before) {
		v = s.Before[i]
	}
	// A fresh panel a candidate: a few candidates a call, so that a round
	// that finds one early does not start the rest.
	got, st, err := minimize.Minimize(ctx, v, fails, minimize.Options{MaxBatch: sequenceBatch})
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return false // flaky, or the panel broke: the call stays as it was
	}
	if i < len(s.Before) {
		s.Before[i] = got
	} else {
		s.Input = got
	}
	return err == nil && st.Minimal
}

// sequenceBatch is the candidates the minimizer passes at once when each
// starts a fresh panel.
const sequenceBatch = 4

// ddmin is delta debugging (Zeller's ddmin) over calls: a smallest subset,
// in order, that test still takes, 1-minimal when test is deterministic.
// It tries the empty subset first: a state a fresh process starts with
// is no call's.
func ddmin(calls []any, test func([]any) bool) []any {
	if len(calls) == 0 || test(nil) {
		return nil
	}
	n := 2
	for len(calls) >= 2 {
		chunks := split(calls, n)
		reduced := false
		for k := range chunks {
			if test(chunks[k]) {
				calls, n, reduced = chunks[k], 2, true
				break
			}
			if rest := without(chunks, k); n > 2 && test(rest) {
				calls, n, reduced = rest, max(n-1, 2), true
				break
			}
		}
		if !reduced {
			if n >= len(calls) {
				break
			}
			n = min(2*n, len(calls))
		}
	}
	return calls
}

// split cuts calls into n chunks of near-equal size, in order.
func split(calls []any, n int) [][]any {
	var out [][]any
	for k := range n {
		lo, hi := k*len(calls)/n, (k+1)*len(calls)/n
		if hi > lo {
			out = append(out, calls[lo:hi])
		}
	}
	return out
}

// without joins the chunks but chunk k.
func without(chunks [][]any, k int) []any {
	var out []any
	for j, c := range chunks {
		if j != k {
			out = append(out, c...)
		}
	}
	return out
}

// SequenceEntry is the corpus entry of s: its input and judgement, the
// calls to run first, its label.
func (l *Panel) SequenceEntry(s *Sequence) *corpus.Entry {
	e := l.Entry(s.Input, s.Judged.Verdict, compare.Signatures{s.Label}, s.Judged.Outs)
	e.Kind, e.Before = corpus.KindNondeterministic, slices.Clone(s.Before)
	return e
}
