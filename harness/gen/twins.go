package gen

import (
	"fmt"
	"math"
	"strconv"

	"github.com/difffuzz/difffuzz/value"
)

// Twins provoke collisions (docs/triage.md, "Collisions"): two cases that
// differ exactly where a faulty encoder would merge them, so that it gives
// two calls one digest. One pair of indexes (2m, 2m+1) in 2^twinShift is
// a twin pair, chosen by a hash of (seed, m): both cases are one ordinary
// in-domain case, drawn from the pair's first index, with one more
// argument holding twin A in the first case and twin B in the second.
// Each case stays a pure function of (seed, index), and the two are
// adjacent, so a run meets them in one batch or two (a sharded run meets
// them only when one shard takes both: with Shards 1). A generator whose
// every case is out of domain (Config.OutOfDomain 1) makes no twins, and
// one whose none is makes no twins out of domain.
const twinShift = 6

// twinSalt keeps the twin schedule apart from the other uses of the seed.
const twinSalt = 0x7477696e73 // "twins"

// twinAt reports whether case index of seed is a twin, the pair's first
// index, and whether it is the second of the pair.
func twinAt(seed, index uint64) (first uint64, second, ok bool) {
	m := index >> 1
	if mix64(m^mix64(seed^twinSalt)) >= 1<<(64-twinShift) {
		return 0, false, false
	}
	return m << 1, index&1 == 1, true
}

// The kinds of twins, each a bug's way of merging two values.
const (
	twinKeyFake     = iota // {`x":1,"y`: 2} against {"x": 1, "y": 2}: keys written unescaped
	twinValueFake          // {"x": `v","y":"w`} against {"x": "v", "y": "w"}: values written unescaped
	twinBackslash          // a backslash and 'n' against a newline: backslashes written raw
	twinSpelled            // `\u00e9` spelled out against é itself: backslashes written raw
	twinNFC                // é (U+00E9) against e + U+0301: strings normalized
	twinReplacement        // U+FFFD against a lone surrogate: lone surrogates replaced
	twinRounded            // 2^53 + 1 against 2^53: integers through a double
	twinNegZero            // -0.0 against 0.0: one text by the contract, never a collision
	twinKinds
)

// nfcPairs are precomposed characters and their canonical decompositions.
var nfcPairs = [][2]string{
	{"\u00e9", "e\u0301"}, {"\u00e8", "e\u0300"}, {"\u00f1", "n\u0303"}, {"\u00fc", "u\u0308"},
	{"\u00e5", "a\u030a"}, {"\u00e7", "c\u0327"}, {"\u00c5", "A\u030a"}, {"\u00f4", "o\u0302"},
}

// shortEscapes are the characters with a short escape, by its letter.
var shortEscapes = map[byte]rune{'n': '\n', 't': '\t', 'r': '\r', 'b': '\b', 'f': '\f'}

// twinCase is case second (0 or 1) of the twin pair s was reset for.
func (s *state) twinCase(second bool) any {
	s.at(2, 0, 1, false)
	tool := s.toolName()
	o, _ := s.args().(value.Object)
	n := len(o) + 1
	s.at(n, n-1, 2, true)
	k := s.uniqueKey(o)
	s.at(n, n-1, 2, false)
	a, b, ca, cb := s.twins()
	v, c := a, ca
	if second {
		v, c = b, cb
	}
	s.hit(c)
	args := append(o[:len(o):len(o)], value.Member{Key: k, Value: v})
	return envelope(tool, args)
}

// word is a word of 1 to 6 characters.
func (s *state) word() string {
	s.buf = s.buf[:0]
	s.appendWord(s.between(1, 6))
	return string(s.buf)
}

// twins draws a pair of twins of a random kind, and the classes of each.
func (s *state) twins() (a, b any, ca, cb Classes) {
	p, q := s.word(), s.word()
	kind := s.intn(twinKinds)
	if kind == twinReplacement && s.cfg.OutOfDomain == 0 {
		kind = twinNegZero // no case out of domain, as configured
	}
	if kind == twinRounded && s.rules.doubleInts && s.cfg.OutOfDomain == 0 {
		kind = twinNegZero // 2^53 + 1 is out of a contract of doubles' domain
	}
	switch kind {
	case twinKeyFake, twinValueFake:
		x, y := p, q+"_"+p // y sorts after x: x is a prefix or they differ first
		if q < p {
			x, y = q, p+"_"+q
		}
		v, w := any(int64(s.intn(100))), any(s.smallInt())
		vText := strconv.FormatInt(v.(int64), 10)
		if s.oneIn(2) {
			word := s.word()
			v, vText = word, `"`+word+`"`
		}
		if kind == twinKeyFake {
			return value.Object{{Key: x + `":` + vText + `,"` + y, Value: w}}, value.Object{{Key: x, Value: v}, {Key: y, Value: w}}, ClassEscape, 0
		}
		word := s.word()
		return value.Object{{Key: x, Value: fmt.Sprintf(`%s","%s":"%s`, p, y, word)}}, value.Object{{Key: x, Value: p}, {Key: y, Value: word}}, ClassEscape, 0
	case twinBackslash:
		letter := "ntrbf"[s.intn(5)]
		return p + `\` + string(letter) + q, p + string(shortEscapes[letter]) + q, ClassEscape, ClassEscape
	case twinSpelled:
		r := rune(s.between(0xa0, 0xd7ff))
		c := ClassBMP
		if s.oneIn(4) {
			r, c = []rune{0x01, 0x0b, 0x1f, 0x7f}[s.intn(4)], ClassEscape
		}
		return p + fmt.Sprintf(`\u%04x`, r) + q, p + string(r) + q, ClassEscape, c
	case twinNFC:
		pair := nfcPairs[s.intn(len(nfcPairs))]
		if s.oneIn(2) { // in a key
			w := s.smallInt()
			return value.Object{{Key: p + pair[0] + q, Value: w}}, value.Object{{Key: p + pair[1] + q, Value: w}}, ClassBMP, ClassBMP
		}
		return p + pair[0] + q, p + pair[1] + q, ClassBMP, ClassBMP
	case twinReplacement:
		lone := appendWTF8(nil, rune(s.between(0xd800, 0xdfff)))
		return p + "\ufffd" + q, p + string(lone) + q, ClassBMP, ClassLoneSurrogate
	case twinRounded:
		// Past 2^53, with an even mantissa: one more is a tie that rounds
		// to it, or nearer to it than to the next double.
		exact := int64(s.between(1<<51, 1<<52-1)*2) << (1 + s.intn(10))
		one := int64(1)
		if s.oneIn(2) {
			exact, one = -exact, -1
		}
		return exact, exact + one, 0, 0
	}
	return 0.0, math.Copysign(0, -1), 0, ClassSpecialFloat
}
