package gen

import (
	"math/bits"
	"math/rand/v2"
	"strconv"

	"difffuzz/value"
)

// Per-case probabilities of the container-level edge classes. The scalar
// classes come from the leaf weights in scalar.go instead.
const (
	pArgsFirst = 1.0 / 8
	pWide      = 0.01
	pLong      = 0.01
	pKeyOrder  = 0.02
	pDeep      = 0.01
	pNearLimit = 0.005
	pSecondOOD = 0.25
)

// state is one case's generator: the random source and scratch space.
// It lives in Generator.pool between cases.
type state struct {
	cfg      *Config
	pcg      rand.PCG // used directly: a rand.Rand around it would allocate
	buf      []byte   // scratch for building strings
	pool     []byte   // a long string's characters (see longString)
	offsets  []int    // where each of pool's characters starts, and its end
	classes  Classes
	maxLevel int // deepest container level created so far (top level = 1)

	// ctx is where the next value or key goes (size, position, depth and
	// role contexts); hit records classes in it. deepCtx is ctx of the
	// deepest container, for the depth classes.
	ctx     Contexts
	deepCtx Contexts
	cells   Cells
	plain   bool   // a directed "alone" case: fillers carry no class
	slot    uint64 // this case's place in the directed schedule, see directedCell

	// reserve holds unused random bits for small, which draws per
	// character of a string: one PCG step serves four characters.
	reserve     uint64
	reserveBits uint
}

// reset prepares s for case index of seed.
func (s *state) reset(seed, index uint64) {
	s.pcg.Seed(seed, index)
	s.slot = index*weyl + mix64(seed)
	s.classes, s.maxLevel = 0, 0
	s.reserve, s.reserveBits = 0, 0
	s.ctx, s.deepCtx, s.cells, s.plain = 0, 0, Cells{}, false
}

// hit records classes c at the current location s.ctx.
func (s *state) hit(c Classes) {
	s.classes |= c
	for rest := c; rest != 0; rest &= rest - 1 {
		s.cells[bits.TrailingZeros64(uint64(rest))] |= s.ctx
	}
}

// at sets the current location: position i of a container of n members
// at level, in a key or a value.
func (s *state) at(n, i, level int, key bool) { s.ctx = loc(n, i, level, key) }

// loc returns the contexts of position i in a container of n members at
// level, in a key or a value.
func loc(n, i, level int, key bool) Contexts {
	c := sizeCtx(n) | posCtx(n, i) | depthCtx(level)
	if key {
		return c | 1<<CtxKey
	}
	return c | 1<<CtxValue
}

func sizeCtx(n int) Contexts {
	switch {
	case n <= 1:
		return 1 << CtxSize1
	case n <= 7:
		return 1 << CtxSizeFew
	case n <= 16:
		return 1 << CtxSizeMid
	case n < 1000:
		return 1 << CtxSizeHundred
	}
	return 1 << CtxSizeThousand
}

func posCtx(n, i int) Contexts {
	var c Contexts
	if i == 0 {
		c = 1 << CtxFirst
	}
	if i == n-1 {
		c |= 1 << CtxLast
	}
	if c == 0 {
		c = 1 << CtxMiddle
	}
	return c
}

func depthCtx(level int) Contexts {
	switch {
	case level <= 2:
		return 1 << CtxTop
	case level < 32:
		return 1 << CtxNested
	case level <= 510:
		return 1 << CtxDeep
	}
	return 1 << CtxLimit
}

// small returns a number in [0, n) for 0 < n <= 1<<16 from 16 random bits.
func (s *state) small(n int) int {
	if s.reserveBits < 16 {
		s.reserve, s.reserveBits = s.u64(), 64
	}
	x := s.reserve & 0xFFFF
	s.reserve >>= 16
	s.reserveBits -= 16
	return int(x * uint64(n) >> 16)
}

func (s *state) u64() uint64 { return s.pcg.Uint64() }

// intn returns a number in [0, n) for n > 0 (Lemire's multiply; the tiny
// bias is irrelevant for fuzzing).
func (s *state) intn(n int) int {
	hi, _ := bits.Mul64(s.u64(), uint64(n))
	return int(hi)
}

// between returns a number in [lo, hi].
func (s *state) between(lo, hi int) int { return lo + s.intn(hi-lo+1) }

func (s *state) chance(p float64) bool { return float64(s.u64()>>11)*0x1p-53 < p }

func (s *state) oneIn(n int) bool { return s.intn(n) == 0 }

// container records that a container exists at level, for the depth bands.
// It must be called with s.ctx at the container's own location.
func (s *state) container(level, n int) {
	if level > s.maxLevel {
		s.maxLevel, s.deepCtx = level, s.ctx
	}
	if n == 0 {
		s.hit(ClassEmpty)
	}
}

// oodKind is one way of leaving the spec's domain.
type oodKind uint8

const (
	oodNone oodKind = iota
	oodLoneSurrogate
	oodDuplicateKey
	oodTooDeep
	oodNonStringKey
	oodUnsupported
	oodBadEnvelope
	oodKinds = iota - 1
)

// feature is what inject places into the args tree.
type feature uint8

const (
	featWide feature = iota
	featLong
	featKeyOrder
	featChain     // a nested chain reaching exactly state.target levels
	featLoneValue // a string value with a lone surrogate
	featLoneKey   // a key with a lone surrogate
	featDuplicate // a key equal to another key of the same object
	featRawKey    // a key that is not a string
	featBin       // a bin value
)

// Bad-envelope variants (see badEnvelope); some of them drop the tool
// name or the args, which are then not generated at all so that the
// reported classes describe the value that is returned.
const (
	badToolScalar = iota
	badToolContainer
	badArgsArray
	badArgsScalar
	badNoTool
	badNoArgs
	badExtraMember
	badTopArray
	badTopScalar
	badEmpty
	badMisspelled
	badVariants
)

func keepsTool(bad int) bool { return bad != badNoTool && bad != badTopScalar && bad != badEmpty }

func keepsArgs(bad int) bool {
	return bad != badArgsScalar && bad != badNoArgs && bad != badTopScalar && bad != badEmpty
}

// topLevel makes the whole case: the args tree, its injected edge
// features, a directed probe (see directed.go), then the envelope
// (possibly broken).
func (s *state) topLevel() any {
	ood := s.drawOOD()
	cell, directed := s.directedCell(ood[0] != oodNone)
	if directed && cell.Class.OutOfDomain() {
		ood[0] = oodOf(cell.Class)
		if ood[1] == ood[0] || s.plain {
			ood[1] = oodNone
		}
	}
	bad := -1
	if ood[0] == oodBadEnvelope || ood[1] == oodBadEnvelope {
		bad = s.intn(badVariants)
		if s.plain {
			bad = plainBad[s.intn(len(plainBad))]
		} else if directed && cell.Context == CtxCombined && !keepsArgs(bad) {
			bad = badExtraMember // keep the args that carry the other class
		}
		if ood[1] != oodNone && !keepsArgs(bad) {
			bad = badExtraMember // keep the args that carry the other problem
		}
	}
	var tool string
	if bad < 0 || keepsTool(bad) {
		s.at(2, 0, 1, false)
		tool = s.toolName()
	}
	if bad >= 0 && !keepsArgs(bad) {
		s.hit(ClassBadEnvelope)
		return s.badEnvelope(bad, tool, nil)
	}
	var p probe
	if directed {
		p = s.plan(cell)
	}
	var args any
	switch {
	case directed && p.level == 2 && p.occurrence != occNone:
		args = s.directed(cell, &p, nil)
	case directed:
		args = s.directed(cell, &p, s.args())
	default:
		args = s.args()
	}
	envDuplicate := false
	for _, k := range ood {
		if directed && k == ood[0] && k != oodBadEnvelope {
			continue // the probe placed it
		}
		args, envDuplicate = s.outOfDomain(k, bad, args, &tool, envDuplicate)
	}
	switch {
	case bad >= 0:
		s.hit(ClassBadEnvelope)
		return s.badEnvelope(bad, tool, args)
	case envDuplicate:
		return s.envelopeDuplicate(tool, args)
	case directed && cell.Class == ClassArgsFirst, !s.plain && s.chance(pArgsFirst):
		s.hit(ClassArgsFirst)
		return value.Object{{Key: "args", Value: args}, {Key: "tool_name", Value: tool}}
	}
	return envelope(tool, args)
}

// plainBad are the bad-envelope variants that add no other class.
var plainBad = []int{badNoArgs, badTopArray, badArgsArray}

// drawOOD decides whether the case is out of domain, and how.
func (s *state) drawOOD() (ood [2]oodKind) {
	if s.chance(s.cfg.OutOfDomain) {
		ood[0] = oodKind(s.between(1, oodKinds))
		if s.chance(pSecondOOD) {
			ood[1] = oodKind(s.between(1, oodKinds-1))
			if ood[1] >= ood[0] {
				ood[1]++
			}
		}
	}
	return ood
}

// args makes the ordinary args object with its random edge features; in a
// case meant to carry one class alone, a single member that carries none.
func (s *state) args() any {
	s.at(2, 1, 1, false)
	if s.plain {
		return value.Object{{Key: fillerKeys[0], Value: int64(0)}}
	}
	args := any(s.object(2, s.argsWidth()))
	if s.chance(pWide) {
		args = s.inject(args, 2, featWide, 0)
	}
	if s.chance(pLong) {
		args = s.inject(args, 2, featLong, 0)
	}
	if s.chance(pKeyOrder) {
		args = s.inject(args, 2, featKeyOrder, 0)
	}
	switch {
	case s.chance(pNearLimit):
		args = s.inject(args, 2, featChain, s.between(500, value.MaxDepth))
	case s.chance(pDeep):
		args = s.inject(args, 2, featChain, s.between(32, 160))
	}
	return args
}

// outOfDomain places problem k in the case (a bad envelope is made
// later, by badEnvelope).
func (s *state) outOfDomain(k oodKind, bad int, args any, tool *string, envDuplicate bool) (any, bool) {
	switch k {
	case oodLoneSurrogate:
		switch r := s.intn(8); {
		case r == 0 && (bad < 0 || keepsTool(bad)):
			s.at(2, 0, 1, false)
			*tool = s.loneString()
		case r < 4:
			args = s.inject(args, 2, featLoneKey, 0)
		default:
			args = s.inject(args, 2, featLoneValue, 0)
		}
	case oodDuplicateKey:
		if bad < 0 && s.oneIn(8) {
			envDuplicate = true
		} else {
			args = s.inject(args, 2, featDuplicate, 0)
		}
	case oodTooDeep:
		args = s.inject(args, 2, featChain, s.between(value.MaxDepth+1, 600))
	case oodNonStringKey:
		args = s.inject(args, 2, featRawKey, 0)
	case oodUnsupported:
		args = s.inject(args, 2, featBin, 0)
	}
	return args, envDuplicate
}

// width draws an ordinary container size: mostly 1..3, sometimes empty.
func (s *state) width() int {
	r := s.intn(100)
	w := 0
	switch {
	case r < 8:
		w = 0
	case r < 30:
		w = 1
	case r < 52:
		w = 2
	case r < 68:
		w = 3
	default:
		w = s.between(4, max(4, s.cfg.MaxWidth))
	}
	return min(w, s.cfg.MaxWidth)
}

// argsWidth draws the number of arguments: realistic calls have a few.
func (s *state) argsWidth() int {
	r := s.intn(100)
	switch {
	case r < 5:
		return 0
	case r < 40:
		return s.between(1, min(3, s.cfg.MaxWidth))
	}
	return s.between(2, s.cfg.MaxWidth)
}

// value draws the value of a member or element whose container (if it is
// one) sits at level; containers get rarer with depth.
func (s *state) value(level int) any {
	if level <= s.cfg.MaxDepth {
		p := 0.45
		for range level - 3 {
			p *= 0.75
		}
		if s.chance(p) {
			if s.oneIn(2) {
				return s.array(level, s.width())
			}
			return s.object(level, s.width())
		}
	}
	return s.scalar()
}

func (s *state) array(level, n int) []any {
	s.container(level, n)
	a := make([]any, n)
	for i := range a {
		s.at(n, i, level, false)
		a[i] = s.value(level + 1)
	}
	return a
}

func (s *state) object(level, n int) value.Object {
	s.container(level, n)
	o := make(value.Object, n)
	for i := range o {
		s.at(n, i, level, true)
		k := s.uniqueKey(o[:i])
		s.at(n, i, level, false)
		o[i] = value.Member{Key: k, Value: s.value(level + 1)}
	}
	return o
}

// uniqueKey draws a key that no member of o has, keeping in-domain cases
// free of duplicate keys.
func (s *state) uniqueKey(o value.Object) string {
	k := s.key()
	for try := 0; hasKey(o, k); try++ {
		if try < 4 {
			k = s.key()
			continue
		}
		s.buf = append(append(s.buf[:0], 'k'), strconv.Itoa(len(o)+try)...)
		k = string(s.buf)
	}
	return k
}

func hasKey(o value.Object, k string) bool {
	for i := range o {
		if o[i].Key == k {
			return true
		}
	}
	return false
}

// inject places feature f somewhere in the tree c, a container at level:
// in c itself or, half the time, in one of its container children that
// leaves room for f within MaxDepth. It returns c's new value (an insertion
// may reallocate the container). target is the case depth a chain reaches.
func (s *state) inject(c any, level int, f feature, target int) any {
	need := featureDepth(f)
	if level+1+need <= s.cfg.MaxDepth && s.oneIn(2) {
		switch c := c.(type) {
		case []any:
			if i, ok := s.pickContainer(len(c), func(i int) any { return c[i] }); ok {
				c[i] = s.inject(c[i], level+1, f, target)
				return c
			}
		case value.Object:
			if i, ok := s.pickContainer(len(c), func(i int) any { return c[i].Value }); ok {
				c[i].Value = s.inject(c[i].Value, level+1, f, target)
				return c
			}
		}
	}
	return s.insert(c, level, f, target)
}

// featureDepth is the depth of what f inserts below its container (a
// chain's depth adapts to where it lands).
func featureDepth(f feature) int {
	switch f {
	case featWide, featKeyOrder, featLoneKey, featDuplicate, featRawKey:
		return 1
	}
	return 0
}

// pickContainer returns a random index among n children whose value is a
// container, scanning from a random start.
func (s *state) pickContainer(n int, child func(int) any) (int, bool) {
	if n == 0 {
		return 0, false
	}
	start := s.intn(n)
	for j := range n {
		i := (start + j) % n
		switch child(i).(type) {
		case []any, value.Object:
			return i, true
		}
	}
	return 0, false
}

// insert adds f's value to container c (at level) as a new member or
// element. It never replaces a child, which could remove an edge feature
// injected before; so a container may end up wider than MaxWidth by the
// number of features injected into it.
func (s *state) insert(c any, level int, f feature, target int) any {
	switch c := c.(type) {
	case value.Object:
		n, i := len(c)+1, s.intn(len(c)+1)
		var k string
		switch {
		case f == featLoneKey:
			s.at(n, i, level, true)
			k = s.loneString()
			s.at(n, i, level, false)
			return insertAt(c, i, value.Member{Key: k, Value: s.scalar()})
		case f == featRawKey:
			s.at(n, i, level, true)
			k := s.nonStringKey()
			s.at(n, i, level, false)
			return rawWithKeyAt(c, i, k, s.scalar())
		case f == featDuplicate && len(c) > 0:
			j := s.intn(len(c))
			k = c[j].Key
			if j >= i {
				j++
			}
			s.pairHit(ClassDuplicateKey, n, i, j, level)
			s.at(n, i, level, false)
			return insertAt(c, i, value.Member{Key: k, Value: s.scalar()})
		}
		s.at(n, i, level, true)
		k = s.uniqueKey(c)
		s.at(n, i, level, false)
		return insertAt(c, i, value.Member{Key: k, Value: s.featureValue(level+1, f, target)})
	case []any:
		i := s.intn(len(c) + 1)
		s.at(len(c)+1, i, level, false)
		return insertAt(c, i, s.featureValue(level+1, f, target))
	}
	return c
}

// insertAt returns s with x inserted at index i.
func insertAt[S ~[]T, T any](s S, i int, x T) S {
	var zero T
	s = append(s, zero)
	copy(s[i+1:], s[i:])
	s[i] = x
	return s
}

func (s *state) insertMember(o value.Object, m value.Member) value.Object {
	return insertAt(o, s.intn(len(o)+1), m)
}

// pairHit records class c for the two keys at positions i and j of an
// object of n members at level, with their pair distance.
func (s *state) pairHit(c Classes, n, i, j, level int) {
	pair := pairCtx(i - j)
	s.ctx = loc(n, i, level, true) | pair
	s.hit(c)
	s.ctx = loc(n, j, level, true) | pair
	s.hit(c)
}

// pairCtx is the pair-distance context of two members d apart.
func pairCtx(d int) Contexts {
	switch {
	case d == 1 || d == -1:
		return 1 << CtxAdjacent
	case d >= 8 || d <= -8:
		return 1 << CtxFar
	}
	return 0
}

// featureValue builds the value that f places at level (for features that
// insert a member with a special key, a one-member object holding it).
func (s *state) featureValue(level int, f feature, target int) any {
	switch f {
	case featWide:
		return s.wide(level)
	case featLong:
		return s.longString()
	case featKeyOrder:
		return s.keyOrderObject(level)
	case featChain:
		return s.chain(level, max(1, target-level+1))
	case featLoneValue:
		return s.loneString()
	case featLoneKey:
		s.container(level, 1)
		s.at(1, 0, level, true)
		k := s.loneString()
		s.at(1, 0, level, false)
		return value.Object{{Key: k, Value: s.scalar()}}
	case featRawKey:
		s.container(level, 1)
		s.at(1, 0, level, true)
		k := s.nonStringKey()
		s.at(1, 0, level, false)
		return value.RawObject{{Key: k, Value: s.scalar()}}
	case featBin:
		return s.binValue()
	case featDuplicate:
		s.container(level, 2)
		s.at(2, 0, level, true)
		k := s.key()
		s.pairHit(ClassDuplicateKey, 2, 0, 1, level)
		s.at(2, 0, level, false)
		v0 := s.scalar()
		s.at(2, 1, level, false)
		return value.Object{{Key: k, Value: v0}, {Key: k, Value: s.scalar()}}
	}
	return nil
}

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

// envelopeDuplicate repeats tool_name or args in the envelope: the walk
// reports duplicate_key before the envelope check could object.
func (s *state) envelopeDuplicate(tool string, args any) any {
	o := value.Object{{Key: "tool_name", Value: tool}, {Key: "args", Value: args}}
	s.at(3, 2, 1, false)
	if s.oneIn(2) {
		o = append(o, value.Member{Key: "tool_name", Value: s.toolName()})
	} else {
		s.container(2, 0)
		o = append(o, value.Member{Key: "args", Value: value.Object{}})
	}
	i := s.intn(3)
	o[i], o[2] = o[2], o[i]
	j := 0 // the partner of the repeated member, now at i
	for j == i || o[j].Key != o[i].Key {
		j++
	}
	s.pairHit(ClassDuplicateKey, 3, i, j, 1)
	return o
}

var (
	extraKeys   = []string{"x", "tool", "Tool_name", "tool_name ", "argss", "", "name", "arguments"}
	misspelled  = []string{"toolName", "Tool_name", "tool-name", "tool_name\x00", " tool_name", "tool_nam", "TOOL_NAME"}
	misspelledA = []string{"Args", "arg", "args ", "arguments", "params", "ARGS", "args\x00"}
)

// badEnvelope breaks the envelope around tool and args in variant bad,
// one of the ways spec §3 rejects with bad_envelope.
func (s *state) badEnvelope(bad int, tool string, args any) any {
	switch bad {
	case badToolScalar:
		return envelope(s.scalarNonString(), args)
	case badToolContainer:
		return envelope(s.array(2, s.intn(3)), args)
	case badArgsArray:
		var a []any
		switch o := args.(type) {
		case value.Object:
			for _, m := range o {
				a = append(a, m.Value)
			}
		case value.RawObject: // the non-string key goes: keep it as an element
			for _, m := range o {
				a = append(a, value.RawObject{m})
			}
		}
		s.container(2, len(a))
		return envelope(tool, a)
	case badArgsScalar:
		return envelope(tool, s.scalar())
	case badNoTool:
		return value.Object{{Key: "args", Value: args}}
	case badNoArgs:
		return value.Object{{Key: "tool_name", Value: tool}}
	case badExtraMember:
		k := extraKeys[s.intn(len(extraKeys))]
		return s.insertMember(envelope(tool, args), value.Member{Key: k, Value: s.scalar()})
	case badTopArray:
		return []any{tool, args}
	case badTopScalar:
		return s.scalar()
	case badEmpty:
		s.container(1, 0)
		return value.Object{}
	}
	o := envelope(tool, args)
	if s.oneIn(2) {
		o[0].Key = misspelled[s.intn(len(misspelled))]
	} else {
		o[1].Key = misspelledA[s.intn(len(misspelledA))]
	}
	return o
}

func envelope(tool, args any) value.Object {
	return value.Object{{Key: "tool_name", Value: tool}, {Key: "args", Value: args}}
}

// nonStringKey draws a map key that is not a string, as msgpack can send:
// mostly a small integer (what a map[int] or a JavaScript array index
// would be), sometimes a negative one, a float, a bool or null. It records
// ClassNonStringKey at the current location.
func (s *state) nonStringKey() any {
	s.hit(ClassNonStringKey)
	switch r := s.intn(16); {
	case r < 10:
		return int64(s.small(100))
	case r < 12:
		return -int64(s.between(1, 1000))
	case r < 14:
		return float64(s.small(10)) + 0.5
	case r == 14:
		return s.oneIn(2)
	}
	return nil
}

// binValue draws bin data, a value outside the model, and records
// ClassUnsupported at the current location.
func (s *state) binValue() []byte {
	s.hit(ClassUnsupported)
	b := make([]byte, s.small(8))
	for i := range b {
		b[i] = byte(s.u64())
	}
	return b
}

// rawWithKeyAt is o with a member of key k (not a string) inserted at i:
// a RawObject, the model's map with non-string keys.
func rawWithKeyAt(o value.Object, i int, k, v any) value.RawObject {
	r := make(value.RawObject, 0, len(o)+1)
	for _, m := range o[:i] {
		r = append(r, value.RawMember{Key: m.Key, Value: m.Value})
	}
	r = append(r, value.RawMember{Key: k, Value: v})
	for _, m := range o[i:] {
		r = append(r, value.RawMember{Key: m.Key, Value: m.Value})
	}
	return r
}
