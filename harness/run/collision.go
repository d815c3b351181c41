package run

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"difffuzz/harness/corpus"
	"difffuzz/value"

	"difffuzz/harness/compare"
	"difffuzz/harness/lane"
)

// twin is the second case of a collision, judged with text.
type twin struct {
	input   any
	index   uint64
	outs    []compare.Outcome
	verdict compare.Verdict
	adapter int // the implementation that gave both cases one digest
}

// collision makes the oracle's candidate c a finding. When the corpus
// wants no more of its bucket it is counted by its signature alone, as any
// finding is; otherwise both cases are made again from their indexes and
// judged with text, which confirms it (the oracle matched 8 bytes of the
// digests) and names its cause from the texts. ok is false when the
// judgement says it is none, or the lane could not judge it.
func (r *runner) collision(ctx context.Context, l *lane.Lane, c candidate) (finding, bool) {
	name := r.names[c.adapter]
	f := finding{index: c.a, pair: c.b,
		signatures: []compare.Signature{{Kind: compare.KindCollision, Cause: c.cause, Deviants: []string{name}}}}
	if !r.keep.wants(f.signatures, f.index) {
		return f, true
	}
	a, _ := r.gen.Case(c.a)
	b, _ := r.gen.Case(c.b)
	js, err := l.Judge(ctx, []any{a, b})
	if err != nil || !js[0].Answered || !js[1].Answered {
		fmt.Fprintf(r.cfg.Stderr, "difffuzz: cases %d and %d may collide in %s, but could not be judged again (%v)\n", c.a, c.b, name, err)
		return f, false
	}
	x := c.adapter
	if !compare.Collides(js[0].Outs[0], js[1].Outs[0], js[0].Outs[x], js[1].Outs[x]) {
		fmt.Fprintf(r.cfg.Stderr, "difffuzz: cases %d and %d looked like a collision in %s, but are none when judged with text\n", c.a, c.b, name)
		return f, false
	}
	if s, ok := compare.CollisionSignature(name, js[0].Signatures, js[1].Signatures); ok {
		f.signatures[0] = s
	}
	f.input, f.outs, f.verdict = a, js[0].Outs, js[0].Verdict
	f.twin = &twin{input: b, index: c.b, outs: js[1].Outs, verdict: js[1].Verdict, adapter: x}
	f.entry = l.CollisionEntry(f.signatures[0], a, b, js[0], js[1])
	f.entry.Seed, f.entry.Index, f.entry.TwinIndex, f.entry.Generated = r.cfg.Seed, c.a, c.b, true
	return f, true
}

// collisions notes when the first collision was counted and the lowest
// later case of one, for the report's first_collision figures.
func (c *collector) collisions(f finding) {
	if f.pair == 0 {
		return
	}
	if c.firstCollision == 0 {
		c.firstCollision, c.collisionIndex = time.Since(c.start), f.pair
	}
	c.collisionIndex = min(c.collisionIndex, f.pair)
}

// firstCollisionCases is how many of this shard's cases it took to the
// later case of the first collision in case order; 0 without one.
func (c *collector) firstCollisionCases() uint64 {
	if c.firstCollision == 0 {
		return 0
	}
	return (c.collisionIndex-c.cfg.Shard)/c.cfg.Shards + 1
}

// minimizePair shrinks a collision group's example as a pair (see
// lane.MinimizePair), within the configured time, and stores it.
func (c *collector) minimizePair(ctx context.Context, l *lane.Lane, g *group) error {
	mctx, cancel := context.WithTimeout(ctx, c.cfg.MinimizeTime)
	m, err := l.MinimizePair(mctx, g.input, g.twin.input, g.twin.adapter)
	cancel()
	if ctx.Err() != nil {
		return nil
	}
	if err != nil {
		g.MinimizeNote = err.Error()
		return nil
	}
	e := l.CollisionEntry(g.sig, m.A, m.B, m.JA, m.JB)
	e.MinimizedFrom = filepath.Base(g.First)
	path, err := corpus.Write(c.cfg.CorpusDir, e)
	if err != nil {
		return err
	}
	g.Minimized, g.MinimizedTwin = string(value.AppendText(nil, m.A)), string(value.AppendText(nil, m.B))
	g.MinimizedPath, g.MinimizeRounds = path, m.Rounds
	g.Diff = c.cmp.RenderCollision(g.twin.adapter, m.JA.Outs, m.JB.Outs)
	if !m.Minimal {
		g.MinimizeIncomplete = true
		g.MinimizeNote = fmt.Sprintf("the pair's minimization stopped after %d rounds when its %v ran out; "+
			"a longer -minimize-time (or difffuzz minimize %s) may shrink it further", m.Rounds, c.cfg.MinimizeTime, g.First)
	}
	return nil
}
