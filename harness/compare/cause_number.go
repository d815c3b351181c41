package compare

import (
	"bytes"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// numberCause names a difference at a number token around off: how the
// deviant wrote the reference's number, by the relation of the two (the
// same double spelled otherwise, rounded to fewer digits, another value)
// and the shape of each (an integer, a decimal, an exponent form, a
// non-finite number), never by its digits, so that one formatting bug is
// one cause whatever number a case holds. Not ok when neither side writes
// a number there, or both write the same one (the difference lies past
// it).
func numberCause(a, b []byte, off int, st scanState, w wants) (Kind, string, bool) {
	if !st.inNumber && !numberStart(at(a, off)) && !numberStart(at(b, off)) {
		return "", "", false
	}
	start := off
	for start > 0 && numberByte(a[start-1]) {
		start--
	}
	ta, tb := numberToken(a, start), numberToken(b, start)
	switch {
	case ta == tb:
		return "", "", false
	case tb == "" && !value(b, start):
		// Whitespace or a stray byte where a number belongs: the number was
		// not written otherwise, something else came before it.
		return KindStructure, tokenName(b, start) + " where want a number", true
	case tb == "":
		return KindNumber, fmt.Sprintf("%s written as %s", shape(ta), tokenName(b, start)), true
	case ta == "":
		return KindNumber, fmt.Sprintf("%s where want %s", shape(tb), tokenName(a, start)), true
	}
	return KindNumber, numberSpelling(ta, tb, w), true
}

// numberSpelling compares two spellings of a number, the reference's ta.
func numberSpelling(ta, tb string, w wants) string {
	sa, sb := shape(ta), shape(tb)
	switch {
	case sa == nonFiniteShape || sb == nonFiniteShape || sa == nonJSONShape || sb == nonJSONShape:
		return fmt.Sprintf("%s written as %s", sa, sb)
	case isZero(ta) && isZero(tb) && tb[0] == '-' && ta[0] != '-':
		return "-0 written with its sign (want 0)"
	case isZero(ta) && isZero(tb) && ta[0] == '-' && tb[0] != '-':
		return "-0 written without its sign (want -0)"
	case sa == "an integer past 2^53" && isInteger(tb) && sameDouble(ta, tb):
		return w.bigIntCause()
	case sameDouble(ta, tb):
		return respelling(ta, tb)
	case isInteger(ta) && isInteger(tb):
		return sa + otherDigits
	case roundedShorter(ta, tb):
		return roundedFewer
	case through32(ta, tb):
		return rounded32
	}
	return anotherValue
}

// The causes of a number written with another value than the reference's.
const (
	otherDigits  = " with other digits" // after the reference's shape
	roundedFewer = "a number rounded to fewer digits"
	rounded32    = "a number rounded through a 32-bit float"
	anotherValue = "a number written with another value"
)

// ChangesValue reports whether a number's cause names a deviant that wrote
// another value than the reference's, not another spelling of it: the
// fault of a parser or of a precision, where a spelling is a formatter's
// style (package probe tells the two apart).
func ChangesValue(cause string) bool {
	switch cause {
	case roundedFewer, rounded32, anotherValue:
		return true
	}
	return strings.HasSuffix(cause, otherDigits)
}

// respelling names another spelling of the same double: another form (in
// full, in exponent form, with a decimal point), another exponent, or
// other digits, longer or as short.
func respelling(ta, tb string) string {
	sa, sb := shape(ta), shape(tb)
	switch {
	case sa != sb && hasExp(ta) && !hasExp(tb) && expSign(ta) == '+':
		return "a number of 1e21 or more printed in full (want exponent form)"
	case sa != sb && hasExp(ta) && !hasExp(tb):
		return "a number below 1e-6 printed in full (want exponent form)"
	case sa != sb && hasExp(tb) && !hasExp(ta):
		return fmt.Sprintf("%s written in exponent form", sa)
	case sa != sb:
		return fmt.Sprintf("%s written as %s", sa, sb)
	case hasExp(ta) && mantissa(ta) == mantissa(tb):
		return "an exponent spelled otherwise (" + expSpelling(tb) + ")"
	}
	switch da, db := digitCount(ta), digitCount(tb); {
	case db > da:
		return "not the shortest digits that round-trip"
	case db == da:
		// Two shortest spellings round to the double; ECMAScript takes the
		// one nearer its exact value, the deviant took the other.
		return "other digits as short that round-trip (a tie broken otherwise)"
	}
	return "fewer digits than the reference's, the same double"
}

// The shapes of number tokens that are not finite JSON numbers.
const (
	nonFiniteShape = "a non-finite number"
	nonJSONShape   = "a number JSON lacks"
)

// shape is the class of a number's spelling. NaN, Infinity and -Infinity
// are one class: a writer that gets one wrong gets all three wrong.
func shape(t string) string {
	u := strings.TrimPrefix(t, "-")
	switch {
	case u == "NaN" || u == "Infinity":
		return nonFiniteShape
	case !jsonNumber.MatchString(t):
		return nonJSONShape // -Inf, nan, 1., 01, --9223372036854775808
	case hasExp(u):
		if expSign(u) == '-' {
			return "a small number in exponent form"
		}
		return "a large number in exponent form"
	case strings.ContainsRune(u, '.'):
		return "a decimal"
	}
	n, ok := new(big.Int).SetString(u, 10)
	if ok && n.Cmp(maxSafe) > 0 {
		return "an integer past 2^53"
	}
	return "an integer"
}

// jsonNumber is RFC 8259's number.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// isZero reports whether a JSON number is zero, signed or not.
func isZero(t string) bool {
	return strings.Trim(mantissa(strings.TrimPrefix(t, "-")), "0.") == ""
}

// digitCount is the number of digits t's mantissa writes, past its leading
// zeros.
func digitCount(t string) int {
	m := strings.NewReplacer("-", "", ".", "").Replace(mantissa(t))
	return len(strings.TrimLeft(m, "0"))
}

// lastPlace is the power of ten of t's last written digit; for an integer
// of trailing zeros (1234570), of its last nonzero one.
func lastPlace(t string) int {
	m, exp := mantissa(t), 0
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		exp, _ = strconv.Atoi(strings.TrimPrefix(t[i+1:], "+"))
	}
	if dot := strings.IndexByte(m, '.'); dot >= 0 {
		return exp - (len(m) - dot - 1)
	}
	trimmed := strings.TrimRight(m, "0")
	if strings.Trim(trimmed, "-") == "" {
		return exp
	}
	return exp + len(m) - len(trimmed)
}

// roundedShorter reports whether tb is ta rounded (or cut) to fewer
// digits: its last digit is in a coarser place than ta's, and it is less
// than one unit of that place from ta. %g's six digits, a cut to eight
// decimals and Python's round() all are.
func roundedShorter(ta, tb string) bool {
	if hugeExp(ta) || hugeExp(tb) {
		return false // exact arithmetic would take 10^exponent
	}
	pa, pb := lastPlace(ta), lastPlace(tb)
	ra, ok1 := new(big.Rat).SetString(ta)
	rb, ok2 := new(big.Rat).SetString(tb)
	if pb <= pa || !ok1 || !ok2 {
		return false
	}
	diff := new(big.Rat).Sub(ra, rb)
	unit := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(pb, -pb))), nil))
	if pb < 0 {
		unit.Inv(unit)
	}
	return diff.Abs(diff).Cmp(unit) < 0
}

// hugeExp reports whether t's exponent is past any double's, where a
// deviant's number is garbage rather than a rounding.
func hugeExp(t string) bool {
	i := strings.IndexAny(t, "eE")
	if i < 0 {
		return false
	}
	e, err := strconv.Atoi(strings.TrimPrefix(t[i+1:], "+"))
	return err != nil || e > 400 || e < -400
}

// through32 reports whether tb is ta's double narrowed to a 32-bit float.
func through32(ta, tb string) bool {
	fa, err1 := strconv.ParseFloat(ta, 64)
	fb, err2 := strconv.ParseFloat(tb, 64)
	return err1 == nil && err2 == nil && float64(float32(fa)) == fb
}

// maxSafe is 2^53 - 1, JavaScript's Number.MAX_SAFE_INTEGER: past it a
// double no longer holds every integer.
var maxSafe = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 53), big.NewInt(1))

// isInteger reports whether a number token is written as an integer.
func isInteger(t string) bool { return !strings.ContainsAny(t, ".eEIN") }

func hasExp(t string) bool { return strings.ContainsAny(t, "eE") }

// expSign is the sign of t's exponent, '+' when none is written.
func expSign(t string) byte {
	i := strings.IndexAny(t, "eE")
	if i >= 0 && i+1 < len(t) && t[i+1] == '-' {
		return '-'
	}
	return '+'
}

func mantissa(t string) string {
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		return t[:i]
	}
	return t
}

// expSpelling names how the exponent of t departs from ECMAScript's "e+21".
func expSpelling(t string) string {
	i := strings.IndexAny(t, "eE")
	e := t[i:]
	switch {
	case e[0] == 'E':
		return "with E"
	case len(e) > 1 && e[1] != '+' && e[1] != '-':
		return "without its +"
	case len(e) > 2 && e[2] == '0':
		return "with leading zeros"
	}
	return "other digits"
}

// sameDouble reports whether two spellings round to one double.
func sameDouble(x, y string) bool {
	fx, err1 := strconv.ParseFloat(x, 64)
	fy, err2 := strconv.ParseFloat(y, 64)
	return err1 == nil && err2 == nil && fx == fy
}

func numberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' ||
		c == 'N' || c == 'a' || c == 'I' || c == 'n' || c == 'f' || c == 'i' || c == 't' || c == 'y'
}

// numberToken is the number written at b[start:], "" if none is. Besides
// JSON's numbers and NaN and Infinity, it reads the lower-case spellings
// of C and Python (nan, inf, infinity).
func numberToken(b []byte, start int) string {
	if start >= len(b) || !numberStart(b[start]) && !lowerNonFinite(b[start:]) {
		return ""
	}
	end := start
	for end < len(b) && numberByte(b[end]) {
		end++
	}
	return string(b[start:end])
}

func lowerNonFinite(b []byte) bool {
	return bytes.HasPrefix(b, []byte("nan")) || bytes.HasPrefix(b, []byte("inf"))
}

// value reports whether a JSON value (or a number JSON lacks) starts at
// b[off].
func value(b []byte, off int) bool {
	if off >= len(b) {
		return false
	}
	if c := b[off]; c == '{' || c == '[' || c == '"' || numberStart(c) || lowerNonFinite(b[off:]) {
		return true
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(b[off:], []byte(lit)) {
			return true
		}
	}
	return false
}

// tokenName names the token at b[off] for a structure cause.
func tokenName(b []byte, off int) string {
	if off >= len(b) {
		return "the end of the text"
	}
	switch c := b[off]; {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == '}':
		return "the object's end"
	case c == ']':
		return "the array's end"
	case c == ',':
		return "a `,`"
	case c == ':':
		return "a `:`"
	case bytes.HasPrefix(b[off:], []byte("true")) || bytes.HasPrefix(b[off:], []byte("false")):
		return "a boolean"
	case bytes.HasPrefix(b[off:], []byte("null")):
		return "null"
	case c == ' ' || c == '\n' || c == '\r' || c == '\t':
		return "whitespace"
	case numberStart(c):
		return "a number"
	default:
		return fmt.Sprintf("the byte 0x%02x", c)
	}
}
