package lane

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/minimize"
	"github.com/difffuzz/difffuzz/value"
)

// MinimizedPair is a shrunk collision: both inputs, judged.
type MinimizedPair struct {
	A, B    any
	JA, JB  Judged
	X       int // the implementation that gives both one digest
	Rounds  int
	Minimal bool // no pass of the last round shrank either input
}

// pairRounds bounds the rounds of MinimizePair's passes (the joint one,
// then each input alone); each round that shrinks nothing ends it sooner.
const pairRounds = 4

// MinimizePair shrinks a collision of adapter x: inputs a and b, which x
// gives one digest while the reference tells them apart
// (compare.Collides), kept so at every step. Shrinking one input alone
// mostly breaks the shared digest, so the pair shrinks jointly first:
// where the two are the same value but for one subtree or the middle of
// one string (twins are), that shared context is minimized once, with a
// and b's own parts grafted into each candidate; then the words and
// integers both hold are renamed in both at once (shrinkTokens), which
// shortens twins that differ in their shape. Then each input shrinks with
// the other held, and the passes repeat while one pays.
func (l *Lane) MinimizePair(ctx context.Context, a, b any, x int) (*MinimizedPair, error) {
	m := &MinimizedPair{A: a, B: b, X: x}
	for round := 0; round < pairRounds && ctx.Err() == nil; round++ {
		shrank := false
		passes := []func(ctx context.Context) (bool, error){
			func(ctx context.Context) (bool, error) { return l.shrinkJoint(ctx, m, x) },
			func(ctx context.Context) (bool, error) { return l.shrinkTokens(ctx, m, x) },
			func(ctx context.Context) (bool, error) {
				return l.shrinkSide(ctx, m, x, m.A, func(c any) (any, any) { return c, m.B }, func(v any) { m.A = v })
			},
			func(ctx context.Context) (bool, error) {
				return l.shrinkSide(ctx, m, x, m.B, func(c any) (any, any) { return m.A, c }, func(v any) { m.B = v })
			},
		}
		for _, pass := range passes {
			s, err := pass(ctx)
			if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
				if errors.Is(err, minimize.ErrNotReproducible) {
					return nil, fmt.Errorf("not reproducible: %s no longer gives the two inputs one digest", l.names[x])
				}
				return nil, err
			}
			shrank = shrank || s
		}
		if !shrank && ctx.Err() == nil {
			m.Minimal = true
			break
		}
	}
	js, err := l.Judge(context.WithoutCancel(ctx), []any{m.A, m.B})
	if err != nil {
		return nil, err
	}
	m.JA, m.JB = js[0], js[1]
	return m, nil
}

// Label is the collision signature the minimized pair shows in its
// implementation X, named in names (compare.CollisionSignature), computed
// afresh from its two judgements: where the pair's reference texts now
// differ, or the deviation X now shows on both. ok is false when X no
// longer merges the two (a flaky finding).
func (m *MinimizedPair) Label(names []string) (compare.Signature, bool) {
	if !compare.Collides(m.JA.Outs[0], m.JB.Outs[0], m.JA.Outs[m.X], m.JB.Outs[m.X]) {
		return compare.Signature{}, false
	}
	return compare.CollisionSignature(names[m.X], m.JA.Outs[0], m.JB.Outs[0], m.JA.Signatures, m.JB.Signatures)
}

// shrinkJoint minimizes the context a and b share around their one
// differing subtree or substring; false when they share none (they
// differ at the top).
func (l *Lane) shrinkJoint(ctx context.Context, m *MinimizedPair, x int) (bool, error) {
	h := hole(m.A, m.B)
	if isHole(h.shared) {
		return false, nil
	}
	build := func(c any) (any, any, bool) {
		a, na := h.graft(c, h.a)
		b, nb := h.graft(c, h.b)
		return a, b, na == 1 && nb == 1
	}
	v, st, err := minimize.Minimize(ctx, h.shared, l.collides(x, build), minimize.Options{MaxBatchBytes: l.MaxCandidateBytes})
	m.Rounds += st.Rounds
	if st.Steps == 0 {
		return false, err
	}
	m.A, _ = h.graft(v, h.a)
	m.B, _ = h.graft(v, h.b)
	return true, err
}

// shrinkSide minimizes one input, the other held, and sets it with set.
func (l *Lane) shrinkSide(ctx context.Context, m *MinimizedPair, x int, from any, pair func(c any) (any, any), set func(v any)) (bool, error) {
	build := func(c any) (any, any, bool) { a, b := pair(c); return a, b, true }
	v, st, err := minimize.Minimize(ctx, from, l.collides(x, build), minimize.Options{MaxBatchBytes: l.MaxCandidateBytes})
	m.Rounds += st.Rounds
	if st.Steps == 0 {
		return false, err
	}
	set(v)
	return true, err
}

// collides is the minimizer's predicate: a candidate builds a pair, which
// must still collide in adapter x. Each batch judges every pair at once.
func (l *Lane) collides(x int, build func(c any) (any, any, bool)) func(context.Context, []any) ([]bool, error) {
	return func(ctx context.Context, cands []any) ([]bool, error) {
		var flat []any
		var at []int // the candidates that built a pair, in flat's order
		for i, c := range cands {
			if a, b, ok := build(c); ok {
				flat, at = append(flat, a, b), append(at, i)
			}
		}
		js, err := l.Judge(ctx, flat)
		if err != nil {
			return nil, err
		}
		res := make([]bool, len(cands))
		for k, i := range at {
			ja, jb := js[2*k], js[2*k+1]
			res[i] = ja.Answered && jb.Answered && compare.Collides(ja.Outs[0], jb.Outs[0], ja.Outs[x], jb.Outs[x])
		}
		return res, nil
	}
}

// holeMark stands for where the two inputs differ in the shared context:
// a value, or the middle of a string or a key. The minimizer cannot keep a
// candidate that changes, drops or copies it.
const holeMark = "\uE000difffuzz: the twins differ here\uE000"

func isHole(v any) bool { s, ok := v.(string); return ok && s == holeMark }

// split is two inputs as what they share and where they differ: shared
// holds holeMark where a holds a and b holds b; inString says the mark is
// in a string or a key, and a and b are the strings in its place.
type split struct {
	shared, a, b any
	inString     bool
}

// hole splits a and b at their one difference: one element, one member's
// value, the middle of one string, or the middle of one member's key. Two
// values that differ in more than one place (or in their shape) differ at
// the top: shared is holeMark itself.
func hole(a, b any) split {
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			pre, ma, mb, suf := middles(x, y)
			return split{shared: pre + holeMark + suf, a: ma, b: mb, inString: true}
		}
	case []any:
		if y, ok := b.([]any); ok && len(x) == len(y) {
			if i, one := oneDiff(len(x), func(i int) bool { return value.Equal(x[i], y[i]) }); one {
				h := hole(x[i], y[i])
				c := slices.Clone(x)
				c[i], h.shared = h.shared, c
				return h
			}
		}
	case value.Object:
		if y, ok := b.(value.Object); ok && len(x) == len(y) {
			same := func(i int) bool { return x[i].Key == y[i].Key && value.Equal(x[i].Value, y[i].Value) }
			if i, one := oneDiff(len(x), same); one {
				c := slices.Clone(x)
				switch {
				case x[i].Key == y[i].Key:
					h := hole(x[i].Value, y[i].Value)
					c[i].Value, h.shared = h.shared, c
					return h
				case value.Equal(x[i].Value, y[i].Value):
					pre, ma, mb, suf := middles(x[i].Key, y[i].Key)
					c[i].Key = pre + holeMark + suf
					return split{shared: c, a: ma, b: mb, inString: true}
				}
			}
		}
	}
	return split{shared: holeMark, a: a, b: b}
}

// middles cuts x and y into their common prefix, their own middles and
// their common suffix, at character boundaries.
func middles(x, y string) (pre, mx, my, suf string) {
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		p++
	}
	for p > 0 && (p < len(x) && !utf8.RuneStart(x[p]) || p < len(y) && !utf8.RuneStart(y[p])) {
		p--
	}
	s := 0
	for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
		s++
	}
	for s > 0 && !utf8.RuneStart(x[len(x)-s]) {
		s--
	}
	return x[:p], x[p : len(x)-s], y[p : len(y)-s], x[len(x)-s:]
}

// oneDiff is the index of the one i of n where same is false, if one.
func oneDiff(n int, same func(i int) bool) (int, bool) {
	at := -1
	for i := range n {
		if !same(i) {
			if at >= 0 {
				return 0, false
			}
			at = i
		}
	}
	return at, at >= 0
}

// graft is v with each holeMark replaced by fill (a string, in strings and
// keys, when h.inString; else a whole value), and how many there were.
func (h split) graft(v any, fill any) (any, int) {
	switch x := v.(type) {
	case string:
		if h.inString {
			n := strings.Count(x, holeMark)
			if n == 0 {
				return x, 0
			}
			return strings.ReplaceAll(x, holeMark, fill.(string)), n
		}
		if x == holeMark {
			return fill, 1
		}
	case []any:
		n := 0
		c := make([]any, len(x))
		for i, e := range x {
			var k int
			c[i], k = h.graft(e, fill)
			n += k
		}
		return c, n
	case value.Object:
		n := 0
		c := make(value.Object, len(x))
		for i, m := range x {
			k := strings.Count(m.Key, holeMark)
			c[i].Key = m.Key
			if k > 0 && h.inString {
				c[i].Key = strings.ReplaceAll(m.Key, holeMark, fill.(string))
			} else if k > 0 {
				k = 2 // a key is no place for a whole value
			}
			var kv int
			c[i].Value, kv = h.graft(m.Value, fill)
			n += k + kv
		}
		return c, n
	}
	return v, 0
}

// CollisionEntry is the corpus entry of a collision of sig: both inputs,
// each with every adapter's outcome.
func (l *Lane) CollisionEntry(sig compare.Signature, a, b any, ja, jb Judged) *corpus.Entry {
	e := l.Entry(a, ja.Verdict, []compare.Signature{sig}, ja.Outs)
	e.Kind = string(compare.KindCollision)
	e.Twin, e.TwinOutcomes = b, l.Entry(b, jb.Verdict, nil, jb.Outs).Outcomes
	return e
}
