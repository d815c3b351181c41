package run

import (
	"bytes"
	"context"
	"fmt"
	"sync"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/harness/panel"
)

// The determinism oracle in the run (docs/triage.md, "Nondeterministic"):
// an implementation that answers one case two ways signs one call two
// ways. The lane notes a case whose re-ask with text answers otherwise
// (panel.Drift); the resend share asks a few cases again later, digest-only,
// on another lane's processes when the run has several, where a counter, a
// bounded cache or a per-process seed has moved on.

// DefaultResendOneIn is Config.ResendOneIn's default: one case in 64 is
// sent again. Each batch then takes one more round trip, of 1/64 of its
// cases, digest-only: 1.6% more cases for the implementations, and one
// more wake-up of every worker a batch. Measured (the in-process Go
// against the zoo's control worker, 300,000 cases, batches of 2,048, two
// lanes, three seeds, on two loaded cores), the run's CPU (driver and
// workers) was 67.5 us a case without a resend share, 68.9 us at 1 in 64
// (+2%) and 76.3 us at 1 in 8 (+13%); wall time was within the host's
// noise. A state that changes the output once in N calls is seen about
// N*64 cases in by the resend alone (the re-ask sees most sooner).
const DefaultResendOneIn = 64

// maxResendHeld bounds the cases waiting to be sent again: each holds its
// index and every adapter's digest (a few hundred bytes). Past it the
// oldest are dropped; a lane takes what waits at every batch, so only a
// run whose lanes stall fills it.
const maxResendHeld = 4096

// resendSalt keeps the resend share's choice apart from the generator's
// other draws on (seed, index).
const resendSalt = 0x9d3ce1a8b7f2e645

// resent is a case waiting to be sent again: its index, the lane that
// answered it, and each adapter's digest-only answer.
type resent struct {
	index uint64
	lane  int
	outs  []compare.Outcome
}

// resender is the run's cases waiting to be sent again, shared by the
// lanes.
type resender struct {
	oneIn uint64 // 0: none
	seed  uint64
	lanes int
	mu    sync.Mutex
	held  []resent
}

func newResender(cfg *Config, lanes int) *resender {
	r := &resender{seed: cfg.Seed, lanes: lanes}
	if cfg.ResendOneIn > 0 {
		r.oneIn = uint64(cfg.ResendOneIn)
	}
	return r
}

// chosen reports whether case index is one of the resend share: a hash of
// (seed, index), so that a run's choice is the same each time.
func (s *resender) chosen(index uint64) bool {
	return gen.OneIn(s.seed, resendSalt, index, s.oneIn)
}

// hold keeps the chosen answered cases of a batch that lane ln ran, each
// adapter's answer reduced to what the oracle compares (digest and error
// code), for a later batch.
func (s *resender) hold(ln int, indexes []uint64, outs [][]compare.Outcome, ok []bool) {
	if s.oneIn == 0 {
		return
	}
	var add []resent
	for i, index := range indexes {
		if !ok[i] || !s.chosen(index) {
			continue
		}
		row := make([]compare.Outcome, len(outs[i]))
		for ai, o := range outs[i] {
			row[ai] = compare.Outcome{Digest: bytes.Clone(o.Digest), Error: o.Error, Failure: o.Failure, Inexpressible: o.Inexpressible}
		}
		add = append(add, resent{index: index, lane: ln, outs: row})
	}
	if len(add) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held = append(s.held, add...)
	if over := len(s.held) - maxResendHeld; over > 0 {
		s.held = append(s.held[:0], s.held[over:]...)
	}
}

// take removes and returns the cases lane ln is to send again: those
// another lane answered, when the run has several (another worker process
// of the same implementation), else all that wait, which an earlier batch
// held.
func (s *resender) take(ln int) []resent {
	s.mu.Lock()
	defer s.mu.Unlock()
	var mine, rest []resent
	for _, h := range s.held {
		if h.lane != ln || s.lanes == 1 {
			mine = append(mine, h)
		} else {
			rest = append(rest, h)
		}
	}
	s.held = rest
	return mine
}

// resend sends lane ln the cases waiting for it again and returns a finding
// for each answer that differs from the one given before; they join the
// lane's history. It runs after
// the lane's batch was judged, so that the batch's own re-asks are done.
func (r *runner) resend(ctx context.Context, ln int, l *panel.Panel, hist *history) ([]finding, error) {
	due := r.resends.take(ln)
	if len(due) == 0 {
		return nil, nil
	}
	for _, h := range due {
		hist.push(h.index)
	}
	cases := make([]any, len(due))
	before := make([][]compare.Outcome, len(due))
	for k, h := range due {
		cases[k], _ = r.gen.Case(h.index)
		before[k] = h.outs
	}
	drifts, err := l.Resend(ctx, cases, before)
	if err != nil {
		return nil, fmt.Errorf("resend: %w", err)
	}
	var fs []finding
	for _, d := range drifts {
		outs := make([]compare.Outcome, len(before[d.Case]))
		outs[d.Adapter] = d.After
		fs = append(fs, r.driftFinding(l, d, due[d.Case].index, cases[d.Case], outs))
	}
	return fs, nil
}

// driftFinding makes drift d, of case index (input), a finding of the
// nondeterministic kind: one bucket per implementation, whatever the two
// answers were (compare.NondeterministicCause), never folded into a bucket
// of wrong output. outs are every adapter's latest outcomes on the case.
func (r *runner) driftFinding(l *panel.Panel, d panel.Drift, index uint64, input any, outs []compare.Outcome) finding {
	f := finding{index: index, signatures: []compare.Signature{compare.NondeterministicSignature(r.names[d.Adapter])}, drift: &d}
	if r.keep.Wants(f.signatures, f.index) {
		f.input = input
		f.outs = append([]compare.Outcome(nil), outs...)
		f.entry = l.DriftEntry(input, d, f.outs)
		f.entry.Seed, f.entry.Index, f.entry.Generated = r.cfg.Seed, f.index, true
	}
	return f
}

// nondeterministicNote says why a nondeterministic bucket keeps its
// example as found.
const nondeterministicNote = "one input given two answers is kept as found: the minimizer asks each candidate once, " +
	"and the state that made the second answer differ (a counter, a cache, a seed) is the worker's, not the input's; " +
	"its corpus entry holds both answers"
