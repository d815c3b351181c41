package zoo

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/kits/go/kit"
)

// Mutant is one deliberately wrong implementation: the spec's encoder with
// one step replaced by Set.
type Mutant struct {
	Name string // stable, for command lines and tables
	Desc string // the bug, in one line
	Set  func(e *Enc)
}

// Func is the mutant as the worker kit calls it.
func (m Mutant) Func() kit.Func[[]byte] {
	e := &Enc{}
	m.Set(e)
	return e.Canonical
}

// Lookup returns the mutant named name; "ok" is the spec's encoder itself,
// the zoo's control.
func Lookup(name string) (Mutant, bool) {
	if name == "ok" {
		return Mutant{Name: "ok", Desc: "no bug (the control)", Set: func(*Enc) {}}, true
	}
	for _, m := range Mutants {
		if m.Name == name {
			return m, true
		}
	}
	return Mutant{}, false
}

// Mutants is the zoo. The first group are bugs of the common kinds; the
// ones marked "context" need a property in a less usual context (a size, a
// position, a depth, a chunk edge): the bug shapes of issue 14.
var Mutants = []Mutant{
	// Floats.
	{"python-float-repr", "floats printed with Python's repr() (1.0, 1e-05, 1e+16)", func(e *Enc) { e.Float = pythonRepr }},
	{"float-17g", "floats printed with 17 significant digits (0.1 -> 0.10000000000000001)", func(e *Enc) {
		e.Float = finite(func(dst []byte, x float64) []byte { return strconv.AppendFloat(dst, x, 'g', 17, 64) })
	}},
	{"float-exp-no-plus", "positive exponents without '+' (1e21)", func(e *Enc) { e.Float = Layout{Hi: 21, Lo: -6, NoPlus: true}.Append }},
	{"float-exp-upper", "exponent written with 'E' (1E+21)", func(e *Enc) { e.Float = Layout{Hi: 21, Lo: -6, Upper: true}.Append }},
	{"float-exp-pad", "exponents padded to two digits (1e-07)", func(e *Enc) { e.Float = Layout{Hi: 21, Lo: -6, Pad2: true}.Append }},
	{"float-exp-from-1e20", "exponent form from 1e20 instead of 1e21 (1e+20)", func(e *Enc) { e.Float = Layout{Hi: 20, Lo: -6}.Append }},
	{"float-fixed-to-1e-7", "fixed notation down to 1e-7 instead of 1e-6 (0.0000001)", func(e *Enc) { e.Float = Layout{Hi: 21, Lo: -7}.Append }},
	{"float-no-exp", "large floats never get an exponent (1e21 -> 1000000000000000000000)", func(e *Enc) { e.Float = Layout{Hi: 400, Lo: -6}.Append }},
	{"float-int64-path", "integral floats under 1e21 printed through int64 (2^60 exact, 2^63 wraps)", func(e *Enc) { e.Float = int64Path }},
	{"neg-zero", "-0.0 printed as -0", func(e *Enc) {
		e.Float = func(dst []byte, x float64) []byte {
			if x == 0 && math.Signbit(x) {
				return append(dst, "-0"...)
			}
			return ECMA.Append(dst, x)
		}
	}},
	{"nan-null", "NaN printed as null", func(e *Enc) { e.Float = special(func(x float64) bool { return x != x }) }},
	{"inf-null", "Infinity and -Infinity printed as null", func(e *Enc) { e.Float = special(func(x float64) bool { return math.IsInf(x, 0) }) }},

	// Integers.
	{"bigint-double", "integers past 2^53 routed through a double (9007199254740993 -> ...992)", func(e *Enc) { e.Rewrite = viaDouble }},
	{"int64-min", "-2^63 printed as --9223372036854775808 (negating it overflows)", func(e *Enc) {
		e.Int = func(dst []byte, i int64) []byte {
			if i == math.MinInt64 {
				dst = append(dst, '-')
			}
			return strconv.AppendInt(dst, i, 10)
		}
	}},
	{"uint64-wrap", "integers in [2^63, 2^64) printed as int64, wrapped negative", func(e *Enc) {
		e.Big = func(dst []byte, b *big.Int) ([]byte, error) {
			if b.IsUint64() {
				return strconv.AppendInt(dst, int64(b.Uint64()), 10), nil
			}
			return b.Append(dst, 10), nil
		}
	}},
	{"bigint-abs", "integers below -2^63 lose their sign", func(e *Enc) {
		e.Big = func(dst []byte, b *big.Int) ([]byte, error) { return new(big.Int).Abs(b).Append(dst, 10), nil }
	}},
	{"bigint-limbs", "context: integers past 64 bits printed in 9-digit limbs without zero padding", func(e *Enc) { e.Big = limbs }},
	{"int-4300-digits", "context: integers of more than 4,300 digits fail (Python's int/str limit)", func(e *Enc) {
		e.Big = func(dst []byte, b *big.Int) ([]byte, error) {
			s := b.Append(nil, 10)
			if len(strings.TrimPrefix(string(s), "-")) > 4300 {
				return dst, errors.New("exceeds the limit (4300 digits) for integer string conversion")
			}
			return append(dst, s...), nil
		}
	}},

	// Strings.
	{"html-escape", "<, > and & escaped as \\u003c, \\u003e, \\u0026 (Go's encoding/json)", func(e *Enc) {
		e.Char = escapeAlso("<>&", AppendU)
	}},
	{"u2028-raw", "U+2028 and U+2029 written raw", func(e *Enc) {
		e.Char = func(dst []byte, r rune) []byte {
			if r == 0x2028 || r == 0x2029 {
				return utf8.AppendRune(dst, r)
			}
			return Escape(dst, r)
		}
	}},
	{"raw-non-ascii", "non-ASCII characters written raw (ensure_ascii=False)", func(e *Enc) { e.Char = rawNonASCII }},
	{"astral-raw", "characters past U+FFFF written raw (only the BMP escaped)", func(e *Enc) {
		e.Char = func(dst []byte, r rune) []byte {
			if r > 0xffff {
				return utf8.AppendRune(dst, r)
			}
			return Escape(dst, r)
		}
	}},
	{"astral-one-escape", "characters past U+FFFF as one escape of their code point (\\u1f600)", func(e *Enc) {
		e.Char = func(dst []byte, r rune) []byte {
			if r > 0xffff {
				return strconv.AppendInt(append(dst, '\\', 'u'), int64(r), 16)
			}
			return Escape(dst, r)
		}
	}},
	{"upper-hex", "\\u escapes with upper-case hex digits (\\u00E9)", func(e *Enc) {
		e.Char = func(dst []byte, r rune) []byte {
			n := len(dst)
			dst = Escape(dst, r)
			if len(dst)-n >= 6 && dst[n+1] == 'u' { // not \b or \f
				for i := n; i < len(dst); i++ {
					if dst[i] >= 'a' && dst[i] <= 'f' {
						dst[i] -= 'a' - 'A'
					}
				}
			}
			return dst
		}
	}},
	{"del-raw", "DEL (U+007F) written raw", func(e *Enc) {
		e.Char = func(dst []byte, r rune) []byte {
			if r == 0x7f {
				return append(dst, 0x7f)
			}
			return Escape(dst, r)
		}
	}},
	{"solidus-escaped", "'/' escaped as \\/", func(e *Enc) {
		e.Char = escapeAlso("/", func(dst []byte, r rune) []byte { return append(dst, '\\', '/') })
	}},
	{"bf-as-u", "\\b and \\f written as \\u0008 and \\u000c", func(e *Enc) {
		e.Char = func(dst []byte, r rune) []byte {
			if r == '\b' || r == '\f' {
				return AppendU(dst, r)
			}
			return Escape(dst, r)
		}
	}},
	{"nul-truncates", "a string ends at its first NUL (C strings)", func(e *Enc) {
		e.String = func(e *Enc, dst []byte, s string, key bool) []byte {
			if i := strings.IndexByte(s, 0); i >= 0 {
				s = s[:i]
			}
			return e.Quote(dst, s)
		}
	}},
	{"key-raw-non-ascii", "keys (not values) write non-ASCII raw", func(e *Enc) {
		e.String = func(e *Enc, dst []byte, s string, key bool) []byte {
			if key {
				return e.QuoteWith(dst, s, func(dst []byte, r rune, _, _ int) []byte { return rawNonASCII(dst, r) })
			}
			return e.Quote(dst, s)
		}
	}},
	{"chunk-4096", "context: strings decoded in 4,096-byte chunks; a character across a chunk edge becomes U+FFFD", func(e *Enc) {
		e.String = func(e *Enc, dst []byte, s string, _ bool) []byte {
			return e.QuoteWith(dst, s, func(dst []byte, r rune, _, at int) []byte {
				if n := utf8.RuneLen(r); n > 1 && at/4096 != (at+n-1)/4096 {
					return AppendU(dst, 0xfffd)
				}
				return Escape(dst, r)
			})
		}
	}},
	{"edge-4095", "context: a character needing an escape as the last of a 4,096-code-point chunk is written raw", func(e *Enc) {
		e.String = func(e *Enc, dst []byte, s string, _ bool) []byte {
			return e.QuoteWith(dst, s, func(dst []byte, r rune, i, _ int) []byte {
				if i%4096 == 4095 {
					return utf8.AppendRune(dst, r)
				}
				return Escape(dst, r)
			})
		}
	}},
	{"past-65536-raw", "context: non-ASCII past code point 65,536 of a string is written raw", func(e *Enc) {
		e.String = func(e *Enc, dst []byte, s string, _ bool) []byte {
			return e.QuoteWith(dst, s, func(dst []byte, r rune, i, _ int) []byte {
				if i >= 65536 {
					return rawNonASCII(dst, r)
				}
				return Escape(dst, r)
			})
		}
	}},

	// Lone surrogates.
	{"lone-surrogate-fffd", "lone surrogates replaced by U+FFFD instead of rejected", func(e *Enc) {
		e.Lone = func(rune, bool) bool { return false }
		e.Char = func(dst []byte, r rune) []byte {
			if utf16.IsSurrogate(r) {
				r = 0xfffd
			}
			return Escape(dst, r)
		}
	}},
	{"surrogate-high-only", "context: only lone high surrogates rejected; a lone low one is escaped", func(e *Enc) {
		e.Lone = func(r rune, _ bool) bool { return r < 0xdc00 }
	}},
	{"surrogate-low-only", "context: only lone low surrogates rejected; a lone high one is escaped", func(e *Enc) {
		e.Lone = func(r rune, _ bool) bool { return r >= 0xdc00 }
	}},
	{"key-surrogate-unchecked", "lone surrogates in keys not rejected", func(e *Enc) { e.Lone = func(_ rune, key bool) bool { return !key } }},

	// Key order.
	{"utf16-key-order", "keys sorted by UTF-16 code units (JavaScript's sort)", func(e *Enc) {
		e.Order = func(keys []string, _ int) []int { return SortBy(keys, CompareUTF16) }
	}},
	{"wide-object-utf16", "context: objects of more than 16 members sorted by UTF-16 code units", func(e *Enc) {
		e.Order = func(keys []string, _ int) []int {
			if len(keys) > 16 {
				return SortBy(keys, CompareUTF16)
			}
			return SortBy(keys, strings.Compare)
		}
	}},
	{"key-prefix-tie", "a key that is a prefix of another compares equal (input order kept)", func(e *Enc) {
		e.Order = func(keys []string, _ int) []int {
			return SortBy(keys, func(a, b string) int {
				n := min(len(a), len(b))
				return strings.Compare(a[:n], b[:n])
			})
		}
	}},
	{"sort-escaped", "keys sorted by their escaped text (\\u00e9 before a)", func(e *Enc) {
		e.Order = func(keys []string, _ int) []int {
			return SortBy(keys, func(a, b string) int { return strings.Compare(string(e.Quote(nil, a)), string(e.Quote(nil, b))) })
		}
	}},
	{"deep-unsorted", "context: objects nested below level 64 keep input order", func(e *Enc) {
		e.Order = func(keys []string, level int) []int {
			if level > 64 {
				return SortBy(keys, func(string, string) int { return 0 })
			}
			return SortBy(keys, strings.Compare)
		}
	}},

	// Duplicate keys.
	{"dup-last-wins", "duplicate keys merged, the last value wins", func(e *Enc) {
		e.Dup = func([]string) int { return -1 }
		e.Rewrite = lastWins
	}},
	{"dup-neighbour", "context: a key checked for a duplicate only against the one before it", func(e *Enc) {
		e.Dup = func(keys []string) int { return windowDup(keys, 1) }
	}},
	{"dup-window-16", "context: a key checked for a duplicate only against the 16 before it", func(e *Enc) {
		e.Dup = func(keys []string) int { return windowDup(keys, 16) }
	}},
	{"wide-object-no-dup", "context: objects of more than 32 members skip the duplicate check", func(e *Enc) {
		e.Dup = func(keys []string) int {
			if len(keys) > 32 {
				return -1
			}
			return FirstDup(keys)
		}
	}},

	// Error precedence.
	{"keys-before-values", "an object's keys all checked before any of its values", func(e *Enc) { e.KeysFirst = true }},
	{"value-before-dup", "a member's value is walked before its key's duplicate check", func(e *Enc) { e.Checks = "kvd" }},
	{"sorted-walk", "errors looked for in sorted key order instead of input order", func(e *Enc) { e.SortedWalk = true }},
	{"envelope-first", "the envelope checked before the walk", func(e *Enc) { e.EnvelopeFirst = true }},
	{"too-deep-last", "depth checked after the rest of the walk", func(e *Enc) { e.DepthLast = true }},

	// Out-of-domain values and the envelope.
	{"non-string-key-stringified", "keys that are not strings converted to strings (JavaScript)", func(e *Enc) { e.Key = stringify }},
	{"unsupported-null", "values outside the model written as null", func(e *Enc) { e.NullUnsupported = true }},
	{"args-array-ok", "args may be an array", func(e *Enc) {
		e.Envelope = func(ms []Member) bool {
			return EnvelopeWith(ms, isString, func(v any) bool { _, ok := v.([]any); return ok || isObject(v) }, false)
		}
	}},
	{"tool-name-any", "tool_name may be any value", func(e *Enc) {
		e.Envelope = func(ms []Member) bool { return EnvelopeWith(ms, func(any) bool { return true }, isObject, false) }
	}},
	{"extra-member-ok", "the envelope accepts members besides tool_name and args", func(e *Enc) {
		e.Envelope = func(ms []Member) bool { return EnvelopeWith(ms, isString, isObject, true) }
	}},
	{"tool-name-first", "the envelope needs tool_name before args", func(e *Enc) {
		e.Envelope = func(ms []Member) bool { return SpecEnvelope(ms) && ms[0].Key == "tool_name" }
	}},

	// Depth.
	{"depth-511", "context: depth limit off by one, depth 512 rejected", func(e *Enc) { e.Depth = 511 }},
	{"depth-513", "context: depth limit off by one, depth 513 accepted", func(e *Enc) { e.Depth = 513 }},
	{"depth-arrays-only", "context: only arrays count toward the depth limit", func(e *Enc) { e.FlatObjects = true }},

	// Containers and sizes.
	{"empty-array-null", "an empty array written as null (a nil Go slice)", func(e *Enc) {
		e.Rewrite = func(v any) any {
			if a, ok := v.([]any); ok && len(a) == 0 {
				return nil
			}
			return v
		}
	}},
	{"wide-array-1024", "context: arrays of more than 1,024 elements lose element 1,024 (a chunk edge)", func(e *Enc) {
		e.Rewrite = func(v any) any {
			if a, ok := v.([]any); ok && len(a) > 1024 {
				return append(a[:1024:1024], a[1025:]...)
			}
			return v
		}
	}},
	{"text-over-1mib", "context: a canonical text over 1 MiB fails (a fixed output buffer)", func(e *Enc) {
		e.Text = func(text []byte) error {
			if len(text) > 1<<20 {
				return errors.New("output buffer full")
			}
			return nil
		}
	}},

	// Failures of real SDKs, each a bucket of its own beside the others.
	{"key-quote-raw", "a '\"' in a key written unescaped (keys written by hand)", func(e *Enc) {
		e.String = func(e *Enc, dst []byte, s string, key bool) []byte {
			if !key {
				return e.Quote(dst, s)
			}
			return e.QuoteWith(dst, s, func(dst []byte, r rune, _, _ int) []byte {
				if r == '"' {
					return append(dst, '"')
				}
				return e.char(dst, r)
			})
		}
	}},
	{"nan-rejected", "NaN and the infinities refused (Python's allow_nan=False)", func(e *Enc) {
		e.Text = func(text []byte) error {
			if _, special := scanText(text); special {
				return errors.New("ValueError: Out of range float values are not JSON compliant")
			}
			return nil
		}
	}},
	{"deep-recursion", "context: valid values nested more than 300 deep fail (a recursion limit)", func(e *Enc) {
		e.Text = func(text []byte) error {
			if depth, _ := scanText(text); depth > 300 {
				return fmt.Errorf("RecursionError: maximum recursion depth exceeded at depth %d", depth)
			}
			return nil
		}
	}},
}

// scanText reads a canonical text for the deepest nesting and whether it
// holds a NaN or an infinity.
func scanText(text []byte) (depth int, special bool) {
	level, inString, escaped := 0, false, false
	for _, c := range text {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			level++
			depth = max(depth, level)
		case c == '}' || c == ']':
			level--
		case c == 'N' || c == 'I':
			special = true
		}
	}
	return depth, special
}

// finite writes finite non-zero floats with f, the rest as the spec does.
func finite(f func(dst []byte, x float64) []byte) func(dst []byte, x float64) []byte {
	return func(dst []byte, x float64) []byte {
		if x == 0 || x != x || math.IsInf(x, 0) {
			return ECMA.Append(dst, x)
		}
		return f(dst, x)
	}
}

// special writes the floats is picks as null.
func special(is func(float64) bool) func(dst []byte, x float64) []byte {
	return func(dst []byte, x float64) []byte {
		if is(x) {
			return append(dst, "null"...)
		}
		return ECMA.Append(dst, x)
	}
}

// pythonRepr is Python's repr of a float: fixed notation (with at least one
// decimal) for exponents -4..15, else d.ddde+XX.
func pythonRepr(dst []byte, x float64) []byte {
	if x != x || math.IsInf(x, 0) {
		return ECMA.Append(dst, x)
	}
	if x == 0 {
		if math.Signbit(x) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	d, n := Digits(x)
	if e := n - 1; e >= -4 && e < 16 {
		s := strconv.AppendFloat(nil, x, 'f', -1, 64)
		if !strings.Contains(string(s), ".") {
			s = append(s, ".0"...)
		}
		return append(dst, s...)
	}
	if x < 0 {
		dst = append(dst, '-')
	}
	dst = append(dst, d[0])
	if len(d) > 1 {
		dst = append(append(dst, '.'), d[1:]...)
	}
	return fmt.Appendf(dst, "e%+03d", n-1)
}

// int64Path prints integral floats under 1e21 through int64, as code that
// "prints integers as integers" does.
func int64Path(dst []byte, x float64) []byte {
	if x == math.Trunc(x) && math.Abs(x) < 1e21 {
		return strconv.AppendInt(dst, int64(x), 10)
	}
	return ECMA.Append(dst, x)
}

// viaDouble rounds integers past ±2^53 to the nearest double, as a JSON
// library that reads every number as float64 and prints integers back does.
func viaDouble(v any) any {
	var f float64
	switch x := v.(type) {
	case int64:
		if x <= 1<<53 && x >= -(1<<53) {
			return v
		}
		f = float64(x)
	case *big.Int:
		f, _ = new(big.Float).SetInt(x).Float64()
		if math.IsInf(f, 0) {
			return v
		}
	default:
		return v
	}
	i, _ := new(big.Float).SetFloat64(f).Int(nil)
	return i
}

// limbs prints b in base-10^9 limbs, forgetting to zero-pad all but the first.
func limbs(dst []byte, b *big.Int) ([]byte, error) {
	s := b.String()
	if s[0] == '-' {
		dst, s = append(dst, '-'), s[1:]
	}
	first := len(s) % 9
	if first == 0 {
		first = 9
	}
	dst = append(dst, s[:first]...)
	for i := first; i < len(s); i += 9 {
		n, _ := strconv.Atoi(s[i : i+9])
		dst = strconv.AppendInt(dst, int64(n), 10)
	}
	return dst, nil
}

// escapeAlso escapes the characters of set with esc, the rest as the spec.
func escapeAlso(set string, esc func(dst []byte, r rune) []byte) func(dst []byte, r rune) []byte {
	return func(dst []byte, r rune) []byte {
		if strings.ContainsRune(set, r) {
			return esc(dst, r)
		}
		return Escape(dst, r)
	}
}

func rawNonASCII(dst []byte, r rune) []byte {
	if r >= 0x80 && !utf16.IsSurrogate(r) {
		return utf8.AppendRune(dst, r)
	}
	return Escape(dst, r)
}

// CompareUTF16 compares strings by UTF-16 code units, as JavaScript does.
func CompareUTF16(a, b string) int {
	ua, ub := units(a), units(b)
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return int(ua[i]) - int(ub[i])
		}
	}
	return len(ua) - len(ub)
}

func units(s string) []uint16 {
	var u []uint16
	for i := 0; i < len(s); {
		r, n := decode(s, i)
		u = utf16.AppendRune(u, r)
		i += n
	}
	return u
}

// windowDup is a duplicate check that compares each key with only the w
// keys before it.
func windowDup(keys []string, w int) int {
	for i := range keys {
		for j := max(0, i-w); j < i; j++ {
			if keys[j] == keys[i] {
				return i
			}
		}
	}
	return -1
}

// lastWins merges an object's repeated keys, keeping the last value, as a
// map does.
func lastWins(v any) any {
	o, ok := v.(canonjson.Object)
	if !ok {
		return v
	}
	last := map[string]int{}
	for i, m := range o {
		last[m.Key] = i
	}
	if len(last) == len(o) {
		return v
	}
	var out canonjson.Object
	for i, m := range o {
		if last[m.Key] == i {
			out = append(out, m)
		}
	}
	return out
}

// stringify converts a key as JavaScript's String() would.
func stringify(k any) (string, bool) {
	switch x := k.(type) {
	case nil:
		return "null", true
	case bool:
		return strconv.FormatBool(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case *big.Int:
		return x.String(), true
	case float64:
		return string(ECMA.Append(nil, x)), true
	}
	return "", false
}
