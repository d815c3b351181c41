package zoo

import (
	"slices"
	"testing"
)

// Every stateful mutant answers its witness, the last of a sequence of
// calls on one process, otherwise than a fresh process answers it alone,
// which is the spec's answer; seeded-order answers one input two ways in
// two processes.
func TestStatefulMutants(t *testing.T) {
	e := func(arg string) any { return parse(t, `{"tool_name":"t","args":{"key":`+arg+`}}`) }
	envelope := parse(t, `{"tool_name":"t","args":{}}`)
	sequences := map[string][]any{
		"sort-skip-nth": slices.Repeat([]any{envelope}, skipEvery),
		"length-cache":  {e(`"ab"`), e(`"cd"`)},
		"reused-buffer": {e(`"a long string\n"`), e(`"a\n"`)},
	}
	for _, m := range statefulMutants {
		t.Run(m.Name, func(t *testing.T) {
			if m.Name == "seeded-order" {
				wide := signedArgs(members(10))
				for range 5 {
					one, other := m.Func(), m.Func() // two processes
					if outcome(one, wide) != outcome(other, wide) {
						return
					}
				}
				t.Fatal("five pairs of processes answered a wide object alike")
			}
			seq, ok := sequences[m.Name]
			if !ok {
				t.Fatal("no witness")
			}
			last := seq[len(seq)-1]
			if got, want := outcome(m.Func(), last), golden(last); got != want {
				t.Fatalf("alone on a fresh process: %.200s, want %.200s", got, want)
			}
			fn := m.Func()
			var got string
			for _, v := range seq {
				got = outcome(fn, v)
			}
			if got == golden(last) {
				t.Errorf("after %d calls, still the spec's answer %.200s", len(seq)-1, got)
			}
		})
	}
	for _, m := range statefulMutants {
		if !Stateful(m.Name) || Collides(m.Name) {
			t.Errorf("%s: Stateful %v, Collides %v", m.Name, Stateful(m.Name), Collides(m.Name))
		}
	}
}
