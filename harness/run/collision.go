package run

import (
	"context"
	"fmt"
	"time"

	"github.com/difffuzz/difffuzz/harness/collide"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/panel"
)

// twin is the second case of a collision, judged with text.
type twin struct {
	input   any
	index   uint64
	outs    []compare.Outcome
	verdict compare.Verdict
	adapter int // the implementation that gave both cases one digest
}

// maxConfirm bounds the collisions a batch confirms: each is a round trip
// of two cases to every adapter. A bug that merges values merges more in
// later batches, so the rest of a batch's candidates are dropped and a
// collision bucket's count is a lower bound.
const maxConfirm = 16

// collision makes the oracle's candidate c a finding. Both cases are made
// again from their indexes and judged with text, which confirms it (the
// oracle matched 8 bytes of the digests) and names it by where the
// reference's two texts differ (compare.CollisionSignature); the finding
// carries both inputs only when the corpus wants its bucket. ok is false
// when the judgement says it is none, or the lane could not judge it.
func (r *runner) collision(ctx context.Context, l *panel.Panel, c collide.Candidate) (finding, bool) {
	name, x := r.names[c.Adapter], c.Adapter
	a, _ := r.gen.Case(c.A)
	b, _ := r.gen.Case(c.B)
	js, err := l.Judge(ctx, []any{a, b})
	if err != nil || !js[0].Answered || !js[1].Answered {
		fmt.Fprintf(r.cfg.Stderr, "difffuzz: cases %d and %d may collide in %s, but could not be judged again (%v)\n", c.A, c.B, name, err)
		return finding{}, false
	}
	ja, jb := js[0], js[1]
	sig, ok := compare.CollisionSignature(name, ja.Outs[0], jb.Outs[0], ja.Outs[x], ja.Signatures, jb.Signatures)
	if !ok || !compare.Collides(ja.Outs[0], jb.Outs[0], ja.Outs[x], jb.Outs[x]) {
		fmt.Fprintf(r.cfg.Stderr, "difffuzz: cases %d and %d looked like a collision in %s, but are none when judged with text\n", c.A, c.B, name)
		return finding{}, false
	}
	f := finding{index: c.A, pair: c.B, signatures: []compare.Signature{sig}}
	if !r.keep.Wants(f.signatures, f.index) {
		return f, true
	}
	f.input, f.outs, f.verdict = a, ja.Outs, ja.Verdict
	f.twin = &twin{input: b, index: c.B, outs: jb.Outs, verdict: jb.Verdict, adapter: x}
	f.entry = l.CollisionEntry(sig, a, b, ja, jb)
	f.entry.Seed, f.entry.Index, f.entry.TwinIndex, f.entry.Generated = r.cfg.Seed, c.A, c.B, true
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
