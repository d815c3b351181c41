package value

import (
	"math"
	"strconv"
)

// appendFloatLayout writes a finite, non-zero |x| in the ECMAScript
// Number::toString layout of spec section 4.5 (the caller writes the sign).
// It is the extended JSON text's own copy: the harness does not borrow the
// float printing of an implementation under test.
// The shortest round-trip digits come from strconv; only the layout is done
// here. intLike reports the "digits then zeros" form, the one that would read
// back as an integer.
func appendFloatLayout(dst []byte, x float64) (out []byte, intLike bool) {
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], x, 'e', -1, 64) // d[.ddd]e(+|-)dd
	var digits [24]byte
	k := 0
	i := 0
	for ; b[i] != 'e'; i++ {
		if b[i] != '.' {
			digits[k] = b[i]
			k++
		}
	}
	i++ // 'e'
	neg := b[i] == '-'
	e := 0
	for i++; i < len(b); i++ {
		e = e*10 + int(b[i]-'0')
	}
	if neg {
		e = -e
	}
	n := e + 1 // |x| = 0.digits * 10^n
	d := digits[:k]
	switch {
	case k <= n && n <= 21:
		dst = append(dst, d...)
		for j := k; j < n; j++ {
			dst = append(dst, '0')
		}
		return dst, true
	case 0 < n && n <= 21:
		dst = append(dst, d[:n]...)
		dst = append(dst, '.')
		return append(dst, d[n:]...), false
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for j := n; j < 0; j++ {
			dst = append(dst, '0')
		}
		return append(dst, d...), false
	}
	dst = append(dst, d[0])
	if k > 1 {
		dst = append(dst, '.')
		dst = append(dst, d[1:]...)
	}
	dst = append(dst, 'e')
	if e < 0 {
		dst = append(dst, '-')
		e = -e
	} else {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(e), 10), false
}

// appendTextFloat writes x for the extended JSON text: the layout of spec
// section 4.5, except that the forms that would read back as an integer get ".0" and
// negative zero keeps its sign, so that every float round-trips as a float.
func appendTextFloat(dst []byte, x float64) []byte {
	if x == 0 {
		if math.Signbit(x) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	switch {
	case x != x:
		return append(dst, "NaN"...)
	case math.IsInf(x, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(x, -1):
		return append(dst, "-Infinity"...)
	}
	if x < 0 {
		dst = append(dst, '-')
		x = -x
	}
	dst, intLike := appendFloatLayout(dst, x)
	if intLike {
		dst = append(dst, '.', '0')
	}
	return dst
}
