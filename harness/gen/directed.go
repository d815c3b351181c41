package gen

import (
	"math/bits"
	"strconv"

	"github.com/difffuzz/difffuzz/value"
)

// Directed cases. One case in eight (directedShift) is built to hit one
// chosen (class × context) cell: the class's value, key or container is
// placed in a container of the chosen size, at the chosen position or
// depth, in a key or a value, next to or far from its partner, at a chunk
// edge, alone in the case or with other classes. The rest of the case is
// an ordinary one, except for "alone", whose case carries nothing else.
//
// Which cases are directed, and at which cell, is a pure function of
// (seed, index): a Weyl sequence, index*weyl + mix64(seed) mod 2^64, whose
// values below 2^61 are the directed cases and, scaled up, pick the cell.
// Any arithmetic progression of indexes (a shard takes every Nth) visits
// the cells evenly, and consecutive directed cases go round them with low
// discrepancy, so every cell comes up within a few thousand cases. The
// schedule does not react to what the run has hit so far: that would make
// a case depend on the run's history instead of its (seed, index).
const directedShift = 3

// weyl is 2^64 divided by the golden ratio, odd: the Weyl sequence's step.
const weyl = 0x9E3779B97F4A7C15

// directedAt reports whether case index of seed is a directed one.
func directedAt(seed, index uint64) bool {
	return index*weyl+mix64(seed) < 1<<(64-directedShift)
}

func mix64(x uint64) uint64 { // splitmix64's finalizer
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	return x ^ x>>31
}

// Cells the schedule targets: in-domain cases take an in-domain cell,
// out-of-domain ones (the share stays Config.OutOfDomain) one of the
// out-of-domain classes.
var inDomainCells, outOfDomainCells = func() (in, out []Cell) {
	for _, c := range AllCells() {
		if c.Class.OutOfDomain() {
			out = append(out, c)
		} else {
			in = append(in, c)
		}
	}
	return in, out
}()

// directedCell returns the cell this case targets, if it is directed, and
// sets s.plain for an "alone" cell.
func (s *state) directedCell(ood bool) (Cell, bool) {
	if s.slot >= 1<<(64-directedShift) {
		return Cell{}, false
	}
	cells := inDomainCells
	if ood {
		cells = outOfDomainCells
	}
	hi, _ := bits.Mul64(s.slot<<directedShift, uint64(len(cells)))
	c := cells[hi]
	s.plain = c.Context == CtxAlone
	return c, true
}

func oodOf(c Classes) oodKind {
	switch c {
	case ClassLoneSurrogate:
		return oodLoneSurrogate
	case ClassDuplicateKey:
		return oodDuplicateKey
	case ClassTooDeep:
		return oodTooDeep
	case ClassNonStringKey:
		return oodNonStringKey
	case ClassUnsupported:
		return oodUnsupported
	}
	return oodBadEnvelope
}

// fillerKeys are the keys of a probe's filler members: zero-padded
// numbers, unique, carrying no class, and never equal to a vocabulary key.
var fillerKeys = func() (k [maxProbe]string) {
	for i := range k {
		k[i] = "0000"[len(strconv.Itoa(i)):] + strconv.Itoa(i)
	}
	return k
}()

// maxProbe bounds a probe's container (the size-1000+ band draws up to it).
const maxProbe = 1100

// probe is where a directed case puts its occurrence: position pos (and
// for a pair, partner) of a container of n members at level.
type probe struct {
	class      Classes
	n          int
	pos        int
	partner    int
	level      int
	key, edge  bool
	object     bool
	depth      int // depth classes: the case depth to reach
	occurrence occKind
}

type occKind uint8

const (
	occNumber    occKind = iota
	occString            // a string value or key
	occKey               // proto-key
	occPair              // duplicate-key, key-order: two keys
	occContainer         // empty, wide
	occDeepest           // deep, near-limit, too-deep: the deepest container
	occNone              // args-first, bad-envelope: the envelope carries it
	occRawKey            // non-string-key: a key that is not a string
)

func occOf(c Classes) occKind {
	switch c {
	case ClassEscape, ClassBMP, ClassAstral, ClassLongString, ClassLoneSurrogate:
		return occString
	case ClassProtoKey:
		return occKey
	case ClassNonStringKey:
		return occRawKey
	case ClassDuplicateKey, ClassKeyOrder:
		return occPair
	case ClassEmpty, ClassWide:
		return occContainer
	case ClassDeep, ClassNearLimit, ClassTooDeep:
		return occDeepest
	case ClassArgsFirst, ClassBadEnvelope:
		return occNone
	}
	return occNumber
}

// directed adds the probe p for cell to args and returns the new args.
// A probe at level 2 is args itself: args is nil then, so that no class is
// recorded for members that would be dropped.
func (s *state) directed(cell Cell, p *probe, args any) any {
	o, _ := args.(value.Object)
	switch {
	case p.occurrence == occNone:
	case p.level == 2:
		h := s.holder(p)
		if raw, ok := h.(value.RawObject); ok { // args itself has the non-string key
			if cell.Context == CtxCombined {
				s.at(len(raw)+1, len(raw), 2, false)
				raw = append(raw, value.RawMember{Key: "p" + fillerKeys[len(raw)%maxProbe], Value: s.combinedValue(cell)})
			}
			return raw
		}
		o = h.(value.Object)
	default:
		path := s.path(s.holder(p), p.level)
		o = insertAt(o, s.intn(len(o)+1), value.Member{Key: s.argKey(o), Value: path})
	}
	if cell.Context == CtxCombined {
		s.at(len(o)+1, len(o), 2, false)
		o = insertAt(o, len(o), value.Member{Key: s.argKey(o), Value: s.combinedValue(cell)})
	}
	return o
}

// combinedValue is the other class a "combined" cell's case carries: a
// special float, or for that class itself a big integer.
func (s *state) combinedValue(cell Cell) any {
	if cell.Class == ClassSpecialFloat {
		return s.bigInt()
	}
	return s.specialFloat()
}

// argKey returns a key for a new member of args.
func (s *state) argKey(o value.Object) string {
	if k := "p" + fillerKeys[len(o)%maxProbe]; !hasKey(o, k) {
		return k
	}
	return s.uniqueKey(o)
}

// plan draws the probe's place: the cell's context fixes one axis, the
// others are drawn small and near the top.
func (s *state) plan(cell Cell) probe {
	p := probe{class: cell.Class, occurrence: occOf(cell.Class), n: s.between(1, 7), level: 2}
	if s.oneIn(2) {
		p.level = s.between(3, max(3, min(6, s.cfg.MaxDepth-1)))
	}
	switch p.occurrence {
	case occString:
		p.key = s.oneIn(2)
	case occKey, occPair, occRawKey:
		p.key = true
	}
	switch cell.Context {
	case CtxSize1, CtxSizeFew, CtxSizeMid, CtxSizeHundred, CtxSizeThousand:
		p.n = s.sizeIn(cell.Context)
		if p.level == 2 && s.oneIn(2) {
			p.level = 3
		}
	case CtxFirst, CtxLast:
		p.n = max(p.n, s.between(2, 12))
	case CtxMiddle:
		p.n = max(p.n, s.between(3, 12))
	case CtxTop:
		p.level = 2
	case CtxNested:
		p.level = s.between(3, 8)
		if s.oneIn(4) {
			p.level = s.between(9, 31)
		}
	case CtxDeep:
		p.level = s.between(32, 200)
		if s.oneIn(4) {
			p.level = s.between(201, 510)
		}
	case CtxLimit:
		p.level = s.between(511, value.MaxDepth)
	case CtxKey:
		p.key = true
	case CtxValue:
		p.key = false
	case CtxAdjacent:
		p.n = max(p.n, 2)
	case CtxFar:
		p.n = max(p.n, s.between(9, 24))
	case CtxChunkEdge:
		p.edge = true
	}
	if p.occurrence == occPair || p.occurrence == occKey || p.occurrence == occRawKey {
		p.key = true
	}
	if p.occurrence == occPair {
		p.n = max(p.n, 2)
	}
	p.object = p.key || p.level == 2 || s.oneIn(2)
	s.place(&p, cell.Context)
	if p.occurrence == occContainer || p.occurrence == occDeepest {
		p.key = false
		s.depthOf(&p, cell.Context)
	}
	return p
}

// sizeIn draws a container size in the band c.
func (s *state) sizeIn(c Context) int {
	switch c {
	case CtxSize1:
		return 1
	case CtxSizeFew:
		return s.between(2, 7)
	case CtxSizeMid:
		return s.between(8, 16)
	case CtxSizeHundred:
		return s.between(90, 128)
	}
	return s.between(1000, maxProbe)
}

// place draws the occurrence's position and, for a pair, its partner's.
func (s *state) place(p *probe, c Context) {
	switch c {
	case CtxFirst:
		p.pos = 0
	case CtxLast:
		p.pos = p.n - 1
	case CtxMiddle:
		p.pos = s.between(1, p.n-2)
	default:
		p.pos = s.intn(p.n)
	}
	if p.occurrence != occPair {
		return
	}
	switch {
	case c == CtxFar:
		p.pos = s.intn(p.n - 8)
		p.partner = s.between(p.pos+8, p.n-1)
		if s.oneIn(2) {
			p.pos, p.partner = p.partner, p.pos
		}
	case c == CtxAdjacent || s.oneIn(2):
		p.partner = p.pos + 1
		if p.partner == p.n || (p.pos > 0 && s.oneIn(2)) {
			p.partner = p.pos - 1
		}
	default:
		for p.partner = s.intn(p.n); p.partner == p.pos; p.partner = s.intn(p.n) {
		}
	}
}

// depthOf sets the level of a probe whose occurrence is a container: one
// level above the occurrence, which for the depth classes is the case's
// depth.
func (s *state) depthOf(p *probe, c Context) {
	if p.occurrence == occContainer {
		if p.level > 2 && p.level >= value.MaxDepth {
			p.level = value.MaxDepth - 1 // the container itself at 512
		}
		return
	}
	switch p.class {
	case ClassDeep:
		p.depth = s.between(32, 499)
	case ClassNearLimit:
		p.depth = s.between(500, value.MaxDepth)
		if c == CtxLimit {
			p.depth = s.between(511, value.MaxDepth)
		} else if c == CtxDeep {
			p.depth = s.between(500, 510)
		}
	default:
		p.depth = s.between(value.MaxDepth+1, 600)
		if c == CtxLimit {
			p.depth = value.MaxDepth + 1
		} else if c == CtxDeep {
			p.depth = s.between(value.MaxDepth+2, 600)
		}
	}
	p.level = p.depth - 1
}
