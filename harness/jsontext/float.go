package jsontext

import (
	"strconv"
)

// appendFloatText writes the float -?D × 10^(X-len(D)+1) in the notation
// w picks, after folding its digits and exponent into w's state (each
// byte of "-DeX", the sign only when negative). The notations
// (docs/your-sdk.md): 0 scientific (1.5e2, 1.0E+2), 1 plain (150.0,
// 0.00015; only for X in [-7, 20], else 2), 2 integer mantissa (15e1), 3
// fraction mantissa (0.15e3).
func appendFloatText(w *textWriter, out []byte, neg bool, digits []byte, exp int) []byte {
	if neg {
		w.mix('-')
	}
	for _, c := range digits {
		w.mix(uint32(c))
	}
	w.mix('e')
	var buf [8]byte
	for _, c := range strconv.AppendInt(buf[:0], int64(exp), 10) {
		w.mix(uint32(c))
	}
	if neg {
		out = append(out, '-')
	}
	form := w.pick(4)
	if form == 1 && (exp < -7 || exp > 20) {
		form = 2
	}
	switch form {
	case 0:
		out = append(out, digits[0])
		if len(digits) > 1 {
			out = append(append(out, '.'), digits[1:]...)
		} else if w.pick(2) == 1 {
			out = append(out, ".0"...)
		}
		return w.exponent(out, exp)
	case 1:
		return appendPlainDecimal(out, digits, exp)
	case 2:
		return w.exponent(append(out, digits...), exp-len(digits)+1)
	default:
		return w.exponent(append(append(out, "0."...), digits...), exp+1)
	}
}

// exponent writes e or E, the sign (+ optional when positive), sometimes a
// leading zero, and the digits of k.
func (w *textWriter) exponent(out []byte, k int) []byte {
	out = append(out, "eE"[w.pick(2)])
	if k < 0 {
		out = append(out, '-')
		k = -k
	} else if w.pick(2) == 1 {
		out = append(out, '+')
	}
	if w.pick(4) == 0 {
		out = append(out, '0')
	}
	return strconv.AppendInt(out, int64(k), 10)
}

// appendPlainDecimal appends D × 10^(X-len(D)+1) with a point and no
// exponent, at least one digit after the point.
func appendPlainDecimal(out, digits []byte, exp int) []byte {
	switch {
	case exp < 0:
		out = append(out, "0."...)
		out = appendZeros(out, -exp-1)
		return append(out, digits...)
	case len(digits) <= exp+1:
		out = append(out, digits...)
		out = appendZeros(out, exp+1-len(digits))
		return append(out, ".0"...)
	}
	out = append(out, digits[:exp+1]...)
	return append(append(out, '.'), digits[exp+1:]...)
}

func appendZeros(out []byte, n int) []byte {
	for range n {
		out = append(out, '0')
	}
	return out
}
