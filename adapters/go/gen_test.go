package canonjson

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// source is where the value generator draws its choices: math/rand for the
// random tests, the fuzzer's bytes for the fuzz targets.
type source interface {
	IntN(n int) int
}

// byteSource turns fuzz input into choices; once it runs out every choice is
// 0, which always ends the value.
type byteSource struct{ b []byte }

func (s *byteSource) IntN(n int) int {
	if len(s.b) == 0 || n <= 1 {
		return 0
	}
	x := int(s.b[0])
	if n > 256 && len(s.b) > 1 {
		x = x<<8 | int(s.b[1])
		s.b = s.b[1:]
	}
	s.b = s.b[1:]
	return x % n
}

// gen builds random values. With wild set it also produces values outside
// the model or the text (invalid UTF-8, unsupported Go types, non-string
// keys); otherwise only values that round-trip through value.AppendText/Parse.
type gen struct {
	src  source
	wild bool
	size int // remaining container budget
}

func newGen(src source, wild bool) *gen { return &gen{src: src, wild: wild, size: 200} }

var keyPool = []string{"a", "b", "", "__proto__", "constructor", "1", "01", "10", "\uff61", "\U0001F600", "é", "tool_name", "args", "a\x00", "\xed\xa0\x80", "\xed\xb0\x80"}

func (g *gen) value(depth int) any {
	n := 11
	if g.size <= 0 || depth >= 990 { // the text can carry depth 1000 at most
		n = 7 // scalars only
	}
	switch g.src.IntN(n) {
	case 0:
		return nil
	case 1:
		return g.src.IntN(2) == 1
	case 2:
		return g.int()
	case 3:
		return g.float()
	case 4, 5:
		return g.string()
	case 6:
		if g.wild && g.src.IntN(8) == 0 {
			return g.odd()
		}
		return g.string()
	case 7, 8:
		g.size--
		arr := make([]any, g.src.IntN(5))
		for i := range arr {
			arr[i] = g.value(depth + 1)
		}
		return arr
	case 9:
		g.size--
		// a chain, to reach the depth limits quickly
		chain := min([]int{1, 2, 10, 509, 510, 511, 512, 513}[g.src.IntN(8)], 990-depth)
		return nest(chain, g.value(depth+chain))
	}
	g.size--
	if g.wild && g.src.IntN(5) == 0 {
		obj := make(RawObject, g.src.IntN(5))
		for i := range obj {
			var k any = g.key()
			if g.src.IntN(3) == 0 {
				k = g.value(depth + 1)
			}
			obj[i] = RawMember{Key: k, Value: g.value(depth + 1)}
		}
		return obj
	}
	obj := make(Object, g.src.IntN(6))
	for i := range obj {
		obj[i] = Member{Key: g.key(), Value: g.value(depth + 1)}
	}
	return obj
}

func (g *gen) key() string {
	switch g.src.IntN(4) {
	case 0:
		return keyPool[g.src.IntN(3)] // small, so that duplicates are common
	case 1:
		return keyPool[g.src.IntN(len(keyPool))]
	}
	return g.string()
}

func (g *gen) int() any {
	switch g.src.IntN(6) {
	case 0:
		return int64(g.src.IntN(21) - 10)
	case 1:
		return []int64{math.MaxInt64, math.MinInt64, 1<<53 - 1, 1 << 53, 1<<53 + 1, -(1 << 53)}[g.src.IntN(6)]
	case 2:
		return bigInt([]string{"9223372036854775808", "-9223372036854775809", "18446744073709551616", "1000000000000000000000000000000", "-18446744073709551616"}[g.src.IntN(5)])
	case 3:
		n := new(big.Int).Lsh(big.NewInt(int64(g.src.IntN(1000)+1)), uint(64+g.src.IntN(100)))
		if g.src.IntN(2) == 0 {
			n.Neg(n)
		}
		return n
	}
	return int64(g.src.IntN(1<<20)) * int64(g.src.IntN(1<<20)-1<<19)
}

func (g *gen) float() float64 {
	switch g.src.IntN(5) {
	case 0:
		return []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 5e-324, 1e21, 1e-7, 1e-6, 9.99e-7, math.MaxFloat64, 1e20, 1, 0.1}[g.src.IntN(14)]
	case 1:
		var bits uint64
		for range 4 {
			bits = bits<<16 | uint64(g.src.IntN(1<<16))
		}
		return math.Float64frombits(bits)
	case 2:
		return float64(g.src.IntN(2000)-1000) / 8
	}
	return float64(g.src.IntN(1<<30)) * math.Pow10(g.src.IntN(60)-30)
}

// string builds a string from pieces covering every escaping class. A lone
// low surrogate never directly follows a lone high one: that would be the
// 3-byte form of a pair, which the text (like UTF-16) reads back as the
// astral character.
func (g *gen) string() string {
	var b []byte
	lastHigh := false
	for range g.src.IntN(8) {
		high := false
		switch g.src.IntN(14) {
		case 0:
			b = append(b, byte(g.src.IntN(0x20)))
		case 1:
			b = append(b, `"\/`[g.src.IntN(3)], 0x7f)
		case 2:
			b = utf8.AppendRune(b, rune(0x80+g.src.IntN(0x780)))
		case 3:
			b = utf8.AppendRune(b, []rune{0x2028, 0x2029, 0xfeff, 0xfffd, 0xffff, 0xe000, 0xff61, 0x10000, 0x10ffff, 0x1f600}[g.src.IntN(10)])
		case 4:
			r := rune(0x800 + g.src.IntN(0xf800))
			if r >= 0xd800 && r < 0xe000 {
				r += 0x800
			}
			b = utf8.AppendRune(b, r)
		case 5:
			b = utf8.AppendRune(b, rune(0x10000+g.src.IntN(0x100000)))
		case 6: // lone high surrogate
			b = appendWTF8(b, rune(0xd800+g.src.IntN(0x400)))
			high = true
		case 7: // lone low surrogate
			if lastHigh {
				b = append(b, 'x')
			}
			b = appendWTF8(b, rune(0xdc00+g.src.IntN(0x400)))
		case 8:
			if g.wild {
				b = append(b, []string{"\xff", "\xc3", "\xed\xa0", "\xc0\x80", "\xf4\x90\x80\x80"}[g.src.IntN(5)]...)
				break
			}
			fallthrough
		default:
			for range g.src.IntN(6) + 1 {
				b = append(b, byte(0x20+g.src.IntN(0x5f)))
			}
		}
		lastHigh = high
	}
	return string(b)
}

// odd returns a Go value outside the model.
func (g *gen) odd() any {
	switch g.src.IntN(4) {
	case 0:
		return []byte("bin")
	case 1:
		return struct{ X int }{1}
	case 2:
		return map[int]any{1: 2}
	}
	return (*big.Int)(nil)
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// referenceCode is a literal transcription of the validation walk of spec
// section 3 (quadratic duplicate check, recursion everywhere), used as an
// oracle for the error precedence of the real implementation.
func referenceCode(v any, level int) Code {
	switch x := v.(type) {
	case nil, bool, int64, float64, int, int8, int16, int32, uint, uint8, uint16, uint32, uint64, float32:
		return ""
	case *big.Int:
		if x == nil {
			return CodeUnsupported
		}
		return ""
	case string:
		return referenceStringCode(x)
	case []any:
		if level > MaxDepth {
			return CodeTooDeep
		}
		for _, el := range x {
			if c := referenceCode(el, level+1); c != "" {
				return c
			}
		}
		return ""
	case []string:
		if level > MaxDepth {
			return CodeTooDeep
		}
		for _, el := range x {
			if c := referenceStringCode(el); c != "" {
				return c
			}
		}
		return ""
	case Object:
		raw := make(RawObject, len(x))
		for i, m := range x {
			raw[i] = RawMember{Key: m.Key, Value: m.Value}
		}
		return referenceCode(raw, level)
	case RawObject:
		if level > MaxDepth {
			return CodeTooDeep
		}
		for i, m := range x {
			k, ok := m.Key.(string)
			if !ok {
				return CodeNonStringKey
			}
			if c := referenceStringCode(k); c != "" {
				return c
			}
			for _, earlier := range x[:i] {
				if earlier.Key == k {
					return CodeDuplicateKey
				}
			}
			if c := referenceCode(m.Value, level+1); c != "" {
				return c
			}
		}
		return ""
	}
	return CodeUnsupported
}

// referenceStringCode decodes s code point by code point: a surrogate is
// lone_surrogate, a byte that starts no code point is unsupported_value.
func referenceStringCode(s string) Code {
	for len(s) > 0 {
		if strings.HasPrefix(s, "\xed") && len(s) >= 3 && s[1] >= 0xa0 && s[1] <= 0xbf && s[2] >= 0x80 && s[2] <= 0xbf {
			return CodeLoneSurrogate
		}
		r, size := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && size == 1 {
			return CodeUnsupported
		}
		s = s[size:]
	}
	return ""
}
