package canonjson

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/contract"
)

// Encoding is canonical JSON under one contract (package contract): how
// strings are escaped, how keys are ordered, which numbers are accepted,
// what the top level may be and how deep a value may nest. The package's
// functions (Canonical, Signature, ...) are the Default encoding, this
// project's contract (docs/canonical-json.md); For gives the encoding of
// another, such as contract.RFC8785 (JSON Canonicalization Scheme).
//
// An Encoding is immutable and safe for concurrent use.
type Encoding struct {
	c contract.Contract
	r rules
}

// Default is the encoding of contract.Default, the one the package's
// functions use.
var Default = mustFor(contract.Default)

// For returns the encoding of the contract c, or an error when c does not
// pass c.Check (a choice that is none of its field's values).
func For(c contract.Contract) (*Encoding, error) {
	if err := c.Check(); err != nil {
		return nil, fmt.Errorf("canonjson: contract %q: %w", c.Name, err)
	}
	return &Encoding{c: c, r: rulesOf(c)}, nil
}

func mustFor(c contract.Contract) *Encoding {
	enc, err := For(c)
	if err != nil {
		panic(err) // a built-in that fails its own Check is a bug in package contract
	}
	return enc
}

// Contract is the contract the encoding follows.
func (enc *Encoding) Contract() contract.Contract { return enc.c }

// rules are a contract's choices in the form the encoder tests them on its
// hot path.
type rules struct {
	name string // the contract's, for messages
	// plain marks the ASCII bytes written as themselves: printable ASCII
	// except '"' and '\', and DEL when the contract writes it raw.
	plain [utf8.RuneSelf]bool
	// escNonASCII, escC1 and escLS say which code points from U+0080 up
	// are written as \u escapes (true) or as their UTF-8 (false): the C1
	// controls, U+2028 and U+2029, and all others.
	escNonASCII, escC1, escLS bool
	utf16Keys                 bool // keys by UTF-16 units, else by code points
	bigIntsError              bool // integers no double holds are unsupported_value
	bigIntsDouble             bool // integers past ±2^53 are rounded to the nearest double
	nonFiniteError            bool // NaN and the infinities are unsupported_value
	envelope                  bool // Canonical requires the {"tool_name","args"} envelope
	maxDepth                  int
}

func rulesOf(c contract.Contract) rules {
	r := rules{
		name:           c.Name,
		plain:          plain,
		escNonASCII:    c.Strings.NonASCII == contract.EscapeU,
		escC1:          c.Strings.C1 == contract.EscapeU,
		escLS:          c.Strings.LineSeparators == contract.EscapeU,
		utf16Keys:      c.KeyOrder == contract.KeyOrderUTF16,
		bigIntsError:   c.Numbers.BigInts == contract.BigIntsError,
		bigIntsDouble:  c.Numbers.BigInts == contract.BigIntsDouble,
		nonFiniteError: c.Numbers.NonFinite == contract.NonFiniteError,
		envelope:       c.TopLevel == contract.TopLevelEnvelope,
		maxDepth:       c.MaxDepth,
	}
	r.plain[0x7f] = c.Strings.DEL == contract.EscapeRaw
	return r
}

// escapes reports whether the code point x >= U+0080 is written as a \u
// escape: its class's choice (C1, line separators) wins over NonASCII's.
func (r *rules) escapes(x rune) bool {
	switch {
	case x <= 0x9f:
		return r.escC1
	case x == 0x2028 || x == 0x2029:
		return r.escLS
	}
	return r.escNonASCII
}

// compareKeys orders two keys as the contract sorts members.
func (r *rules) compareKeys(a, b string) int {
	if r.utf16Keys {
		return compareUTF16(a, b)
	}
	return strings.Compare(a, b) // UTF-8 byte order is code point order
}

// compareUTF16 orders two UTF-8 strings as their UTF-16 code unit sequences
// compare (RFC 8785 §3.2.3), without converting them. The two orders differ
// only where one string has a character of U+E000..U+FFFF (UTF-8 lead byte
// EE or EF) and the other an astral character (lead byte F0..F4) at the
// first code point where they differ: in UTF-16 the astral character's high
// surrogate (D800..DBFF) sorts first.
func compareUTF16(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n {
		return len(a) - len(b)
	}
	// A differing byte that is not a continuation byte starts the first
	// differing code point in both strings (valid UTF-8 shares the
	// continuation count of a shared lead byte).
	if ca, cb := a[i], b[i]; ca&0xC0 != 0x80 {
		switch {
		case (ca == 0xEE || ca == 0xEF) && cb >= 0xF0:
			return 1
		case (cb == 0xEE || cb == 0xEF) && ca >= 0xF0:
			return -1
		}
	}
	return int(a[i]) - int(b[i])
}

// maxExactInt is 2^53: every integer of at most this magnitude is a double.
const maxExactInt = 1 << 53

// appendInt writes the integer x. Under numbers.big_ints = error an integer
// past ±2^53 is a double's value (RFC 8785 §3.2.2.3 serializes the double a
// number is) and is written as that double, if a double holds it exactly;
// ok is false if none does (see numberProblem).
//
// Under big_ints = double it is written as the nearest double (Go rounds
// an integer to a float to the nearest, ties to even, as JSON.parse does).
func (r *rules) appendInt(dst []byte, x int64) (out []byte, ok bool) {
	if (r.bigIntsError || r.bigIntsDouble) && (x > maxExactInt || x < -maxExactInt) {
		if r.bigIntsError && !uint64IsDouble(absInt64(x)) {
			return dst, false
		}
		return appendCanonicalFloat(dst, float64(x)), true
	}
	return strconv.AppendInt(dst, x, 10), true
}

// appendUint writes a uint64, which may exceed int64.
func (r *rules) appendUint(dst []byte, x uint64) ([]byte, bool) {
	if x <= math.MaxInt64 {
		return r.appendInt(dst, int64(x))
	}
	if r.bigIntsError || r.bigIntsDouble {
		if r.bigIntsError && !uint64IsDouble(x) {
			return dst, false
		}
		return appendCanonicalFloat(dst, float64(x)), true
	}
	return strconv.AppendUint(dst, x, 10), true
}

// appendBig writes a non-nil *big.Int.
func (r *rules) appendBig(dst []byte, x *big.Int) ([]byte, bool) {
	if x.IsInt64() {
		return r.appendInt(dst, x.Int64())
	}
	if r.bigIntsError || r.bigIntsDouble {
		f, ok := r.bigFloat(x)
		if !ok {
			return dst, false
		}
		return appendCanonicalFloat(dst, f), true
	}
	return x.Append(dst, 10), true
}

// appendFloat writes a float, failing on NaN and the infinities when the
// contract rejects them.
func (r *rules) appendFloat(dst []byte, x float64) ([]byte, bool) {
	if r.nonFiniteError && (math.IsNaN(x) || math.IsInf(x, 0)) {
		return dst, false
	}
	return appendCanonicalFloat(dst, x), true
}

// numberProblem says why the number v (any of the model's or the
// conveniences' number types) is outside the contract, "" if it is not.
func (r *rules) numberProblem(v any) string {
	switch x := v.(type) {
	case float64:
		return r.floatProblem(x)
	case float32:
		return r.floatProblem(float64(x))
	}
	if r.bigIntsDouble {
		if _, b := intOf(v); b != nil {
			if _, ok := nearestDouble(b); !ok {
				return r.bigIntProblem(b.String())
			}
		}
		return ""
	}
	if !r.bigIntsError {
		return ""
	}
	i, b := intOf(v)
	if b == nil {
		if uint64IsDouble(absInt64(i)) {
			return ""
		}
		return r.bigIntProblem(strconv.FormatInt(i, 10))
	}
	if _, ok := bigDouble(b); ok {
		return ""
	}
	return r.bigIntProblem(b.String())
}

func (r *rules) floatProblem(x float64) string {
	if r.nonFiniteError && (math.IsNaN(x) || math.IsInf(x, 0)) {
		return string(appendCanonicalFloat(nil, x)) + " is not a number under contract " + r.name + " (numbers.non_finite = error)"
	}
	return ""
}

func (r *rules) bigIntProblem(digits string) string {
	if len(digits) > 40 {
		digits = digits[:20] + "..." + digits[len(digits)-10:]
	}
	if r.bigIntsDouble {
		return "the integer " + digits + " is past the largest double, under contract " + r.name + " (numbers.big_ints = double)"
	}
	return "the integer " + digits + " is past ±2^53 and no double holds it exactly, under contract " + r.name + " (numbers.big_ints = error)"
}

// bigFloat is the double x is written as: the one that holds it exactly
// under big_ints = error, the nearest under big_ints = double; ok is
// false when there is none.
func (r *rules) bigFloat(x *big.Int) (float64, bool) {
	if r.bigIntsDouble {
		return nearestDouble(x)
	}
	return bigDouble(x)
}

// nearestDouble is the double nearest x (ties to even), as JSON.parse
// reads the integer's text; ok is false past the largest double, which
// JSON.parse reads as Infinity.
func nearestDouble(x *big.Int) (float64, bool) {
	f, _ := new(big.Float).SetInt(x).Float64()
	return f, !math.IsInf(f, 0)
}

func absInt64(x int64) uint64 {
	if x < 0 {
		return -uint64(x) // also right for math.MinInt64
	}
	return uint64(x)
}

// uint64IsDouble reports whether a double holds u exactly: its significant
// bits fit the 53 of a double's significand.
func uint64IsDouble(u uint64) bool {
	return u == 0 || bits.Len64(u)-bits.TrailingZeros64(u) <= 53
}

// bigDouble is the double that holds x exactly, if one does: at most 53
// significant bits, and less than 2^1024.
func bigDouble(x *big.Int) (float64, bool) {
	n := x.BitLen()
	if n > 1024 || n-int(x.TrailingZeroBits()) > 53 {
		return 0, false
	}
	f, acc := new(big.Float).SetInt(x).Float64()
	return f, acc == big.Exact
}
