package gen

import (
	"strconv"

	"github.com/difffuzz/difffuzz/value"
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
