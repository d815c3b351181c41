package probe

import (
	"math"
	"math/big"
	"slices"

	"github.com/difffuzz/difffuzz/value"
)

// floatCases probe a float formatter: the shortest digits (0.1, 1e23),
// a tie between two shortest digit strings (…995.2 and …995.3 are as short
// and both round-trip: ECMAScript takes the nearer), 17 digits a parser
// without exact rounding reads as a neighbour, both thresholds of
// the exponent form (1e-7 against 0.00001, 1e21 against 1e20), the
// exponent's spelling (1e-8: no leading zero), integer-valued floats (1.0,
// past 2^53 below and above 1e16, where %r and %g turn to exponents, a
// double whose shortest digits end in zeros), the smallest subnormal,
// zero's sign and the non-finite floats.
var floatCases = []Case{
	{Name: "0.1", probed: 0.1},
	{Name: "1e-7", probed: 1e-7},
	{Name: "1e-8", probed: 1e-8},
	{Name: "0.00001", probed: 1e-5},
	{Name: "1e20", probed: 1e20},
	{Name: "1e21", probed: 1e21},
	{Name: "1e23", probed: 1e23},
	{Name: "1743639072792995.2", probed: 1743639072792995.2},
	{Name: "3728.8897006372813", probed: 3728.8897006372813},
	{Name: "1.0", probed: 1.0},
	{Name: "2^53+2", probed: float64(1<<53 + 2)},
	{Name: "2^60", probed: float64(1 << 60)},
	{Name: "49812407423580900.0", probed: 49812407423580900.0},
	{Name: "5e-324", probed: 5e-324},
	{Name: "-0.0", probed: math.Copysign(0, -1)},
	{Name: "NaN", probed: math.NaN()},
	{Name: "Infinity", probed: math.Inf(1)},
	{Name: "-Infinity", probed: math.Inf(-1)},
}

// stringChars are the characters a string escaper is probed with, one of
// each class an escaping rule treats alike (docs/triage.md, "A bucket is a
// root cause"): the quote, the backslash and the solidus; controls with a
// short escape, others, U+0000; DEL; a C1 control; non-ASCII in the BMP,
// U+2028 and an astral character.
var stringChars = []struct{ name, s string }{
	{"`\"`", `"`},
	{"`\\`", `\`},
	{"`/`", "/"},
	{"U+000A", "\n"},
	{"U+0008", "\b"},
	{"U+0001", "\x01"},
	{"U+0000", "\x00"},
	{"U+007F", "\x7f"},
	{"U+0085", "\u0085"},
	{"U+00E9", "\u00e9"},
	{"U+2028", "\u2028"},
	{"U+1F600", "\U0001F600"},
}

// stringCases probe each of stringChars in a value, then in a key.
var stringCases = func() []Case {
	var cs []Case
	for _, key := range []bool{false, true} {
		for _, c := range stringChars {
			cs = append(cs, Case{Name: c.name, Key: key, probed: c.s})
		}
	}
	return cs
}()

// intCases probe the path of integers past 2^53, which a double does not
// hold: just past it (a parser that makes every number a double rounds it
// to 2^53), past the 64-bit integers of either sign (a parser that falls
// back to a double there), past 10^21 (where a double is written in
// exponent form) and past the doubles (Infinity, which JavaScript's
// JSON.stringify writes as null).
var intCases = []Case{
	{Name: "2^53+1", probed: int64(1<<53 + 1)},
	{Name: "2^64+1", probed: bigInt("18446744073709551617")},
	{Name: "-2^63-1", probed: bigInt("-9223372036854775809")},
	{Name: "10^21+1", probed: bigInt("1000000000000000000001")},
	{Name: "10^400", probed: new(big.Int).Exp(big.NewInt(10), big.NewInt(400), nil)},
}

// bigInt is the integer s spells, for the probes.
func bigInt(s string) *big.Int {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("probe: bad integer " + s)
	}
	return n
}

// holdsFloat reports whether v holds a float anywhere.
func holdsFloat(v any) bool {
	return holds(v, func(x any) bool {
		switch x.(type) {
		case float64, float32:
			return true
		}
		return false
	})
}

// maxExact is 2^53: every integer up to it, and none much past it, is a
// double's.
var maxExact = big.NewInt(1 << 53)

// holdsBigInt reports whether v holds an integer past 2^53 anywhere, of
// either sign.
func holdsBigInt(v any) bool {
	return holds(v, func(x any) bool {
		switch n := x.(type) {
		case int64:
			return n > 1<<53 || n < -(1<<53)
		case uint64:
			return n > 1<<53
		case *big.Int:
			return n.CmpAbs(maxExact) > 0
		}
		return false
	})
}

// holds reports whether v, or a value or key anywhere in it, is one that
// leaf reports.
func holds(v any, leaf func(any) bool) bool {
	in := func(x any) bool { return holds(x, leaf) }
	switch v := v.(type) {
	case []any:
		return slices.ContainsFunc(v, in)
	case value.Object:
		return slices.ContainsFunc(v, func(m value.Member) bool { return in(m.Value) })
	case value.RawObject:
		return slices.ContainsFunc(v, func(m value.RawMember) bool { return in(m.Key) || in(m.Value) })
	case map[string]any:
		for _, x := range v {
			if in(x) {
				return true
			}
		}
		return false
	}
	return leaf(v)
}
