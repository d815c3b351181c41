package value_test

import (
	"testing"

	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/value"
)

// BenchmarkCheck is the spec's walk over generated cases, as the minimizer
// runs it on every node it indexes.
func BenchmarkCheck(b *testing.B) {
	g := gen.New(gen.Config{Seed: 1})
	cases := make([]any, 256)
	for i := range cases {
		cases[i], _ = g.Case(uint64(i))
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cases {
			value.CheckSigned(c)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/case")
}
