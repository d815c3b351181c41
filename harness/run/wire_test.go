package run

import (
	"bytes"
	"testing"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// The driver's side of the wire with generated cases: the producer's
// encoding (wire.EncodeCases) and the lanes' decoding of results.

// Cases the generator vouches for (gen.Classes.ValidUTF8) skip the UTF-8
// check and must come out byte for byte as checked ones do.
func TestEncodeCasesKnownUTF8(t *testing.T) {
	g := gen.New(gen.Config{Seed: 2, OutOfDomain: 0.3})
	cases, valid := make([]any, 2000), make([]bool, 2000)
	vouched := 0
	for i := range cases {
		var c gen.Classes
		cases[i], c = g.Case(uint64(i))
		if valid[i] = c.ValidUTF8(); valid[i] {
			vouched++
		}
	}
	if vouched == 0 || vouched == len(cases) {
		t.Fatalf("%d of %d cases vouched for: the test needs both kinds", vouched, len(cases))
	}
	checked, err := wire.EncodeCases(cases, nil)
	if err != nil {
		t.Fatal(err)
	}
	checked = bytes.Clone(checked)
	known, err := wire.EncodeCases(cases, valid)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(known, checked) {
		t.Errorf("encoding with ValidUTF8 differs from the checked one (%d against %d bytes)", len(known), len(checked))
	}
}

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
		if _, err := wire.EncodeCases(cases, valid); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/case")
}

// BenchmarkDecodeResults is the driver's cost to read one worker's answer.
func BenchmarkDecodeResults(b *testing.B) {
	cases, _ := sampleCases(256)
	results := make([]wire.Result, len(cases))
	for i, c := range cases {
		out, err := canonjson.Canonical(c)
		if err != nil {
			results[i] = wire.Result{Error: "bad_envelope", Message: err.Error()}
			continue
		}
		d := canonjson.Digest(out)
		results[i] = wire.Result{Canonical: out, Digest: d[:]}
	}
	frame, _ := wire.NewEncoder().Results(1, results)
	dec := wire.NewDecoder()
	var m wire.Message
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		if err := dec.Decode(frame[4:], &m); err != nil {
			b.Fatal(err)
		}
	}
}
