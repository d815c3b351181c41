package collide

import (
	"math/big"
	"testing"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/compare"

	"lukechampine.com/blake3"
)

// An output the contract allows is no collision: under rfc8785 a library
// reading 2^53+1 as its double writes what the reference writes for the
// float 2^53, and the run feeds the oracle the outcomes as the judge
// allowed them (compare.Verdict.Masked), so the two cases are not two
// calls made one. Fed the raw outcomes, the oracle would take them for
// one.
func TestAllowedIsNoCollision(t *testing.T) {
	d := blake3.Sum256([]byte("9007199254740992"))
	double := compare.Outcome{Canonical: []byte("9007199254740992"), Digest: d[:]}
	refused := compare.Outcome{Error: "unsupported_value"}
	judge := compare.NewFor([]string{"reference", "lib"}, contract.RFC8785)
	vs := contract.RFC8785.Variants()
	judge.WithVariants([]compare.Variant{{Contract: vs[1], Ask: func(any) (compare.Outcome, bool) { return double, true }}})
	odd := new(big.Int).SetUint64(1<<53 + 1)
	a := []compare.Outcome{refused, double} // 2^53+1
	b := []compare.Outcome{double, double}  // 9007199254740992.0
	v := judge.Judge(odd, a)
	if !v.Agree || len(v.Allowed) != 1 {
		t.Fatalf("2^53+1 read as its double: %+v, want it allowed", v)
	}
	for _, tc := range []struct {
		name string
		a    []compare.Outcome
		want int
	}{
		{"as the judge allowed them", v.Masked(a), 0},
		{"raw", a, 1},
	} {
		w := New([]string{"reference", "lib"}, 64)
		found := w.Observe([]Seen{{Index: 1, Outs: tc.a, Sigs: nil}, {Index: 2, Outs: b}})
		if len(found) != tc.want {
			t.Errorf("%s: %d candidates %v, want %d", tc.name, len(found), found, tc.want)
		}
	}
}
