package gen

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
)

var (
	toolNames = []string{
		"get_weather", "search", "read_file", "write_file", "run_command",
		"fetch_url", "send_email", "create_issue", "query_db", "list_dir",
		"calculator", "translate", "ping", "t", "browser.open", "sql-query",
	}
	commonKeys = []string{
		"id", "name", "query", "path", "limit", "offset", "options", "value",
		"type", "data", "items", "url", "text", "count", "enabled", "tags",
		"a", "b", "x", "y", "k", "filter", "sort", "page", "user_id", "headers",
	}
	// protoKeys are keys that JavaScript objects, maps of integer-like
	// keys and naive hash maps are known to mishandle.
	protoKeys = []string{
		"__proto__", "constructor", "prototype", "toString", "hasOwnProperty",
		"valueOf", "__defineGetter__", "length", "1", "01", "-1", "0", "-0",
		"4294967295", "4294967294", "9007199254740993", "1e3", "1.5", "NaN",
	}
	wordChars = "abcdefghijklmnopqrstuvwxyz0123456789_"
	// specialBMP are BMP characters known to trip escapers and sorters.
	specialBMP = []rune{
		0x80, 0xA0, 0xAD, 0xE9, 0x7FF, 0x800, 0x2028, 0x2029, 0x200B, 0xFEFF,
		0xD7FF, 0xE000, 0xF8FF, 0xFF61, 0xFFFD, 0xFFFE, 0xFFFF,
	}
	highBMP       = []rune{0xE000, 0xF8FF, 0xFF61, 0xFFFD, 0xFEFF, 0xFFFF}
	specialAstral = []rune{0x10000, 0x1F600, 0x1D11E, 0x20000, 0xE0001, 0x10FFFF, 0x1F4A9}
	escapeChars   = []rune{'"', '\\', '/', '\b', '\f', '\n', '\r', '\t', 0, 0x1F, 0x7F}
)

// String flavors: which characters a random string draws from.
const (
	flavorWord = iota
	flavorPrintable
	flavorEscape
	flavorBMP
	flavorAstral
	flavorAll
	flavorAstralOnly // astral characters only (never drawn by flavor)
)

func (s *state) flavor() int {
	r := s.intn(100)
	switch {
	case r < 62:
		return flavorWord
	case r < 74:
		return flavorPrintable
	case r < 82:
		return flavorEscape
	case r < 90:
		return flavorBMP
	case r < 96:
		return flavorAstral
	}
	return flavorAll
}

// appendCP appends cp to the scratch buffer and records its string classes.
func (s *state) appendCP(cp rune) {
	s.hit(cpClasses(cp))
	s.buf = appendWTF8(s.buf, cp)
}

// cpClasses returns the string classes a code point exercises.
func cpClasses(cp rune) Classes {
	switch {
	case cp < 0x20 || cp == 0x7F || cp == '"' || cp == '\\':
		return ClassEscape
	case cp >= 0xD800 && cp <= 0xDFFF:
		return ClassLoneSurrogate
	case cp >= 0x10000:
		return ClassAstral
	case cp >= 0x80:
		return ClassBMP
	}
	return 0
}

// appendWTF8 appends cp in UTF-8, or for a surrogate in the 3-byte WTF-8
// form the value model uses for lone surrogates.
func appendWTF8(buf []byte, cp rune) []byte {
	if cp >= 0xD800 && cp <= 0xDFFF {
		return append(buf, 0xED, byte(0x80|(cp>>6)&0x3F), byte(0x80|cp&0x3F))
	}
	return utf8.AppendRune(buf, cp)
}

func (s *state) appendWord(n int) { s.buf = s.appendWords(s.buf, n) }

// appendWords appends n word characters to buf, each drawn as
// small(len(wordChars)) would draw it (pickCP's flavorWord path), but
// without a call and the checks for special characters per character:
// word strings are most of a case's strings.
func (s *state) appendWords(buf []byte, n int) []byte {
	r, k := s.reserve, s.reserveBits
	for range n {
		if k < 16 {
			r, k = s.u64(), 64
		}
		buf = append(buf, wordChars[(r&0xFFFF)*uint64(len(wordChars))>>16])
		r >>= 16
		k -= 16
	}
	s.reserve, s.reserveBits = r, k
	return buf
}

func (s *state) astralCP() rune {
	if s.oneIn(2) {
		return specialAstral[s.intn(len(specialAstral))]
	}
	return rune(s.between(0x10000, 0x10FFFF))
}

// highBMPCP draws from U+E000..U+FFFF, the BMP range that sorts after the
// surrogates in UTF-16 order but before astral characters by code point.
func (s *state) highBMPCP() rune {
	if s.oneIn(2) {
		return highBMP[s.intn(len(highBMP))]
	}
	return rune(s.between(0xE000, 0xFFFF))
}

func (s *state) pickCP(flavor int) rune {
	if flavor == flavorAstralOnly {
		return s.astralCP()
	}
	if flavor == flavorAll {
		flavor = s.small(flavorAll)
	} else if flavor >= flavorEscape && s.small(2) == 0 {
		flavor = flavorWord // keep special characters among ordinary ones
	}
	switch flavor {
	case flavorPrintable:
		return rune(0x20 + s.small(0x7F-0x20))
	case flavorEscape:
		if s.small(2) == 0 {
			return escapeChars[s.small(len(escapeChars))]
		}
		return rune(s.small(0x20))
	case flavorBMP:
		if s.small(2) == 0 {
			return specialBMP[s.small(len(specialBMP))]
		}
		cp := rune(0x80 + s.small(0x10000-0x80-0x800))
		if cp >= 0xD800 {
			cp += 0x800 // skip the surrogates
		}
		return cp
	case flavorAstral:
		return s.astralCP()
	}
	return rune(wordChars[s.small(len(wordChars))])
}

// strLen draws an ordinary string length, skewed short.
func (s *state) strLen() int { return s.intn(s.intn(s.cfg.MaxStringLen+1) + 1) }

func (s *state) strN(n, flavor int) string {
	if n == 0 {
		return ""
	}
	if flavor == flavorWord {
		s.buf = s.appendWords(s.buf[:0], n)
		return string(s.buf)
	}
	// The loop works on locals: writing s.buf per character would cost a
	// GC write barrier each time.
	buf := s.buf[:0]
	var cl Classes
	for range n {
		cp := s.pickCP(flavor)
		if cp >= 0x20 && cp < 0x7F && cp != '"' && cp != '\\' {
			buf = append(buf, byte(cp))
			continue
		}
		cl |= cpClasses(cp)
		buf = appendWTF8(buf, cp)
	}
	s.buf = buf
	s.hit(cl)
	return string(buf)
}

func (s *state) str() string { return s.strN(s.strLen(), s.flavor()) }

func (s *state) toolName() string {
	if s.plain || s.intn(100) < 85 {
		return toolNames[s.intn(len(toolNames))]
	}
	return s.str()
}

func (s *state) key() string {
	r := s.intn(100)
	switch {
	case r < 50:
		return commonKeys[s.intn(len(commonKeys))]
	case r < 60:
		s.buf = s.buf[:0]
		s.appendWord(s.between(1, min(8, s.cfg.MaxStringLen)))
		return string(s.buf)
	case r < 63:
		s.hit(ClassProtoKey)
		return protoKeys[s.intn(len(protoKeys))]
	case r < 66:
		return ""
	}
	return s.str()
}

// loneString builds a string with one lone-surrogate segment (a high or a
// low surrogate, or two of them that do not form a pair) between ordinary
// characters, within MaxStringLen code points. A high surrogate is never
// followed by a low one: that would be a pair, not out of domain.
func (s *state) loneString() string {
	hi := func() rune {
		if s.oneIn(2) {
			return rune(0xD800 + 0x3FF*s.intn(2))
		}
		return rune(s.between(0xD800, 0xDBFF))
	}
	lo := func() rune {
		if s.oneIn(2) {
			return rune(0xDC00 + 0x3FF*s.intn(2))
		}
		return rune(s.between(0xDC00, 0xDFFF))
	}
	var seg [2]rune
	n := 1
	switch s.intn(5) {
	case 0:
		seg[0] = hi()
	case 1:
		seg[0] = lo()
	case 2:
		seg[0], seg[1], n = lo(), hi(), 2
	case 3:
		seg[0], seg[1], n = hi(), hi(), 2
	default:
		seg[0], seg[1], n = lo(), lo(), 2
	}
	room := s.cfg.MaxStringLen - n
	pre := s.intn(min(room, 6) + 1)
	post := s.intn(min(room-pre, 6) + 1)
	flavor := s.flavor()
	if flavor == flavorAll {
		flavor = flavorWord
	}
	s.buf = s.buf[:0]
	for range pre {
		s.appendCP(s.pickCP(flavor))
	}
	for _, cp := range seg[:n] {
		s.appendCP(cp)
	}
	for range post {
		s.appendCP(s.pickCP(flavor))
	}
	return string(s.buf)
}

func (s *state) longString() string {
	n := s.cfg.LongStringLen
	if !s.oneIn(8) {
		n = s.between(1000, min(4000, n))
	}
	s.hit(ClassLongString)
	return s.pooledString(n, s.flavor())
}

// longPool is how many characters a long string is drawn from.
const longPool = 256

// pooledString is a string of n code points copied, in runs of random
// length from random places, out of longPool characters drawn as strN would
// draw them. Drawing each of up to 100,000 characters made long strings a
// third of the generator's time; what they are for (lengths, escapes and
// astral characters at random offsets, e.g. on both sides of BLAKE3's
// 1,024-byte chunks) does not need a fresh draw per character.
func (s *state) pooledString(n, flavor int) string {
	pool, offsets := s.pool[:0], s.offsets[:0]
	for range longPool {
		cp := s.pickCP(flavor)
		s.hit(cpClasses(cp))
		offsets = append(offsets, len(pool))
		pool = appendWTF8(pool, cp)
	}
	offsets = append(offsets, len(pool))
	s.pool, s.offsets = pool, offsets
	var out strings.Builder
	out.Grow(n * (len(pool)/longPool + 1))
	for n > 0 {
		from := s.intn(longPool)
		to := from + min(n, 1+s.intn(longPool-from))
		out.Write(pool[offsets[from]:offsets[to]])
		n -= to - from
	}
	return out.String()
}

// scalar draws a leaf value. Weights are percentages; each numeric edge
// class gets a few percent of leaves, so a few percent of cases or more.
func (s *state) scalar() any {
	if s.rules.es6Numbers && s.oneIn(8) {
		return s.es6Float()
	}
	if r := s.intn(100); r < 60 {
		return s.nonString(r)
	}
	return s.str()
}

// scalarNonString draws a scalar that is not a string (for a bad
// tool_name).
func (s *state) scalarNonString() any { return s.nonString(s.intn(60)) }

// nonString maps r in [0, 60) to a non-string scalar.
func (s *state) nonString(r int) any {
	switch {
	case r < 4:
		return nil
	case r < 9:
		return s.oneIn(2)
	case r < 23:
		return s.smallInt()
	case r < 35:
		return s.plainFloat()
	case r < 38:
		return s.int53()
	case r < 41:
		return s.int64Edge()
	case r < 44:
		return s.bigInt()
	case r < 47:
		return s.specialFloat()
	case r < 53:
		return s.formatFloat()
	case r < 57:
		return s.floatBits()
	}
	return s.inDomainInt(int64(s.u64()) >> s.intn(64))
}

func (s *state) int53() int64 {
	s.hit(ClassInt53)
	return s.inDomainInt(s.neg(int64(1<<53 + s.between(-3, 3)))).(int64)
}

func (s *state) floatBits() float64 {
	s.hit(ClassFloatBits)
	f := s.finite(math.Float64frombits(s.u64()))
	s.floatClasses(f)
	return f
}

func (s *state) neg(x int64) int64 {
	if s.oneIn(2) {
		return -x
	}
	return x
}

func (s *state) smallInt() int64 {
	switch s.intn(4) {
	case 0:
		return int64(s.intn(10))
	case 1:
		return int64(s.between(-1000, 1000))
	case 2:
		return s.neg(int64(1<<31)<<s.intn(2) + int64(s.between(-2, 2))) // around 2^31, 2^32
	}
	return int64(s.between(-1_000_000_000, 1_000_000_000))
}

func (s *state) plainFloat() float64 {
	switch s.intn(3) {
	case 0:
		return float64(s.between(-100_000, 100_000)) / pow10[25+s.between(1, 4)]
	case 1:
		return float64(s.u64()>>11) * 0x1p-53 * pow10[25+s.between(-3, 6)]
	}
	return float64(s.between(-1000, 1000)) + 0.5*float64(s.intn(2))
}

// pow10[25+e] is the double nearest 10^e, for e in -25..25.
var pow10 = func() (t [51]float64) {
	for i := range t {
		t[i], _ = strconv.ParseFloat("1e"+strconv.Itoa(i-25), 64)
	}
	return t
}()

// floatClasses flags NaN, infinities and negative zero however they arose.
func (s *state) floatClasses(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) || (f == 0 && math.Signbit(f)) {
		s.hit(ClassSpecialFloat)
	}
}

func (s *state) specialFloat() float64 {
	s.hit(ClassSpecialFloat)
	switch s.intn(6) {
	case 0:
		return s.finite(math.NaN())
	case 1: // NaN with another payload, either sign
		return s.finite(math.Float64frombits(0x7FF0_0000_0000_0001 | s.u64()&0x800F_FFFF_FFFF_FFFF))
	case 2:
		return s.finite(math.Inf(1))
	case 3:
		return s.finite(math.Inf(-1))
	}
	return math.Copysign(0, -1)
}

var (
	fixedFloats = []float64{1e21, 1e-7, 1e-6, 9.99e-7, 1e20, 123e-20, 0.1, 1.5, 123.456,
		9.999999999999999e20, 999999999999999900000, 0.000001234, 1.2345e-7,
		0.1 + 0.2, 1.0 / 3, 100, 1, 9007199254740993.0, 9007199254740991.0}
	topFloats = []float64{math.MaxFloat64, math.Nextafter(math.MaxFloat64, 0), 1e308, 1.5e300}
	// thresholdExps scale 1..999999 so that the decimal exponent n lands
	// around the layout's limits 21 and -6.
	thresholdExps = []int{-12, -11, -10, -9, -8, 15, 16, 17, 18, 19}
)

// formatFloat draws floats where the ECMAScript layout switches between
// plain digits, a decimal point, leading zeros and exponent form.
func (s *state) formatFloat() float64 {
	s.hit(ClassFloatFormat)
	var f float64
	switch s.intn(9) {
	case 0, 1: // a power of ten, or a neighbour of one
		f = pow10[25+s.between(-25, 25)]
		switch s.intn(3) {
		case 0:
			f = math.Nextafter(f, math.Inf(1))
		case 1:
			f = math.Nextafter(f, 0)
		}
	case 2: // fixed points of the spec's examples
		f = fixedFloats[s.intn(len(fixedFloats))]
	case 3: // integer-valued, of any magnitude up to 2^63
		f = float64(int64(s.u64()>>1) >> s.intn(63))
	case 4: // 2^53 and its neighbours, as floats
		f = float64(int64(1<<53) + int64(s.between(-4, 4)))
	case 5: // a few digits scaled to the layout thresholds n = 21, 22, -5, -6
		e := thresholdExps[s.intn(len(thresholdExps))]
		f = float64(s.between(1, 999999)) * pow10[25+e]
	case 6: // subnormals and the smallest normal
		switch s.intn(3) {
		case 0:
			f = 5e-324
		case 1:
			f = 2.2250738585072014e-308
		default:
			f = math.Float64frombits(s.u64() >> 12)
		}
	case 7: // the top of the range
		f = topFloats[s.intn(len(topFloats))]
	default: // random digits at a random decimal exponent
		f = float64(s.u64()>>11) * 0x1p-53 * pow10[25+s.between(-25, 25)]
	}
	if s.oneIn(4) {
		f = -f
	}
	s.floatClasses(f)
	return f
}

// int64Edge draws integers around +-2^63 and +-2^64: int64 on one side of
// the limit, *big.Int on the other, as the value model requires. Only the
// values outside int64 allocate a big.Int.
func (s *state) int64Edge() any {
	s.hit(ClassInt64)
	d := int64(s.between(-3, 3))
	neg := s.oneIn(2)
	var b *big.Int
	if s.oneIn(2) { // 2^63 + d
		u := uint64(1<<63) + uint64(d)
		switch {
		case !neg && u <= math.MaxInt64:
			return s.inDomainInt(int64(u))
		case neg && u <= 1<<63:
			return s.inDomainInt(-int64(u)) // for u = 2^63 this wraps to exactly -2^63
		}
		b = new(big.Int).SetUint64(u)
	} else { // 2^64 + d
		if d < 0 {
			b = new(big.Int).SetUint64(uint64(d)) // 2^64 + d, in uint64
		} else {
			b = new(big.Int).SetUint64(uint64(d))
			b.SetBit(b, 64, 1)
		}
	}
	if neg {
		b.Neg(b)
	}
	return s.inDomainInt(b)
}

// bigPow10[k] is 10^k, shared read-only (bigInt copies it).
var bigPow10 = func() (t [41]*big.Int) {
	for k := range t {
		t[k] = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
	}
	return t
}()

var bigOne = big.NewInt(1)

// bigInt draws integers far beyond 64 bits.
func (s *state) bigInt() any {
	s.hit(ClassBigInt)
	b := new(big.Int)
	switch s.intn(4) {
	case 0:
		b.Set(bigPow10[s.between(20, 40)])
	case 1:
		words := make([]big.Word, s.between(2, 4)*64/bits.UintSize)
		for i := range words {
			words[i] = big.Word(s.u64())
		}
		b.SetBits(words).Rsh(b, uint(s.intn(60)))
		b.SetBit(b, 65, 1) // keep it above 2^64
	case 2:
		b.SetBit(b, s.between(65, 200), 1)
		switch s.intn(3) {
		case 0:
			b.Add(b, bigOne)
		case 1:
			b.Sub(b, bigOne)
		}
	default:
		b.Set(bigPow10[30])
	}
	if s.oneIn(2) {
		b.Neg(b)
	}
	return s.inDomainInt(b)
}
