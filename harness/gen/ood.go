package gen

import "github.com/difffuzz/difffuzz/value"

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

// The ways out of a contract's domain that only some contracts have (see
// rules.ood): numbers a contract of doubles cannot write.
const (
	oodNonFinite  oodKind = oodKinds + 1 + iota // NaN or an infinity, where they are unsupported_value
	oodInexactInt                               // an integer past 2^53 that no double holds
)

// drawOOD decides whether the case is out of domain, and how: one of the
// contract's kinds (s.rules.ood), and one time in four a second, other one.
func (s *state) drawOOD() (ood [2]oodKind) {
	kinds := s.rules.ood
	if s.chance(s.cfg.OutOfDomain) {
		i := s.intn(len(kinds))
		ood[0] = kinds[i]
		if s.chance(pSecondOOD) {
			j := s.intn(len(kinds) - 1)
			if j >= i {
				j++
			}
			ood[1] = kinds[j]
		}
	}
	return ood
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
	case oodNonFinite:
		args = s.inject(args, 2, featNonFinite, 0)
	case oodInexactInt:
		args = s.inject(args, 2, featInexactInt, 0)
	}
	return args, envDuplicate
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
