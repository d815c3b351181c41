package minimize

import (
	"context"
	"testing"
	"time"
	"unicode/utf8"

	canonjson "difffuzz/adapters/go"
	"difffuzz/harness/gen"
)

func TestTmpLong(t *testing.T) {
	long := func(v any) bool {
		return walk(v, func(x any) bool { s, ok := x.(string); return ok && utf8.RuneCountInString(s) >= 1000 })
	}
	g := gen.New(gen.Config{Seed: 1, OutOfDomain: -1})
	var in any
	for i := uint64(0); in == nil; i++ {
		if v, c := g.Case(i); c.Has(gen.ClassLongString) && len(canonjson.AppendText(nil, v)) > 500000 {
			in = v
		}
	}
	start := time.Now()
	got, st, err := Minimize(context.Background(), in, predicate(t, long, true, 256), Options{})
	t.Logf("%v %d -> %d bytes in %d rounds (%d merged) %v: %.100s", err, st.StartSize, st.EndSize, st.Rounds, st.Merged, time.Since(start), canonjson.AppendText(nil, got))
}

func TestTmpLong2(t *testing.T) {
	long := func(v any) bool {
		return walk(v, func(x any) bool { s, ok := x.(string); return ok && utf8.RuneCountInString(s) >= 1000 })
	}
	g := gen.New(gen.Config{Seed: 1, OutOfDomain: -1})
	var in any
	for i := uint64(0); in == nil; i++ {
		if v, c := g.Case(i); c.Has(gen.ClassLongString) && len(canonjson.AppendText(nil, v)) > 500000 {
			in = v
		}
	}
	r := 0
	fails := func(ctx context.Context, cs []any) ([]bool, error) {
		r++
		out := make([]bool, len(cs))
		n, best := 0, 1<<30
		for i, c := range cs {
			out[i] = long(c)
			if out[i] {
				n++
				best = min(best, len(canonjson.AppendText(nil, c)))
			}
		}
		if r < 10 || n > 0 || r%20 == 0 {
			t.Logf("round %d: %d cands, %d fail, best %d", r, len(cs), n, best)
		}
		return out, nil
	}
	Minimize(context.Background(), in, fails, Options{})
}

func TestTmpCount(t *testing.T) {
	s := ""
	for i := 0; i < 1000; i++ {
		if i%7 == 0 {
			s += "0"
		} else {
			s += "a"
		}
	}
	v := canonjson.Object{{Key: "tool_name", Value: ""}, {Key: "args", Value: canonjson.Object{{Key: "", Value: s}}}}
	var tr tree
	tr.build(v, true)
	n := tr.candidates()
	t.Logf("total %d: lists %d %d %d %d", n, len(tr.lists[0]), len(tr.lists[1]), len(tr.lists[2]), len(tr.lists[3]))
	lv := map[uint8]int{}
	for _, c := range tr.lists[3] {
		lv[c.level]++
	}
	t.Logf("levels %v", lv)
}
