package run

import (
	"context"
	"slices"

	"github.com/difffuzz/difffuzz/harness/collide"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/harness/panel"
)

// finding is one case on which the adapters disagreed. Only a finding the
// keeper wants carries its input, outcomes and corpus entry (made on the
// lane that ran it); the others are counted by their signatures alone.
type finding struct {
	index      uint64
	input      any
	outs       []compare.Outcome
	verdict    compare.Verdict
	signatures []compare.Signature
	entry      *corpus.Entry
	// pair is, for a collision, the other case's index (above index),
	// and twin that case judged, when the finding carries its inputs.
	pair uint64
	twin *twin
	// drift is, for a nondeterministic finding, the adapter's two answers.
	drift *panel.Drift
	// before are the indexes of the cases the lane's workers answered
	// before this one (history.go), when the finding carries its input.
	before []uint64
}

// batchDone is what a lane reports after a batch.
type batchDone struct {
	n             uint64 // the batch's number
	cases         int
	compared      int
	findings      []finding
	classes       []gen.Classes
	cov           *gen.Coverage
	inexpressible []absent
	allowed       []allowedCase // the cases with a difference the contract allows
	held          int64         // bytes counted against the memory budget until the collector is done
}

// absent is one case an adapter's native model could not hold.
type absent struct {
	adapter int
	classes gen.Classes
	reason  string
}

// drive is one lane's loop: take a batch, run it, judge it. A batch taken is
// finished unless the parent context (Ctrl-C) ends; runCtx ending only stops
// taking batches. An error is fatal to the run (a worker that cannot be
// restarted).
func (r *runner) drive(runCtx, parent context.Context, ln int, l *panel.Panel, batches <-chan batch, results chan<- batchDone) error {
	var outs [][]compare.Outcome
	var ok []bool
	var judged []collide.Seen
	var hist history
	for {
		var b batch
		select {
		case next, more := <-batches:
			if !more {
				return nil
			}
			b = next
		case <-runCtx.Done():
			return nil
		}
		outs, ok = panel.Grow(outs, ok, len(b.cases), len(r.names))
		if err := l.Run(parent, b.wire, outs, ok); err != nil {
			if parent.Err() != nil {
				return nil // Ctrl-C: the report says the run was interrupted
			}
			return err
		}
		d := r.judge(parent, l, &b, outs, ok, &judged, &hist)
		again, err := r.resend(parent, ln, l, &hist) // cases an earlier batch held
		if err != nil {
			if parent.Err() != nil {
				return nil
			}
			return err
		}
		d.findings = append(d.findings, again...)
		r.resends.hold(ln, b.indexes, outs, ok)
		r.mem.charge(&d)
		r.recycle(b.wire) // every round trip of the batch has ended
		results <- d
	}
}

// judge compares every answered case of a batch, then gives them to the
// collision oracle (judged is its scratch, reused batch after batch) and
// adds the collisions they complete. A finding kept carries the calls
// before it (hist, which the batch's calls then join).
func (r *runner) judge(ctx context.Context, l *panel.Panel, b *batch, outs [][]compare.Outcome, ok []bool, judged *[]collide.Seen, hist *history) batchDone {
	reasked := slices.Clone(l.Reasked()) // before a collision's Judge runs the lane again
	defer hist.pushBatch(b, reasked)
	cmp := l.Comparator()
	d := batchDone{n: b.n, cases: len(b.cases), classes: b.classes, cov: &b.cov, held: b.held}
	for _, dr := range l.Drifts() { // before a collision's Judge runs the lane again
		d.findings = append(d.findings, r.driftFinding(l, dr, b.indexes[dr.Case], b.cases[dr.Case], outs[dr.Case]))
	}
	*judged = (*judged)[:0]
	for i, c := range b.cases {
		if !ok[i] {
			continue
		}
		d.compared++
		for ai, o := range outs[i] {
			if o.Absent() {
				d.inexpressible = append(d.inexpressible, absent{ai, b.classes[i], o.Inexpressible})
			}
		}
		v := cmp.Judge(c, outs[i])
		if len(v.Allowed) > 0 {
			d.allowed = append(d.allowed, allowedCase{index: b.indexes[i], input: c, verdict: v})
		}
		if v.Agree {
			if r.watch != nil {
				*judged = append(*judged, collide.Seen{Index: b.indexes[i], Outs: v.Masked(outs[i])})
			}
			continue
		}
		f := finding{index: b.indexes[i], signatures: cmp.Signatures(v)}
		if r.watch != nil {
			*judged = append(*judged, collide.Seen{Index: b.indexes[i], Outs: v.Masked(outs[i]), Sigs: f.signatures})
		}
		if r.keep.Wants(f.signatures, f.index) {
			f.input, f.verdict = c, v
			f.outs = append([]compare.Outcome(nil), outs[i]...)
			f.entry = l.Entry(c, v, f.signatures, f.outs)
			f.entry.Seed, f.entry.Index, f.entry.Generated = r.cfg.Seed, f.index, true
			f.before = callsBefore(hist, b, i, reasked)
		}
		d.findings = append(d.findings, f)
	}
	found := r.watch.Observe(*judged)
	for _, cand := range found[:min(len(found), maxConfirm)] {
		if f, ok := r.collision(ctx, l, cand); ok {
			d.findings = append(d.findings, f)
		}
	}
	return d
}
