package minimize

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/value"
)

// PairFails reports, for each candidate pair, whether it still shows the
// collision being minimized: one implementation gives both inputs one
// digest while the reference tells them apart. It must return one result
// per pair and must not modify them.
type PairFails func(ctx context.Context, pairs [][2]any) ([]bool, error)

// PairStats is what MinimizePair did, pass by pass.
type PairStats struct {
	Rounds  int  // calls of fails, in total
	Minimal bool // no pass of the last round shrank either input
	// Passes are the pair's passes in the order they run each round:
	// "joint", "tokens", "side-a", "side-b" (see MinimizePair). Tried
	// counts the pairs judged, Hits those that still collided, Shrinks the
	// times the pair became smaller, Removed the bytes of extended JSON
	// text the pass took off the two inputs, Seconds its time.
	Passes []Pass
}

// The pair's passes, in the order they run.
const (
	pairJoint = iota
	pairTokens
	pairSideA
	pairSideB
	pairPasses
)

var pairPassNames = [pairPasses]string{"joint", "tokens", "side-a", "side-b"}

// pairRounds bounds the rounds of MinimizePair's passes; each round that
// shrinks nothing ends it sooner.
const pairRounds = 4

// MinimizePair shrinks a collision: inputs a and b, kept colliding (fails)
// at every step. Shrinking one input alone mostly breaks the shared
// digest, so the pair shrinks jointly first ("joint"): where the two are
// the same value but for one subtree or the middle of one string (twins
// are), that shared context is minimized once, with a and b's own parts
// grafted into each candidate; then the words and integers both hold are
// renamed in both at once ("tokens"), which shortens twins that differ in
// their shape. Then each input shrinks with the other held ("side-a",
// "side-b"), and the passes repeat while one pays.
//
// The first call of fails checks the pair as given; if it no longer
// collides, MinimizePair returns ErrNotReproducible. When ctx ends, the
// smallest colliding pair so far is returned with ctx's error.
func MinimizePair(ctx context.Context, a, b any, fails PairFails, opt Options) (any, any, PairStats, error) {
	p := &pairMin{a: a, b: b, fails: fails, opt: opt}
	p.stats.Passes = make([]Pass, pairPasses)
	for i := range p.stats.Passes {
		p.stats.Passes[i].Name = pairPassNames[i]
	}
	ok, err := p.call(ctx, [][2]any{{a, b}})
	if err != nil {
		return a, b, p.stats, err
	}
	if !ok[0] {
		return a, b, p.stats, ErrNotReproducible
	}
	passes := [pairPasses]func(context.Context) (bool, error){
		p.joint, p.tokens,
		func(ctx context.Context) (bool, error) {
			return p.side(ctx, p.a, func(c any) [2]any { return [2]any{c, p.b} }, func(v any) { p.a = v })
		},
		func(ctx context.Context) (bool, error) {
			return p.side(ctx, p.b, func(c any) [2]any { return [2]any{p.a, c} }, func(v any) { p.b = v })
		},
	}
	for round := 0; round < pairRounds && ctx.Err() == nil; round++ {
		shrank := false
		for i, pass := range passes {
			s, err := p.timed(ctx, i, pass)
			if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
				return p.a, p.b, p.stats, err
			}
			shrank = shrank || s
		}
		if !shrank && ctx.Err() == nil {
			p.stats.Minimal = true
			break
		}
	}
	return p.a, p.b, p.stats, ctx.Err()
}

// pairMin is one pair's minimization: the pair so far and its counts.
type pairMin struct {
	a, b  any
	fails PairFails
	opt   Options
	stats PairStats
	pass  int // the pass running, whose counts call adds to
}

// timed runs pass i, counting its time and the bytes it took off the pair.
func (p *pairMin) timed(ctx context.Context, i int, pass func(context.Context) (bool, error)) (bool, error) {
	before, began := p.size(), time.Now()
	p.pass = i
	shrank, err := pass(ctx)
	st := &p.stats.Passes[i]
	st.Seconds += time.Since(began).Seconds()
	if shrank {
		st.Shrinks++
		st.Removed += before - p.size()
	}
	return shrank, err
}

// size is the pair's text in extended JSON, in bytes.
func (p *pairMin) size() int {
	return len(value.AppendText(nil, p.a)) + len(value.AppendText(nil, p.b))
}

// call judges pairs, counting them to the running pass.
func (p *pairMin) call(ctx context.Context, pairs [][2]any) ([]bool, error) {
	p.stats.Rounds++
	res, err := p.fails(ctx, pairs)
	if err != nil {
		return nil, err
	}
	if p.opt.Progress != nil { // size writes both inputs' text
		p.opt.progress(Progress{Rounds: p.stats.Rounds, Size: p.size(), Pass: pairPassNames[p.pass]})
	}
	if len(res) != len(pairs) {
		return nil, errors.New("minimize: the pair predicate returned the wrong number of results")
	}
	if p.stats.Rounds > 1 { // the first call checks the pair given
		st := &p.stats.Passes[p.pass]
		st.Tried += len(pairs)
		for _, r := range res {
			if r {
				st.Hits++
			}
		}
	}
	return res, nil
}

// collides is Minimize's predicate for one pass: a candidate builds a pair
// (or not: ok false), which must still collide.
func (p *pairMin) collides(build func(c any) ([2]any, bool)) Fails {
	return func(ctx context.Context, cands []any) ([]bool, error) {
		var pairs [][2]any
		var at []int // the candidates that built a pair, in pairs' order
		for i, c := range cands {
			if pr, ok := build(c); ok {
				pairs, at = append(pairs, pr), append(at, i)
			}
		}
		ok, err := p.call(ctx, pairs)
		if err != nil {
			return nil, err
		}
		res := make([]bool, len(cands))
		for k, i := range at {
			res[i] = ok[k]
		}
		return res, nil
	}
}

// joint minimizes the context a and b share around their one differing
// subtree or substring; false when they share none (they differ at the
// top).
func (p *pairMin) joint(ctx context.Context) (bool, error) {
	h := hole(p.a, p.b)
	if isHole(h.shared) {
		return false, nil
	}
	build := func(c any) ([2]any, bool) {
		a, na := h.graft(c, h.a)
		b, nb := h.graft(c, h.b)
		return [2]any{a, b}, na == 1 && nb == 1
	}
	v, st, err := Minimize(ctx, h.shared, p.collides(build), Options{MaxBatchBytes: p.opt.MaxBatchBytes})
	if st.Steps == 0 {
		return false, err
	}
	p.a, _ = h.graft(v, h.a)
	p.b, _ = h.graft(v, h.b)
	return true, err
}

// side minimizes one input, the other held, and sets it with set.
func (p *pairMin) side(ctx context.Context, from any, pair func(c any) [2]any, set func(v any)) (bool, error) {
	build := func(c any) ([2]any, bool) { return pair(c), true }
	v, st, err := Minimize(ctx, from, p.collides(build), Options{MaxBatchBytes: p.opt.MaxBatchBytes})
	if st.Steps == 0 {
		return false, err
	}
	set(v)
	return true, err
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
