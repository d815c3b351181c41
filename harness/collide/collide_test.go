package collide

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/compare"

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
			slots = DefaultSlots
		}
		w := New(names, slots)
		var got []Candidate
		for _, cs := range tt.cases {
			s := Seen{Index: cs.index, Outs: []compare.Outcome{cs.ref, cs.mut}}
			if compare.Collides(cs.ref, cs.ref, cs.mut, cs.mut) || string(cs.ref.Digest) != string(cs.mut.Digest) {
				s.Sigs = []compare.Signature{{Kind: compare.KindString, Cause: fmt.Sprintf("cause@%d", cs.index), Deviants: []string{"m"}}}
			}
			got = append(got, w.Observe([]Seen{s})...)
		}
		text := ""
		for i, g := range got {
			if i > 0 {
				text += "; "
			}
			text += fmt.Sprintf("%s %d %d %s", names[g.Adapter], g.A, g.B, g.Cause)
		}
		if text != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, text, tt.want)
		}
	}
}

// A nil watch (Config.CollisionSlots < 0) notices nothing.
func TestWatchOff(t *testing.T) {
	if w := New([]string{"ref", "m"}, -1); w != nil || w.Observe([]Seen{{Outs: []compare.Outcome{text("1"), text("2")}}}) != nil {
		t.Error("a watch without slots")
	}
}

// benchBatchLen is a run's batch (run.benchBatchLen).
const benchBatchLen = 2048

// benchBatch is a batch of 2,048 cases of four adapters; a share of them
// (one in every deviateEvery, 0 for none) has the last adapter deviate.
// The agreeing adapters share the reference's digest, whose prefix
// renumber makes new.
func benchBatch(deviateEvery int) []Seen {
	cases := make([]Seen, benchBatchLen)
	for i := range cases {
		ref := text(fmt.Sprint(i))
		outs := []compare.Outcome{ref, ref, ref, ref}
		var sigs []compare.Signature
		if deviateEvery > 0 && i%deviateEvery == 0 {
			outs[3] = text(fmt.Sprint("x", i))
			sigs = []compare.Signature{{Kind: compare.KindString, Cause: "c", Deviants: []string{"d"}}}
		}
		cases[i] = Seen{Index: uint64(i), Outs: outs, Sigs: sigs}
	}
	return cases
}

// renumber makes batch n of cases: new indexes and new digests, so that
// every case takes a slot of its own, as in a run.
func renumber(cases []Seen, n uint64) {
	for i := range cases {
		c := &cases[i]
		c.Index = n*benchBatchLen + uint64(i)
		binary.LittleEndian.PutUint64(c.Outs[0].Digest, mix(c.Index))
		if d := c.Outs[3].Digest; &d[0] != &c.Outs[0].Digest[0] {
			binary.LittleEndian.PutUint64(d, mix(c.Index)^1)
		}
	}
}

func mix(x uint64) uint64 {
	x *= 0x9E3779B97F4A7C15
	return x ^ x>>29
}

// The oracle's cost on the collector path, a case at a time, with the
// default table (1 MiB) and one 16 times larger: a clean run (an insert a
// case) and one where a tenth of the cases deviate (then also a lookup in
// the reference table and an insert in the deviant's own, and every case
// a lookup in the deviant's).
func BenchmarkWatch(b *testing.B) {
	for _, slots := range []int{DefaultSlots, 1 << 20} {
		for _, bc := range []struct {
			name  string
			every int
		}{{"clean", 0}, {"tenth-deviate", 10}} {
			b.Run(fmt.Sprintf("%dKiB/%s", slots*16>>10, bc.name), func(b *testing.B) {
				cases := benchBatch(bc.every)
				w := New([]string{"ref", "b", "c", "d"}, slots)
				var elapsed time.Duration
				for i := 0; i < b.N; i++ {
					renumber(cases, uint64(i))
					start := time.Now()
					w.Observe(cases)
					elapsed += time.Since(start)
				}
				b.ReportMetric(float64(elapsed.Nanoseconds())/float64(b.N*benchBatchLen), "ns/case")
			})
		}
	}
}
