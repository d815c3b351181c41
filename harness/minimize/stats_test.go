package minimize

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/value"
)

// Each known input is shrunk by the pass that must do it (no other step
// keeps its divergence), and the passes' counts add up to the totals.
func TestPasses(t *testing.T) {
	env := func(args canonjson.Object) any {
		return canonjson.Object{{Key: "tool_name", Value: ""}, {Key: "args", Value: args}}
	}
	var nested any = canonjson.Object{{Key: "k", Value: "v"}}
	for range 40 {
		nested = []any{nested}
	}
	deep := any(int64(0))
	for range 600 {
		deep = []any{deep}
	}
	wide := canonjson.Object{}
	for i := range 20 {
		wide = append(wide, canonjson.Member{Key: fmt.Sprintf("k%02d", i), Value: strings.Repeat("q", 30)})
	}
	tests := []struct {
		name  string
		in    func(t *testing.T) any
		fails func(any) bool
		pass  string // must shrink the value at least once
	}{
		{"a string's characters", func(*testing.T) any { return env(canonjson.Object{{Key: "", Value: strings.Repeat("x", 200)}}) },
			func(v any) bool {
				return walk(v, func(x any) bool { s, ok := x.(string); return ok && strings.Contains(s, "xxx") })
			}, "edit"},
		{"two needles among 2000 elements", func(*testing.T) any { return wideArray(2000) },
			func(v any) bool {
				var seen [2]bool
				walk(v, func(x any) bool {
					i, _ := x.(int64)
					seen[0], seen[1] = seen[0] || i == 777, seen[1] || i == 1555
					return false
				})
				return seen[0] && seen[1]
			}, "chunks"},
		{"an object 40 arrays down", func(*testing.T) any { return env(canonjson.Object{{Key: "a", Value: nested}}) },
			func(v any) bool {
				return objects(v, func(o canonjson.Object) bool { return len(o) > 0 && o[0].Key == "k" })
			}, "hoist"},
		{"a bad value before a duplicate", func(*testing.T) any {
			return env(canonjson.Object{{Key: "x", Value: deep}, {Key: "y", Value: int64(7)}, {Key: "x", Value: "z"}})
		}, func(v any) bool { return codeOf(v) != canonjson.CodeDuplicateKey && dupAfterBad(v) }, "last"},
		{"20 members, each to shrink on its own", func(*testing.T) any { return env(wide) },
			func(v any) bool { return len(argsOf(v)) >= 20 }, "merge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in(t)
			_, st, err := Minimize(context.Background(), in, predicate(t, tt.fails, isEnvelope(in), DefaultMaxBatch), Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%+v", st.Passes)
			if len(st.Passes) != passes {
				t.Fatalf("%d passes, want %d", len(st.Passes), passes)
			}
			tried, shrinks, removed := 0, 0, 0
			for i, p := range st.Passes {
				if p.Name != passNames[i] || p.Hits > p.Tried || p.Shrinks > p.Hits || (p.Shrinks == 0) != (p.Removed == 0) || p.Seconds < 0 {
					t.Errorf("pass %d: %+v", i, p)
				}
				tried, shrinks, removed = tried+p.Tried, shrinks+p.Shrinks, removed+p.Removed
				if p.Name == tt.pass && (p.Hits == 0 || p.Shrinks == 0) {
					t.Errorf("pass %s did not shrink it: %+v", p.Name, p)
				}
			}
			if tried+1 != st.Candidates || shrinks != st.Steps || st.Passes[passMerge].Shrinks != st.Merged {
				t.Errorf("passes tried %d and shrank %d times (merge %d); stats %d candidates (1 the original), %d steps, %d merged",
					tried, shrinks, st.Passes[passMerge].Shrinks, st.Candidates, st.Steps, st.Merged)
			}
			if removed != st.StartSize-st.EndSize {
				t.Errorf("passes removed %d bytes, the value went from %d to %d", removed, st.StartSize, st.EndSize)
			}
		})
	}
}

// Stats.Minimal is true when the last round tried every step and none
// kept failing, false when a deadline stopped the minimizer first.
func TestMinimal(t *testing.T) {
	t.Run("small input", func(t *testing.T) {
		in := deepEnvelope(3, 1e22)
		got, st, err := Minimize(context.Background(), in, predicate(t, hasBigFloat, true, DefaultMaxBatch), Options{})
		if err != nil || !st.Minimal {
			t.Errorf("got %s, minimal %v, err %v", value.AppendText(nil, got), st.Minimal, err)
		}
	})
	t.Run("deadline on a large input", func(t *testing.T) {
		in := genCase(t, gen.Config{Seed: 1}, hasBigFloat)
		ctx := newExpiring()
		calls := 0
		slow := func(c context.Context, cands []any) ([]bool, error) {
			if calls++; calls == 3 { // an adapter slower than the time left
				ctx.expire()
				<-c.Done()
			}
			return predicate(t, hasBigFloat, true, DefaultMaxBatch)(c, cands)
		}
		got, st, err := Minimize(ctx, in, slow, Options{})
		if !errors.Is(err, context.DeadlineExceeded) || st.Minimal {
			t.Errorf("err %v, minimal %v; want the deadline, not minimal", err, st.Minimal)
		}
		if !hasBigFloat(got) || st.EndSize >= st.StartSize {
			t.Errorf("best so far %d bytes (from %d) does not fail or did not shrink", st.EndSize, st.StartSize)
		}
	})
}

// expiring is a context whose deadline passes when the test says, not at
// a time on the clock: after expire, Done is closed and Err is
// context.DeadlineExceeded.
type expiring struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func newExpiring() *expiring {
	return &expiring{Context: context.Background(), done: make(chan struct{})}
}

func (e *expiring) expire()               { e.once.Do(func() { close(e.done) }) }
func (e *expiring) Done() <-chan struct{} { return e.done }

func (e *expiring) Err() error {
	select {
	case <-e.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}
