package gen

import (
	"math/big"
	"slices"
	"sync"

	"github.com/difffuzz/difffuzz/value"
)

// holder builds the probe's container with its occurrence in place.
func (s *state) holder(p *probe) any {
	s.ctx = loc(1, 0, p.level-1, false)
	if p.level == 2 {
		s.ctx = loc(2, 1, 1, false)
	}
	s.container(p.level, p.n)
	if p.n > 2*s.cfg.MaxWidth {
		s.hit(ClassWide)
	}
	if !p.object {
		a := make([]any, p.n)
		for i := range a {
			s.at(p.n, i, p.level, false)
			a[i] = s.holderFill(p.n)
		}
		s.at(p.n, p.pos, p.level, false)
		a[p.pos] = s.occurrenceValue(p)
		return a
	}
	o := make(value.Object, p.n)
	for i := range o {
		s.at(p.n, i, p.level, false)
		o[i] = value.Member{Key: fillerKeys[i], Value: s.holderFill(p.n)}
	}
	s.at(p.n, p.pos, p.level, p.key)
	switch p.occurrence {
	case occPair:
		s.pair(p, o)
	case occKey:
		s.hit(ClassProtoKey)
		o[p.pos].Key = protoKeys[s.intn(len(protoKeys))]
	case occRawKey:
		k, v := s.nonStringKey(), o[p.pos].Value
		return rawWithKeyAt(slices.Delete(o, p.pos, p.pos+1), p.pos, k, v)
	default:
		if p.key {
			o[p.pos].Key = s.occurrenceString(p)
		} else {
			o[p.pos].Value = s.occurrenceValue(p)
		}
	}
	return o
}

// holderFill draws a filler value for a probe's container of n members:
// in big ones, mostly small integers (cheap, and they carry no class), so
// that the size-1000+ cells do not cost a thousand random scalars.
func (s *state) holderFill(n int) any {
	if n > 16 && s.small(8) != 0 {
		return int64(s.small(200))
	}
	return s.fill()
}

// pair makes the keys at p.pos and p.partner equal (duplicate-key) or an
// order trap (key-order).
func (s *state) pair(p *probe, o value.Object) {
	if p.class == ClassDuplicateKey {
		o[p.pos].Key = o[p.partner].Key
		s.pairHit(ClassDuplicateKey, p.n, p.pos, p.partner, p.level)
		return
	}
	var pre [2]byte
	np := s.intn(3)
	for i := range np {
		pre[i] = wordChars[s.intn(len(wordChars))]
	}
	s.ctx = 0
	s.buf = appendWTF8(append(s.buf[:0], pre[:np]...), s.astralCP())
	o[p.pos].Key = string(s.buf)
	s.buf = appendWTF8(append(s.buf[:0], pre[:np]...), s.highBMPCP())
	o[p.partner].Key = string(s.buf)
	pair := pairCtx(p.pos - p.partner)
	for _, i := range [2]int{p.pos, p.partner} {
		s.ctx = loc(p.n, i, p.level, true) | pair
		s.hit(strClasses(o[i].Key) | ClassKeyOrder)
	}
}

// occurrenceValue makes the value that carries the probe's class, with
// s.ctx at its place.
func (s *state) occurrenceValue(p *probe) any {
	switch p.occurrence {
	case occString:
		return s.occurrenceString(p)
	case occContainer:
		if p.class == ClassWide {
			return s.wide(p.level + 1)
		}
		s.container(p.level+1, 0)
		if s.oneIn(2) {
			return []any{}
		}
		return value.Object{}
	case occDeepest:
		s.container(p.level+1, 1)
		if s.oneIn(2) {
			return []any{int64(0)}
		}
		return value.Object{{Key: fillerKeys[0], Value: int64(1)}}
	}
	return s.number(p.class)
}

// number draws a number of class c.
func (s *state) number(c Classes) any {
	switch c {
	case ClassSpecialFloat:
		return s.specialFloat()
	case ClassFloatFormat:
		return s.formatFloat()
	case ClassFloatBits:
		return s.floatBits()
	case ClassInt53:
		return s.int53()
	case ClassInt64:
		return s.int64Edge()
	case ClassUnsupported:
		return s.binValue()
	}
	if s.oneIn(4) {
		return s.hugeInt()
	}
	return s.bigInt()
}

// chunkEdges are the code-point offsets around which buffers and chunks
// commonly switch.
var chunkEdges = [...]int{1024, 4096, 16384, 65536}

// occurrenceString makes a string (value or key) that carries the probe's
// string class, with s.ctx at its place.
func (s *state) occurrenceString(p *probe) string {
	if p.class == ClassLongString {
		flavor := flavorWord
		if !s.plain && s.oneIn(2) {
			flavor = s.flavor()
		}
		return s.longOccurrence(p, flavor)
	}
	var seg [2]rune
	segment := s.segment(p.class, &seg)
	pre, post := s.intn(8), s.intn(8)
	if p.edge {
		s.ctx |= 1 << CtxChunkEdge
		s.hit(ClassLongString)
		e := chunkEdges[s.intn(len(chunkEdges))]
		pre, post = e+s.between(-2, 1), s.between(2, 64)
	}
	head, tail := s.words(pre), s.words(post)
	b := append(s.buf[:0], head...)
	for _, cp := range segment {
		s.hit(cpClasses(cp))
		b = appendWTF8(b, cp)
	}
	s.buf = append(b, tail...)
	return string(s.buf)
}

// words returns n word characters, drawn one by one for a short string
// and from a pool for a long one.
func (s *state) words(n int) string {
	if n < longPool {
		return s.strN(n, flavorWord)
	}
	return s.pooledString(n, flavorWord)
}

// segment returns the characters that carry string class c: an escape, a
// BMP or astral character, or a lone-surrogate segment (a high or a low
// half alone, or two halves in the wrong order or of one kind).
func (s *state) segment(c Classes, seg *[2]rune) []rune {
	switch c {
	case ClassEscape:
		seg[0] = escapeChars[s.intn(len(escapeChars))]
		if seg[0] == '/' {
			seg[0] = rune(s.intn(0x20))
		}
	case ClassBMP:
		seg[0] = s.pickCP(flavorBMP)
		for seg[0] < 0x80 {
			seg[0] = specialBMP[s.intn(len(specialBMP))]
		}
	case ClassAstral:
		seg[0] = s.astralCP()
	default:
		hi := rune(s.between(0xD800, 0xDBFF))
		lo := rune(s.between(0xDC00, 0xDFFF))
		switch s.intn(4) {
		case 0:
			seg[0] = hi
		case 1:
			seg[0] = lo
		case 2:
			seg[0], seg[1] = lo, hi
			return seg[:2]
		default:
			seg[0], seg[1] = hi, hi
			return seg[:2]
		}
	}
	return seg[:1]
}

// longOccurrence makes a long string: at a chunk edge (its length within
// two of one), or of 1,000 to 4,000 code points, or one in 64 times
// LongStringLen; one in 256 is LongStringLen astral characters, over 1 MiB
// of canonical text at the default.
func (s *state) longOccurrence(p *probe, flavor int) string {
	if p.edge {
		s.ctx |= 1 << CtxChunkEdge
		s.hit(ClassLongString)
		e := chunkEdges[s.intn(len(chunkEdges))]
		return s.pooledString(e+s.between(-2, 2), flavor)
	}
	if !s.plain && !p.key && s.oneIn(256) {
		s.hit(ClassLongString)
		return s.pooledString(s.cfg.LongStringLen, flavorAstralOnly)
	}
	n := s.between(1000, 4000)
	if !s.plain && s.oneIn(64) {
		n = s.cfg.LongStringLen
	}
	s.hit(ClassLongString)
	return s.pooledString(n, flavor)
}

// path nests h, a container at level, under containers down from level 3,
// and returns the outermost. One level in four is an object or array with
// a few filler members besides: deep objects with several members, not
// only chains. It is built bottom-up, without recursion.
func (s *state) path(h any, level int) any {
	v := h
	var elems slab[any]
	var members slab[value.Member]
	for l := level - 1; l >= 3; l-- {
		extra := 0
		if s.oneIn(4) {
			extra = s.between(1, 3)
		}
		if s.small(4) != 0 { // arrays mostly: 2 bytes a level
			// Three levels in four, 1.5 elements each.
			a := elems.take(1+extra, (l-3)*9/8+8)
			at := s.intn(len(a))
			for i := range a {
				a[i] = int64(i)
			}
			a[at] = v
			v = a
			continue
		}
		o := value.Object(members.take(1+extra, (l-3)*3/8+8))
		at := s.intn(len(o))
		for i := range o {
			o[i] = value.Member{Key: fillerKeys[i], Value: int64(i)}
		}
		o[at].Value = v
		v = o
	}
	return v
}

// hugeInt draws an integer of 4,299 to 100,000 decimal digits: around
// Python's 4,300-digit int/str limit, and up to the spec's reader cap.
func (s *state) hugeInt() any {
	s.hit(ClassBigInt)
	digits := 4300 + s.between(-1, 1)
	switch r := s.intn(64); {
	case r == 0:
		digits = 100_000 - s.intn(2)
	case r < 8:
		digits = s.between(4302, 20_000)
	}
	b := new(big.Int).Mul(pow10Big(digits-1), big.NewInt(int64(s.between(1, 9))))
	b.Add(b, new(big.Int).SetUint64(s.u64()))
	if s.oneIn(2) {
		b.Neg(b)
	}
	return s.inDomainInt(b)
}

var pow10Cache sync.Map // int -> *big.Int, 10^k, shared read-only

// pow10Big returns 10^k, computed once per k.
func pow10Big(k int) *big.Int {
	if v, ok := pow10Cache.Load(k); ok {
		return v.(*big.Int)
	}
	v := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
	actual, _ := pow10Cache.LoadOrStore(k, v)
	return actual.(*big.Int)
}
