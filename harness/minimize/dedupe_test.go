package minimize

import (
	"testing"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/value"
)

// TestDedupe checks that dropping replacements with equal results loses
// no distinct result and leaves no two equal ones in a list (the lists
// of simple replacements and of container hoists may share a few).
func TestDedupe(t *testing.T) {
	tests := []struct {
		name string
		v    any
	}{
		{"deep chain", deepEnvelope(300, 1e22)},
		{"bare chain", func() any {
			var v any = []any{}
			for range 200 {
				v = []any{v}
			}
			return canonjson.Object{{Key: "tool_name", Value: ""}, {Key: "args", Value: canonjson.Object{{Key: "", Value: v}}}}
		}()},
		{"generated", genCase(t, gen.Config{Seed: 9}, func(any) bool { return true })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tr tree
			tr.build(tt.v, true)
			tr.candidates()
			texts := func(cs []cand, l list) map[string]int {
				m := map[string]int{}
				for _, c := range cs {
					if c.list == l {
						m[string(value.AppendText(nil, tr.apply(&c)))]++
					}
				}
				return m
			}
			for _, l := range []list{listScalar, listHoist} {
				all, kept := texts(tr.sorted, l), texts(tr.lists[l], l)
				for s, n := range kept {
					if n > 1 {
						t.Errorf("list %d: %d candidates give %.80s", l, n, s)
					}
				}
				if len(kept) != len(all) {
					t.Errorf("list %d: %d distinct results before dedupe, %d after", l, len(all), len(kept))
				}
				t.Logf("list %d: %d candidates, %d distinct", l, len(tr.lists[l]), len(kept))
			}
		})
	}
}
