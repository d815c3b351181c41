package gen

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

// Twins come in adjacent pairs that differ in one argument, one pair in
// 2^twinShift, and each kind comes up.
func TestTwins(t *testing.T) {
	g := New(Config{Seed: 1})
	pairs, kinds := 0, map[string]int{}
	for m := uint64(0); m < 20000; m++ {
		first, second, ok := twinAt(1, 2*m)
		if !ok {
			continue
		}
		if _, s2, ok2 := twinAt(1, 2*m+1); !ok2 || !s2 || second || first != 2*m {
			t.Fatalf("pair %d: the second case is no twin", m)
		}
		pairs++
		a, ca := g.Case(2 * m)
		b, cb := g.Case(2*m + 1)
		if ca.OutOfDomain() {
			t.Errorf("pair %d: twin A is out of domain: %v", m, ca)
		}
		if cb.OutOfDomain() != cb.Has(ClassLoneSurrogate) {
			t.Errorf("pair %d: twin B is out of domain for another reason: %v", m, cb)
		}
		ea, eb := a.(value.Object), b.(value.Object)
		argsA, argsB := ea[1].Value.(value.Object), eb[1].Value.(value.Object)
		if !value.Equal(ea[0], eb[0]) || len(argsA) != len(argsB) || !value.Equal(argsA[:len(argsA)-1], argsB[:len(argsB)-1]) {
			t.Fatalf("pair %d differs beyond its last argument:\n%s\n%s", m, value.AppendText(nil, a), value.AppendText(nil, b))
		}
		kinds[kindOf(argsA[len(argsA)-1].Value, argsB[len(argsB)-1].Value)]++
	}
	if want := 20000 >> twinShift; pairs < want/2 || pairs > want*2 {
		t.Errorf("%d twin pairs in 20,000, want about %d", pairs, want)
	}
	for _, k := range []string{"key-fake", "value-fake", "backslash", "spelled", "nfc", "fffd", "rounded", "neg-zero"} {
		if kinds[k] == 0 {
			t.Errorf("no twins of kind %s (%v)", k, kinds)
		}
	}
}

// kindOf names the kind of a pair of twins by what they hold.
func kindOf(a, b any) string {
	ta, tb := string(value.AppendText(nil, a)), string(value.AppendText(nil, b))
	if o, ok := a.(value.Object); ok && len(o) == 1 && len(b.(value.Object)) == 2 {
		if _, ok := o[0].Value.(string); ok {
			return "value-fake"
		}
		return "key-fake"
	}
	switch {
	case strings.Contains(ta, `\\u`):
		return "spelled"
	case strings.Contains(ta, `\\`):
		return "backslash"
	case strings.Contains(ta, `\ufffd`):
		return "fffd"
	case strings.Contains(tb, `\u030`) || strings.Contains(tb, `\u032`):
		return "nfc"
	}
	switch x := a.(type) {
	case int64:
		if f := float64(b.(int64)); f == float64(x) {
			return "rounded"
		}
	case *big.Int:
		return "rounded"
	case float64:
		if math.Signbit(b.(float64)) {
			return "neg-zero"
		}
	}
	return "other: " + ta + " / " + tb
}
