package canonjson

import (
	"math"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/contract"
)

// TestBigIntsDouble checks numbers.big_ints = double: an integer is read as
// the double nearest it, as JSON.parse reads its text (RFC 8785 §3.2.2),
// and only one past the largest double is refused.
func TestBigIntsDouble(t *testing.T) {
	c := contract.RFC8785
	c.Numbers.BigInts = contract.BigIntsDouble
	enc, err := For(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		v    any
		want outcome
	}{
		{"2^53", int64(1 << 53), text("9007199254740992")},
		{"2^53+1 ties to even", int64(1<<53 + 1), text("9007199254740992")},
		{"2^53+3 ties to even", int64(1<<53 + 3), text("9007199254740996")},
		{"-(2^53+1)", int64(-(1<<53 + 1)), text("-9007199254740992")},
		{"2^63-1", int64(math.MaxInt64), text("9223372036854776000")},
		{"uint64 max", uint64(math.MaxUint64), text("18446744073709552000")},
		{"big 10^30+1", bigInt("1000000000000000000000000000001"), text("1e+30")},
		{"big past the largest double", bigInt("1" + strings.Repeat("0", 400)), reject(CodeUnsupported)},
		{"small", int64(42), text("42")},
	} {
		b, err := enc.AppendCanonicalValue(nil, tc.v)
		if got := outcomeOf(t, b, err); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
		if p := enc.r.numberProblem(tc.v); (p != "") != (tc.want.code != "") {
			t.Errorf("%s: numberProblem %q, want a problem %v", tc.name, p, tc.want.code != "")
		}
	}
}
