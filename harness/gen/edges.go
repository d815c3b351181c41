package gen

import (
	"strconv"

	"github.com/difffuzz/difffuzz/value"
)

// chain builds nested containers of exactly depth levels, the outermost at
// level, with an occasional scalar sibling so that the nesting is not a
// bare tower. It is built bottom-up, without recursion.
func (s *state) chain(level, depth int) any {
	if bottom := level + depth - 1; bottom > s.maxLevel {
		s.maxLevel, s.deepCtx = bottom, loc(1, 0, bottom-1, false)
	}
	var v any
	if s.oneIn(2) {
		v = []any{}
	} else {
		v = value.Object{}
	}
	if s.oneIn(2) {
		v = s.array(level+depth-1, s.intn(3))
	}
	var elems slab[any]
	var members slab[value.Member]
	for d := depth - 2; d >= 0; d-- {
		sib := s.oneIn(8)
		if sib {
			s.at(2, 0, level+d, false)
		}
		// About half the levels left are of each kind, two members for a
		// level in eight.
		hint := d*9/16 + 8
		if s.oneIn(2) {
			if sib {
				a := elems.take(2, hint)
				a[0], a[1] = s.scalar(), v
				v = a
			} else {
				a := elems.take(1, hint)
				a[0] = v
				v = a
			}
			continue
		}
		s.at(1, 0, level+d, true)
		k := s.key()
		n := 1
		if sib {
			n = 2
		}
		o := value.Object(members.take(n, hint))[:1]
		o[0] = value.Member{Key: k, Value: v}
		if sib {
			s.at(2, 1, level+d, true)
			k := s.uniqueKey(o)
			s.at(2, 1, level+d, false)
			o = append(o, value.Member{Key: k, Value: s.scalar()})
		}
		v = o
	}
	return v
}

// slab hands out the small backing arrays of a deep case's levels, one or
// a few elements each, from a few larger allocations: a chain or path of
// hundreds of levels otherwise costs a small allocation per level for them
// (besides the one for each level's interface box, which no slab can
// save). Each array taken has its capacity cut to its length, so that an
// append to it (an injected member) moves it rather than overwrite its
// neighbour.
type slab[T any] struct{ free []T }

// take returns n zero elements; when the slab runs out it refills with
// max(n, hint), hint being how many more are likely to be wanted.
func (sl *slab[T]) take(n, hint int) []T {
	if len(sl.free) < n {
		sl.free = make([]T, max(n, hint))
	}
	t := sl.free[:n:n]
	sl.free = sl.free[n:]
	return t
}

// wide builds a container with far more members than MaxWidth, of
// scalars. Object keys start with the zero-padded member number, so they
// are unique without a quadratic check, and members are shuffled so that
// input order is not key order.
func (s *state) wide(level int) any {
	n := s.between(max(s.cfg.MaxWidth+1, s.cfg.WideWidth/4), s.cfg.WideWidth)
	s.container(level, n)
	s.hit(ClassWide)
	if s.oneIn(2) {
		a := make([]any, n)
		for i := range a {
			s.at(n, i, level, false)
			a[i] = s.fill()
		}
		return a
	}
	var num [20]byte
	digits := len(strconv.AppendInt(num[:0], int64(n), 10))
	o := make(value.Object, n)
	for i := range o {
		s.buf = s.buf[:0]
		d := strconv.AppendInt(num[:0], int64(i), 10)
		for range digits - len(d) {
			s.buf = append(s.buf, '0')
		}
		s.buf = append(s.buf, d...)
		if s.oneIn(2) {
			s.buf = append(s.buf, '_')
			s.appendWord(s.between(1, 6))
		}
		k := string(s.buf) // before scalar reuses the buffer
		s.at(n, i, level, false)
		o[i] = value.Member{Key: k, Value: s.fill()}
	}
	// Shuffle the keys only: the values stay where their contexts were
	// recorded, and the keys carry no class.
	for i := n - 1; i > 0; i-- {
		j := s.intn(i + 1)
		o[i].Key, o[j].Key = o[j].Key, o[i].Key
	}
	return o
}

// fill draws a value for a big container: any scalar, or in a case meant
// to carry one class alone (s.plain) a small integer that carries none
// and, below 256, boxes without allocating.
func (s *state) fill() any {
	if s.plain {
		return int64(s.small(200))
	}
	return s.scalar()
}

// keyOrderObject builds an object whose keys share a prefix and then
// differ by an astral character versus one in U+E000..U+FFFF, the
// place where UTF-16 order and code-point order disagree.
func (s *state) keyOrderObject(level int) value.Object {
	n := s.between(2, min(5, s.cfg.MaxWidth))
	s.container(level, n)
	where := s.ctx
	s.ctx = 0          // the keys' classes are recorded once they are in place
	var prefix [3]byte // kept apart: scalar below reuses s.buf
	np := 0
	if s.oneIn(2) {
		np = s.between(1, len(prefix))
		for i := range np {
			prefix[i] = wordChars[s.intn(len(wordChars))]
		}
	}
	o := make(value.Object, 0, n)
	for len(o) < n {
		s.buf = append(s.buf[:0], prefix[:np]...)
		astral := len(o) == 0 || (len(o) > 1 && s.oneIn(2))
		if astral {
			s.appendCP(s.astralCP())
		} else {
			s.appendCP(s.highBMPCP())
		}
		if s.oneIn(3) {
			s.appendWord(s.between(1, 3))
		}
		if k := string(s.buf); !hasKey(o, k) {
			o = append(o, value.Member{Key: k})
		}
	}
	for i := n - 1; i > 0; i-- {
		j := s.intn(i + 1)
		o[i], o[j] = o[j], o[i]
	}
	for i := range o {
		s.ctx = loc(n, i, level, true) | 1<<CtxAdjacent
		s.hit(strClasses(o[i].Key) | ClassKeyOrder)
		s.at(n, i, level, false)
		o[i].Value = s.scalar()
	}
	s.ctx = where
	return o
}

// strClasses returns the string classes of s's characters.
func strClasses(s string) Classes {
	var c Classes
	for i := 0; i < len(s); i++ {
		if b := s[i]; b >= 0x80 || b < 0x20 || b == 0x7F || b == '"' || b == '\\' {
			for _, cp := range s[i:] {
				c |= cpClasses(cp)
			}
			return c
		}
	}
	return c
}
