package panel

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/minimize"
	"github.com/difffuzz/difffuzz/value"
)

// Judged is one case's outcomes and verdict.
type Judged struct {
	Outs       []compare.Outcome
	Verdict    compare.Verdict
	Signatures compare.Signatures
	Answered   bool // false: some adapter broke the protocol on it
}

// Open starts a panel for one-shot work (check, replay, minimize) with the
// default restart policy; a worker that will not start is an error with its
// stderr.
func Open(ctx context.Context, specs []adapter.Spec, log io.Writer) (*Panel, error) {
	l, err := Start(ctx, specs, 0, log)
	if err != nil {
		return nil, SetupError(err)
	}
	return l, nil
}

// maxBatchText bounds the text size of a one-shot batch, so that large
// inputs (a bug report's 10 MB case) go alone and no frame nears the cap.
const maxBatchText = 4 << 20

// DefaultBatch is the most cases one-shot work sends a batch (Judge, and
// by default the survey): small enough that a replay or a minimization
// round waits on no long batch. A fuzzing run has its own default
// (run.DefaultBatch).
const DefaultBatch = 256

// Judge runs cases through every adapter, up to DefaultBatch (and
// maxBatchText bytes) a batch, with text.
func (l *Panel) Judge(ctx context.Context, cases []any) ([]Judged, error) {
	out := make([]Judged, 0, len(cases))
	for len(cases) > 0 {
		n := batchLen(cases)
		outs, ok := Grow(nil, nil, n, len(l.names))
		if err := l.Run(ctx, &adapter.Batch{Cases: cases[:n]}, outs, ok); err != nil {
			return nil, err
		}
		l.RoundTrips++
		for i := range n {
			j := Judged{Outs: outs[i], Answered: ok[i]}
			if ok[i] {
				j.Verdict = l.cmp.Judge(cases[i], outs[i])
				j.Signatures = l.cmp.Signatures(j.Verdict)
			}
			out = append(out, j)
		}
		cases = cases[n:]
	}
	return out, nil
}

// batchLen is how many of cases go in the next batch.
func batchLen(cases []any) int {
	size := 0
	for i, c := range cases {
		size += len(value.AppendText(nil, c))
		if i == DefaultBatch || i > 0 && size > maxBatchText {
			return i
		}
	}
	return len(cases)
}

// Grow makes room for n cases' outcomes of k adapters, reusing outs and ok.
func Grow(outs [][]compare.Outcome, ok []bool, n, k int) ([][]compare.Outcome, []bool) {
	for len(outs) < n {
		outs = append(outs, make([]compare.Outcome, k))
	}
	if cap(ok) < n {
		ok = make([]bool, n)
	}
	return outs[:n], ok[:n]
}

// Minimized is a shrunk divergence with its outcomes.
type Minimized struct {
	Input   any
	Outs    []compare.Outcome
	Verdict compare.Verdict
	// Signatures are what the minimized input shows, computed afresh: the
	// bucket's label is read from them (docs/triage.md).
	Signatures compare.Signatures
	Rounds     int
	// Minimal is false when the minimizer stopped (its time ran out)
	// before a whole round left the input unchanged: the input may shrink
	// further.
	Minimal bool
	// Passes are what each of the minimizer's passes did
	// (minimize.Stats.Passes).
	Passes []minimize.Pass
}

// Minimize shrinks input while it keeps diverging with signature sig: the
// same kind and cause of first difference, in at least the adapters sig
// names (Signature.Covers).
func (l *Panel) Minimize(ctx context.Context, input any, sig compare.Signature) (*Minimized, error) {
	fails := func(ctx context.Context, cands []any) ([]bool, error) {
		js, err := l.Judge(ctx, cands)
		if err != nil {
			return nil, err
		}
		res := make([]bool, len(js))
		for i, j := range js {
			res[i] = j.Answered && slices.ContainsFunc(j.Signatures, func(s compare.Signature) bool { return s.Keeps(sig) })
		}
		return res, nil
	}
	v, st, err := minimize.Minimize(ctx, input, fails, minimize.Options{MaxBatchBytes: l.MaxCandidateBytes, Progress: l.MinimizeProgress})
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		if errors.Is(err, minimize.ErrNotReproducible) {
			return nil, fmt.Errorf("not reproducible: the input no longer shows %q", sig)
		}
		return nil, err
	}
	js, err := l.Judge(context.WithoutCancel(ctx), []any{v})
	if err != nil {
		return nil, err
	}
	return &Minimized{Input: v, Outs: js[0].Outs, Verdict: js[0].Verdict, Signatures: js[0].Signatures, Rounds: st.Rounds, Minimal: st.Minimal, Passes: st.Passes}, nil
}

// Label is the signature the minimized input shows for the cause it was
// kept for (compare.Signature.Keeps): kept's kind and cause, or the key
// order it now shows, naming the implementations whose own output on this
// input shows it (which may be fewer than a bucket that counted many cases
// named, or more than kept). ok is false when the input no longer shows
// the cause (a flaky finding).
func (m *Minimized) Label(kept compare.Signature) (compare.Signature, bool) {
	loose := compare.Signature{Kind: kept.Kind, Cause: kept.Cause}
	i := slices.IndexFunc(m.Signatures, func(s compare.Signature) bool { return s.Bucket() == kept.Bucket() })
	if i < 0 {
		i = slices.IndexFunc(m.Signatures, func(s compare.Signature) bool { return s.Keeps(loose) })
	}
	if i < 0 {
		return compare.Signature{}, false
	}
	return m.Signatures[i], true
}

// Entry is the corpus entry of a divergence: the input, the kind, the
// signatures and each adapter's outcome with the implementation and version
// its hello named, so that a finding says which versions disagreed.
func (l *Panel) Entry(input any, v compare.Verdict, sigs compare.Signatures, outs []compare.Outcome) *corpus.Entry {
	e := &corpus.Entry{Input: input, Kind: v.Kind(), Signatures: sigs, Contract: l.Contract, ContractFile: l.ContractFile}
	e.Outcomes = make([]corpus.Outcome, len(outs))
	for i, o := range outs {
		e.Outcomes[i] = l.outcome(i, o)
	}
	return e
}

// outcome is adapter i's outcome o as an entry records it, with the
// implementation and version its hello named. A digest is recorded beside
// its text, or alone when it is all a nondeterministic entry's first
// answer has.
func (l *Panel) outcome(i int, o compare.Outcome) corpus.Outcome {
	co := corpus.Outcome{Adapter: l.names[i], Canonical: string(o.Canonical), Error: o.Error, Failure: string(o.Failure), Inexpressible: o.Inexpressible}
	if o.Canonical != nil || o.Textless() {
		co.Digest = hex.EncodeToString(o.Digest)
	}
	if o.Failure != "" || o.Error == "internal" {
		co.Stderr = o.Detail
	}
	h := l.adapters[i].Hello()
	co.Impl, co.Version = h.Name, h.Version
	return co
}

// Names are the panel's adapters' names, the reference first.
func (l *Panel) Names() []string { return l.names }

// Comparator is the panel's comparator of outcomes; only the panel's goroutine
// may use it.
func (l *Panel) Comparator() *compare.Comparator { return l.cmp }

// SetupError renders a worker that would not start with its stderr.
func SetupError(err error) error {
	if f, ok := adapter.AsFailure(err); ok {
		return errors.New(f.WithStderr())
	}
	return err
}
