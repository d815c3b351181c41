package gen

import (
	"math/bits"
	"math/rand/v2"
)

// state is one case's generator: the random source and scratch space.
// It lives in Generator.pool between cases.
type state struct {
	cfg      *Config
	rules    *rules   // the contract's choices (contract.go)
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
