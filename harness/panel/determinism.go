package panel

import (
	"bytes"
	"context"
	"slices"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
)

// The determinism oracle: an implementation asked the same case twice must
// answer alike (compare.Nondeterministic). The panel asks a case twice when
// its digests disagree (the re-ask with text) and when the run resends it
// (Resend); a second answer that differs from the first is a Drift, kept
// beside the outcomes rather than replacing the first answer, which would
// forget it.

// How a case was asked again, for a Drift's rendering.
const (
	AskedReask  = "a re-ask with text"
	AskedResend = "a resend in a later batch"
	// AskedMinimize: the run asked a bucket's example again before
	// minimizing it.
	AskedMinimize = "the run's minimization"
)

// Drift is one adapter's two answers to one case: Before, the first
// (digest-only, so maybe without text), and After, the second.
type Drift struct {
	Case    int // the case's index in the batch (or the cases of Resend)
	Adapter int
	Before  compare.Outcome
	After   compare.Outcome
	How     string // AskedReask or AskedResend
}

// Reasked are the cases of the panel's last Run asked again with text, in
// the order they were asked (after the whole batch): the calls a worker
// answered before each of them. Valid until the next Run.
func (l *Panel) Reasked() []int { return l.reasked }

// Drifts are the drifts the panel's last Run saw between a case's
// digest-only answer and its re-ask, in case order; they are valid until
// the next Run.
func (l *Panel) Drifts() []Drift { return l.drifts }

// firstAnswers keeps, for each case of again, the digest-only answers the
// re-ask is about to replace, by adapter: only those without text, the
// ones reask asks again. The digests are copied, since a worker's next
// batch may reuse the bytes they point into.
func (l *Panel) firstAnswers(outs [][]compare.Outcome, again []int) [][]compare.Outcome {
	first := make([][]compare.Outcome, len(again))
	for k, i := range again {
		first[k] = make([]compare.Outcome, len(l.adapters))
		for ai, o := range outs[i] {
			if o.Textless() {
				first[k][ai] = compare.Outcome{Digest: bytes.Clone(o.Digest)}
			}
		}
	}
	return first
}

// noteDrifts sets l.drifts to the adapters whose re-asked answer to a case
// of again differs from first, its digest-only answer.
func (l *Panel) noteDrifts(first [][]compare.Outcome, outs [][]compare.Outcome, ok []bool, again []int) {
	for k, i := range again {
		if !ok[i] {
			continue
		}
		for ai, before := range first[k] {
			if before.Digest != nil && compare.Nondeterministic(before, outs[i][ai]) {
				l.drifts = append(l.drifts, Drift{Case: i, Adapter: ai, Before: before, After: outs[i][ai], How: AskedReask})
			}
		}
	}
}

// Resend asks every adapter again, digest-only, for cases it answered
// before in an earlier batch (before[k][ai], adapter ai's answer to
// cases[k]), and returns the answers that differ. It is the run's resend
// share: a state that changes the output only after many calls (a counter,
// a bounded cache, a per-process seed on another panel's process) shows
// there, where a re-ask a moment later would not. A case some adapter
// leaves unanswered (a protocol breach) is not compared. A non-nil error is
// fatal to the run, as Run's.
func (l *Panel) Resend(ctx context.Context, cases []any, before [][]compare.Outcome) ([]Drift, error) {
	if len(cases) == 0 {
		return nil, nil
	}
	outs, ok := Grow(nil, nil, len(cases), len(l.adapters))
	if err := l.runBatch(ctx, &adapter.Batch{Cases: cases, DigestOnly: true}, outs, ok); err != nil {
		return nil, err
	}
	var drifts []Drift
	for k := range cases {
		if !ok[k] {
			continue
		}
		for ai, b := range before[k] {
			if compare.Nondeterministic(b, outs[k][ai]) {
				after := outs[k][ai]
				after.Digest, after.Canonical = slices.Clone(after.Digest), slices.Clone(after.Canonical)
				drifts = append(drifts, Drift{Case: k, Adapter: ai, Before: b, After: after, How: AskedResend})
			}
		}
	}
	return drifts, nil
}

// DriftEntry is the corpus entry of drift d on input: its signature
// (compare.NondeterministicSignature), every adapter's outcome in outs (the
// second answers), and the drifting adapter's first answer in Earlier.
func (l *Panel) DriftEntry(input any, d Drift, outs []compare.Outcome) *corpus.Entry {
	sig := compare.NondeterministicSignature(l.names[d.Adapter])
	e := l.Entry(input, compare.Verdict{}, compare.Signatures{sig}, outs)
	e.Kind = corpus.KindNondeterministic
	e.Outcomes[d.Adapter] = l.outcome(d.Adapter, d.After)
	e.Earlier = []corpus.Outcome{l.outcome(d.Adapter, d.Before)}
	return e
}
