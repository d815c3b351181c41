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

// MinimizedPair is a shrunk collision: both inputs, judged.
type MinimizedPair struct {
	A, B    any
	JA, JB  Judged
	X       int // the implementation that gives both one digest
	Rounds  int
	Minimal bool // no pass of the last round shrank either input
	// Passes are what each of the shrinker's passes did
	// (minimize.PairStats).
	Passes []minimize.Pass
}

// MinimizePair shrinks a collision of adapter x: inputs a and b, which x
// gives one digest while the reference tells them apart
// (compare.Collides), with the cause of kept, the collision signature the
// pair shows, kept so at every step by minimize.MinimizePair, each
// candidate pair judged on the panel. Keeping the cause, as Minimize keeps
// a bucket's, stops a pair from drifting into another bug's collision: an
// SDK that keeps the last of a repeated key and checks no envelope makes
// both collide alike, and a pair of the first, shrunk freely, became one
// of the second, which then named a bucket of the first one's findings.
//
// A cause that is none of x's own deviations on the pair (read where the
// reference's two texts differ, past a context both cases share and x
// writes wrong alike) says nothing x did, and keeping it would keep that
// context too; such a pair is shrunk keeping only that x collides, and
// named by what the small pair shows.
func (l *Panel) MinimizePair(ctx context.Context, a, b any, x int, kept compare.Signature) (*MinimizedPair, error) {
	keep := l.collides(x, kept.Bucket())
	if !l.ownCause(ctx, a, b, x, kept) {
		keep = l.collides(x, "")
	}
	va, vb, st, err := minimize.MinimizePair(ctx, a, b, keep, minimize.Options{MaxBatchBytes: l.MaxCandidateBytes, Progress: l.MinimizeProgress})
	if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		if errors.Is(err, minimize.ErrNotReproducible) {
			return nil, fmt.Errorf("not reproducible: %s no longer gives the two inputs one digest", l.names[x])
		}
		return nil, err
	}
	m := &MinimizedPair{A: va, B: vb, X: x, Rounds: st.Rounds, Minimal: st.Minimal, Passes: st.Passes}
	js, err := l.Judge(context.WithoutCancel(ctx), []any{m.A, m.B})
	if err != nil {
		return nil, err
	}
	m.JA, m.JB = js[0], js[1]
	return m, nil
}

// collides is the pair shrinker's predicate: each pair must still collide
// in adapter x, by the cause of bucket (compare.Signature.Bucket). Each
// call judges every pair at once.
func (l *Panel) collides(x int, bucket string) minimize.PairFails {
	return func(ctx context.Context, pairs [][2]any) ([]bool, error) {
		flat := make([]any, 0, 2*len(pairs))
		for _, p := range pairs {
			flat = append(flat, p[0], p[1])
		}
		js, err := l.Judge(ctx, flat)
		if err != nil {
			return nil, err
		}
		res := make([]bool, len(pairs))
		for k := range pairs {
			ja, jb := js[2*k], js[2*k+1]
			res[k] = ja.Answered && jb.Answered && l.collidesAs(x, bucket, ja, jb)
		}
		return res, nil
	}
}

// ownCause reports whether kept's cause is one of adapter x's deviations
// on a or b (compare.CollisionSignature), judged afresh; true when they
// cannot be judged, so that the cause is kept.
func (l *Panel) ownCause(ctx context.Context, a, b any, x int, kept compare.Signature) bool {
	js, err := l.Judge(ctx, []any{a, b})
	if err != nil || !js[0].Answered || !js[1].Answered {
		return true
	}
	own := func(s compare.Signature) bool { return s.Cause == kept.Cause && s.Deviates(l.names[x]) }
	return slices.ContainsFunc(js[0].Signatures, own) || slices.ContainsFunc(js[1].Signatures, own)
}

// collidesAs reports whether adapter x gives the judged cases ja and jb one
// digest while the reference tells them apart, as a collision of bucket,
// or of any cause when bucket is "".
func (l *Panel) collidesAs(x int, bucket string, ja, jb Judged) bool {
	if !compare.Collides(ja.Outs[0], jb.Outs[0], ja.Outs[x], jb.Outs[x]) {
		return false
	}
	s, ok := compare.CollisionSignature(l.names[x], ja.Outs[0], jb.Outs[0], ja.Outs[x], ja.Signatures, jb.Signatures)
	return ok && (bucket == "" || s.Bucket() == bucket)
}

// CollisionEntry is the corpus entry of a collision of sig: both inputs,
// each with every adapter's outcome.
func (l *Panel) CollisionEntry(sig compare.Signature, a, b any, ja, jb Judged) *corpus.Entry {
	e := l.Entry(a, ja.Verdict, []compare.Signature{sig}, ja.Outs)
	e.Kind = string(compare.KindCollision)
	e.Twin, e.TwinOutcomes = b, l.Entry(b, jb.Verdict, nil, jb.Outs).Outcomes
	return e
}
