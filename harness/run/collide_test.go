package run

import (
	"fmt"
	"testing"

	"difffuzz/harness/compare"

	"lukechampine.com/blake3"
)

func text(s string) compare.Outcome {
	d := blake3.Sum256([]byte(s))
	return compare.Outcome{Digest: d[:]} // as a digest-only batch gives it
}

// The oracle's rules, as the fuzzing loop meets them: cases in the order
// the lanes report them, each the reference's outcome and the mutant's.
func TestWatchRules(t *testing.T) {
	rej := compare.Outcome{Error: "lone_surrogate"}
	const keyFake, keyReal = `{"a\":1,\"b":2}`, `{"a":1,"b":2}`
	type c struct {
		index    uint64
		ref, mut compare.Outcome
	}
	tests := []struct {
		name  string
		slots int
		cases []c
		want  string // the candidates, "" for none
	}{
		{"a key faking two members, then the real ones", 0, []c{{4, text(keyFake), text(keyReal)}, {5, text(keyReal), text(keyReal)}}, "m 4 5 cause@4"},
		{"the real ones first", 0, []c{{5, text(keyReal), text(keyReal)}, {4, text(keyFake), text(keyReal)}}, "m 4 5 cause@4"},
		{"both cases deviate, the earlier cause", 0, []c{{9, text(`"\\n"`), text(`"x"`)}, {7, text(`"\n"`), text(`"x"`)}}, "m 7 9 cause@7"},
		{"a text against a rejection", 0, []c{{1, rej, text(`"\ufffd"`)}, {2, text(`"\ufffd"`), text(`"\ufffd"`)}}, "m 1 2 cause@1"},
		{"-0 against 0: one reference text", 0, []c{{1, text(`0`), text(`-0`)}, {2, text(`0`), text(`-0`)}, {3, text(`0`), text(`0`)}}, ""},
		{"a divergence without a shared digest", 0, []c{{1, text(keyFake), text(`{"a":1,"b":3}`)}, {2, text(keyReal), text(keyReal)}}, ""},
		{"the other case's reference digest, where the mutant deviated", 0, []c{{1, text(`[1]`), text(`[2]`)}, {2, text(`[2]`), text(`[3]`)}}, ""},
		{"two rejections", 0, []c{{1, rej, text(`"x"`)}, {2, rej, text(`"x"`)}}, ""},
		{"the mutant rejects", 0, []c{{1, text(`[1]`), rej}, {2, text(`[2]`), rej}}, ""},
		// The bound: a case's digest is there until another lands on its slot.
		{"evicted", 1, []c{{1, text(`[1]`), text(`[1]`)}, {2, text(`[2]`), text(`[2]`)}, {3, text(`[3]`), text(`[1]`)}}, ""},
		{"not yet evicted", 1, []c{{1, text(`[2]`), text(`[2]`)}, {3, text(`[3]`), text(`[2]`)}}, "m 1 3 cause@3"},
	}
	names := []string{"ref", "m"}
	for _, tt := range tests {
		slots := tt.slots
		if slots == 0 {
			slots = DefaultCollisionSlots
		}
		w := newWatch(names, slots)
		var got []candidate
		for _, cs := range tt.cases {
			s := seen{index: cs.index, outs: []compare.Outcome{cs.ref, cs.mut}}
			if compare.Collides(cs.ref, cs.ref, cs.mut, cs.mut) || string(cs.ref.Digest) != string(cs.mut.Digest) {
				s.sigs = []compare.Signature{{Kind: compare.KindString, Cause: fmt.Sprintf("cause@%d", cs.index), Deviants: []string{"m"}}}
			}
			got = append(got, w.observe([]seen{s})...)
		}
		text := ""
		for i, g := range got {
			if i > 0 {
				text += "; "
			}
			text += fmt.Sprintf("%s %d %d %s", names[g.adapter], g.a, g.b, g.cause)
		}
		if text != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, text, tt.want)
		}
	}
}

// A nil watch (Config.CollisionSlots < 0) notices nothing.
func TestWatchOff(t *testing.T) {
	if w := newWatch([]string{"ref", "m"}, -1); w != nil || w.observe([]seen{{outs: []compare.Outcome{text("1"), text("2")}}}) != nil {
		t.Error("a watch without slots")
	}
}
