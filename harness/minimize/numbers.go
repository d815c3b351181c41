package minimize

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/difffuzz/difffuzz/value"
)

// numberSteps offers simpler numbers in place of node id's number v.
func (t *tree) numberSteps(id int32, v any) {
	var out []any
	switch x := v.(type) {
	case int64:
		if x == math.MinInt64 {
			out = intSteps(big.NewInt(x), out)
		} else {
			out = int64Steps(x, out)
		}
		if x >= -1<<53 && x <= 1<<53 {
			out = append(out, float64(x))
		}
	case *big.Int:
		out = intSteps(x, out)
		f, _ := new(big.Float).SetInt(x).Float64()
		out = append(out, f)
		if x.Sign() > 0 {
			out = append(out, int64(math.MaxInt64))
		} else {
			out = append(out, int64(math.MinInt64))
		}
	case float64:
		out = floatSteps(x, out)
	default:
		return
	}
	n := &t.nodes[id]
	add := func(out []any, l list) {
		for i, r := range out {
			if dupOf(out[:i], r) {
				continue
			}
			size, weight := t.scalarMeasure(r)
			t.add(cand{kind: kReplace, list: l, node: id, val: r}, n.size, n.weight, size, weight)
		}
	}
	add(out, listEdit)
	if x, ok := v.(float64); ok {
		add(floatCuts(x), listLast)
	}
}

func dupOf(prev []any, v any) bool {
	for _, p := range prev {
		if value.Equal(p, v) {
			return true
		}
	}
	return false
}

// intSteps appends simpler integers than x: its absolute value, x/10,
// x/2, x with only its leading digit, the power of ten of its length, x
// without the last half, quarter, eighth, ... of its digits (so that a
// bug past a number of digits, say 4,300, is reached from 6,000 in a few
// dozen rounds, not 1,700); in the value model's representation (int64
// when it fits).
func intSteps(x *big.Int, out []any) []any {
	if x.Sign() == 0 {
		return out
	}
	ten := big.NewInt(10)
	digits := len(x.String()) // sign included; only used as a length
	if x.Sign() < 0 {
		digits--
		out = append(out, intValue(new(big.Int).Neg(x)))
	}
	out = append(out,
		intValue(new(big.Int).Quo(x, ten)),
		intValue(new(big.Int).Quo(x, big.NewInt(2))))
	p := new(big.Int).Exp(ten, big.NewInt(int64(digits-1)), nil)
	lead := new(big.Int).Quo(x, p)
	out = append(out,
		intValue(new(big.Int).Mul(lead, p)),
		intValue(new(big.Int).Mul(big.NewInt(int64(x.Sign())), p)))
	for k := digits / 2; k >= 2; k /= 2 {
		cut := new(big.Int).Exp(ten, big.NewInt(int64(k)), nil)
		out = append(out, intValue(new(big.Int).Quo(x, cut)))
	}
	return out
}

// int64Steps is intSteps without big.Int for the common case, any int64
// but math.MinInt64.
func int64Steps(x int64, out []any) []any {
	if x == 0 {
		return out
	}
	sign, a := int64(1), x
	if x < 0 {
		sign, a = -1, -x
		out = append(out, a)
	}
	digits, p := 1, int64(1)
	for ; a/p >= 10; p *= 10 {
		digits++
	}
	out = append(out, x/10, x/2, x/p*p, sign*p)
	for k := digits / 2; k >= 2; k /= 2 {
		cut := int64(1)
		for range k {
			cut *= 10
		}
		out = append(out, x/cut)
	}
	return out
}

// floatSteps appends simpler floats than x: 0.0, |x|, x truncated or as
// an integer, x rounded to fewer significant digits, 10^e, and x with its
// decimal exponent moved toward zero by halving steps (so that 3.7e+300
// reaches 3.7e+21 in a few rounds when only the magnitude matters).
func floatSteps(x float64, out []any) []any {
	if x != 0 || math.Signbit(x) {
		out = append(out, 0.0)
	}
	if math.Signbit(x) && !math.IsNaN(x) {
		out = append(out, -x)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return out
	}
	if tr := math.Trunc(x); tr != x {
		out = append(out, tr)
	} else if math.Abs(x) < 1<<63 {
		out = append(out, int64(x))
	} else {
		b, _ := big.NewFloat(x).Int(nil)
		out = append(out, intValue(b))
	}
	sign := ""
	if x < 0 {
		sign = "-"
	}
	s := strconv.FormatFloat(math.Abs(x), 'e', -1, 64)
	mant, expText, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(expText)
	digits := len(mant)
	if digits > 1 {
		digits-- // the point
	}
	for _, p := range []int{1, digits / 2, digits - 1} {
		if p >= 1 && p < digits {
			out = appendParsed(out, strconv.FormatFloat(x, 'e', p-1, 64))
		}
	}
	out = appendParsed(out, sign+"1e"+strconv.Itoa(e))
	for d := abs(e); d >= 1; d /= 2 {
		ne := e - d
		if e < 0 {
			ne = e + d
		}
		out = appendParsed(out, sign+mant+"e"+strconv.Itoa(ne))
	}
	return out
}

// floatCuts are the float steps that wait for all others (listLast): its
// significant digits cut rather than rounded (rounding may carry a digit up
// across a bound the bug needs, 2^63 say), and the largest float with one
// integer digit fewer, whose cuts then go down to the shortest above the
// bound: 1e19 -> 9999999999999998976 -> ... -> 9.9e18, a byte shorter.
func floatCuts(x float64) []any {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return nil
	}
	sign := ""
	if x < 0 {
		sign = "-"
	}
	s := strconv.FormatFloat(math.Abs(x), 'e', -1, 64)
	mant, expText, _ := strings.Cut(s, "e")
	var out []any
	for p := 1; p+1 < len(mant); p++ { // mant is d.ddd: p digits after the point
		out = appendParsed(out, sign+mant[:p+1]+"e"+expText)
	}
	out = appendParsed(out, sign+mant[:1]+"e"+expText)
	if e, _ := strconv.Atoi(expText); e >= 1 {
		out = append(out, math.Copysign(math.Nextafter(math.Pow(10, float64(e)), 0), x))
	}
	return out
}

// appendParsed appends the float s spells, if it is finite and non-zero.
func appendParsed(out []any, s string) []any {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f == 0 || math.IsInf(f, 0) {
		return out
	}
	return append(out, f)
}

// intValue applies the value model's rule: int64 when it fits, *big.Int
// otherwise.
func intValue(b *big.Int) any {
	if b.IsInt64() {
		return b.Int64()
	}
	return b
}
