package run

import (
	"context"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/report"
)

// recheck asks bucket g's example again on l, before the minimizer shrinks
// it, and makes a nondeterministic finding of each adapter whose answer now
// differs from the one it gave while fuzzing (compare.Nondeterministic):
// by then its process has answered many more calls, or it is another
// lane's process. A corpus that cannot be written is an error.
func (c *collector) recheck(ctx context.Context, l *panel.Panel, g *group) error {
	if g.outs == nil || g.twin != nil {
		return nil
	}
	js, err := l.Judge(ctx, []any{g.input})
	if err != nil || !js[0].Answered {
		return nil // the minimizer's own check says why
	}
	for ai, o := range js[0].Outs {
		if !compare.Nondeterministic(g.outs[ai], o) {
			continue
		}
		d := panel.Drift{Adapter: ai, Before: g.outs[ai], After: o, How: panel.AskedMinimize}
		sig := compare.NondeterministicSignature(c.names[ai])
		f := finding{index: g.index, input: g.input, outs: js[0].Outs, signatures: []compare.Signature{sig}, drift: &d}
		f.entry = l.DriftEntry(g.input, d, f.outs)
		f.entry.Seed, f.entry.Index, f.entry.Generated = c.cfg.Seed, g.index, true
		path, err := corpus.Write(c.cfg.CorpusDir, f.entry)
		if err != nil {
			return err
		}
		c.countLate(sig, f, path)
	}
	return nil
}

// countLate counts a finding made while the run minimizes: in its bucket
// if the fuzzing made one, else in a new bucket that regroup takes in
// (late), kept as found.
func (c *collector) countLate(sig compare.Signature, f finding, path string) {
	_, had := c.groups[sig.Bucket()]
	c.found++
	c.count(sig, sig, f, path)
	if !had {
		g := c.groups[sig.Bucket()]
		g.NotMinimized, g.MinimizeNote = report.NotMinimizedNondeterministic, nondeterministicNote
		c.late = append(c.late, g)
	}
}
