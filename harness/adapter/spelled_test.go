package adapter

import (
	"bytes"
	"testing"

	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/harness/jsontext"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// The unspellable cases keep their places wherever they fall, and the
// texts sent are the spellable cases', in order, as one msgpack array of
// bin.
func TestSpellCasesRealign(t *testing.T) {
	bin, key := []byte{1}, value.RawObject{{Key: int64(1), Value: nil}}
	tests := []struct {
		name  string
		cases []any
	}{
		{"none unspellable", []any{int64(1), "a"}},
		{"first and last", []any{bin, int64(1), "a", key}},
		{"in the middle", []any{int64(1), bin, key, "a"}},
		{"all", []any{bin, key}},
		{"empty", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp, err := Spell(tt.cases)
			if err != nil {
				t.Fatal(err)
			}
			var texts []any
			var results []wire.Result
			for _, c := range tt.cases {
				if text, err := jsontext.Append(nil, c); err == nil {
					texts = append(texts, text)
					results = append(results, wire.Result{Canonical: text})
				}
			}
			want, err := wire.EncodeCases(texts, nil)
			if err != nil {
				t.Fatal(err)
			}
			if sp.sent != len(texts) || !bytes.Equal(sp.encoded, want) {
				t.Errorf("sent %d, encoded %x; want %d, %x", sp.sent, sp.encoded, len(texts), want)
			}
			out := make([]wire.Result, len(tt.cases))
			sp.Realign(results, out)
			for i, c := range tt.cases {
				text, err := jsontext.Append(nil, c)
				switch {
				case err != nil && out[i].Inexpressible == "":
					t.Errorf("case %d: %+v, want inexpressible", i, out[i])
				case err == nil && string(out[i].Canonical) != string(text):
					t.Errorf("case %d: %+v, want the result of %q", i, out[i], text)
				}
			}
		})
	}
}

// A released batch's spelling is gone with its encoding.
func TestReleaseDropsSpelling(t *testing.T) {
	b := &Batch{Cases: []any{int64(1)}}
	if _, err := b.spelled(); err != nil {
		t.Fatal(err)
	}
	b.Release()
	if sp, err := b.spelled(); sp != nil || err != errReleased {
		t.Errorf("after Release: %v, %v", sp, err)
	}
}

// BenchmarkSpell spells a fuzzing run's batch of generated cases, the
// driver's cost of a text worker of protocol 4 (docs/performance.md).
func BenchmarkSpell(b *testing.B) {
	g := gen.New(gen.Config{Seed: 1})
	cases := make([]any, 2048)
	for i := range cases {
		cases[i], _ = g.Case(uint64(i))
	}
	sp, err := Spell(cases)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(sp.Encoded())))
	b.ReportAllocs()
	for b.Loop() {
		Spell(cases)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/case")
}
