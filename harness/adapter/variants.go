package adapter

import (
	"context"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Variants are the in-process Go implementation under each contract c's
// allowances let a library follow instead (contract.Contract.Variants),
// for the judge to check an allowed output against (compare.Variant).
// In a program without the in-process adapter (package inprocess) there
// are none, and such an output stays a divergence: the judge allows only
// what it can check.
func Variants(c contract.Contract) []compare.Variant {
	var vs []compare.Variant
	for _, vc := range c.Variants() {
		a, err := NewInProcessFor("variant", vc)
		if err != nil {
			return nil
		}
		vs = append(vs, compare.Variant{Contract: vc, Ask: askOne(a)})
	}
	return vs
}

// askOne answers one case through a, with text. The in-process adapter
// answers at once and never fails its batch but on a cancelled context.
func askOne(a Adapter) func(any) (compare.Outcome, bool) {
	return func(input any) (compare.Outcome, bool) {
		out := make([]wire.Result, 1)
		if err := a.RunBatch(context.Background(), &Batch{Cases: []any{input}}, out); err != nil {
			return compare.Outcome{}, false
		}
		return compare.OutcomeOf(out[0]), true
	}
}
