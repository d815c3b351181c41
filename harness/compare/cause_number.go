package compare

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// numberCause names a difference inside the number token around off: how
// the deviant spelled the reference's number, by the shape of each (an
// integer, a decimal, an exponent form, a special value) rather than by its
// digits, so that one formatting bug is one cause.
func numberCause(a, b []byte, off int) (Kind, string) {
	start := off
	for start > 0 && numberByte(a[start-1]) {
		start--
	}
	ta, tb := numberToken(a, start), numberToken(b, start)
	if tb == "" && tokenName(b, start) == "whitespace" {
		return KindStructure, "whitespace where want a number"
	}
	if tb == "" {
		return KindNumber, fmt.Sprintf("%s written as %s", shape(ta), tokenName(b, start))
	}
	if ta == "" {
		return KindNumber, fmt.Sprintf("%s where want %s", shape(tb), tokenName(a, start))
	}
	return KindNumber, numberSpelling(ta, tb)
}

// numberSpelling compares two spellings of a number, the reference's ta.
func numberSpelling(ta, tb string) string {
	sa, sb := shape(ta), shape(tb)
	switch {
	case ta == "0" && (tb == "-0" || strings.HasPrefix(tb, "-0.") || tb == "-0e0"):
		return "-0 written with its sign (want 0)"
	case sa == "an integer past 2^53" && isInteger(tb) && sameDouble(ta, tb):
		return "an integer past 2^53 rounded through a double"
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
	case sa == "an integer past 2^53" || sa == "an integer":
		return sa + " with other digits"
	case sameDouble(ta, tb):
		return "not the shortest digits that round-trip (" + sa + ")"
	}
	return "another value of " + sa
}

// shape is the class of a number's spelling.
func shape(t string) string {
	u := strings.TrimPrefix(t, "-")
	switch {
	case u == "NaN" || u == "Infinity":
		return t
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

// numberToken is the number written at b[start:], "" if none is.
func numberToken(b []byte, start int) string {
	if start >= len(b) || !numberStart(b[start]) {
		return ""
	}
	end := start
	for end < len(b) && numberByte(b[end]) {
		end++
	}
	return string(b[start:end])
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
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == ' ' || c == '\n' || c == '\r' || c == '\t':
		return "whitespace"
	case numberStart(c):
		return "a number"
	default:
		return fmt.Sprintf("the byte 0x%02x", c)
	}
}
