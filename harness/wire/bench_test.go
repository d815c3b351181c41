package wire

import (
	"testing"

	canonjson "difffuzz/adapters/go"
	"difffuzz/harness/gen"
)

// sampleCases returns n generated cases and, for each, whether the
// generator vouches for its strings (gen.Classes.ValidUTF8), as a run has.
func sampleCases(n int) ([]any, []bool) {
	g := gen.New(gen.Config{Seed: 1})
	cases, valid := make([]any, n), make([]bool, n)
	for i := range cases {
		var c gen.Classes
		cases[i], c = g.Case(uint64(i))
		valid[i] = c.ValidUTF8()
	}
	return cases, valid
}

// BenchmarkEncodeCases is the driver's cost to put one batch on the wire.
func BenchmarkEncodeCases(b *testing.B) {
	cases, valid := sampleCases(256)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeCases(cases, valid); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/case")
}

// BenchmarkDecodeResults is the driver's cost to read one worker's answer.
func BenchmarkDecodeResults(b *testing.B) {
	cases, _ := sampleCases(256)
	results := make([]Result, len(cases))
	for i, c := range cases {
		out, err := canonjson.Canonical(c)
		if err != nil {
			results[i] = Result{Error: "bad_envelope", Message: err.Error()}
			continue
		}
		d := canonjson.Digest(out)
		results[i] = Result{Canonical: out, Digest: d[:]}
	}
	frame, _ := NewEncoder().Results(1, results)
	dec := NewDecoder()
	var m Message
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		if err := dec.Decode(frame[4:], &m); err != nil {
			b.Fatal(err)
		}
	}
}
