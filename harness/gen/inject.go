package gen

import "github.com/difffuzz/difffuzz/value"

// feature is what inject places into the args tree.
type feature uint8

const (
	featWide feature = iota
	featLong
	featKeyOrder
	featChain      // a nested chain reaching exactly state.target levels
	featLoneValue  // a string value with a lone surrogate
	featLoneKey    // a key with a lone surrogate
	featDuplicate  // a key equal to another key of the same object
	featRawKey     // a key that is not a string
	featBin        // a bin value
	featNonFinite  // NaN or an infinity, out of a contract of doubles' domain
	featInexactInt // an integer past 2^53 that no double holds, likewise
)

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
	case featNonFinite:
		return s.nonFinite()
	case featInexactInt:
		return s.inexactInt()
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
