package gen

import (
	"math"
	"math/big"
	"strconv"

	"github.com/difffuzz/difffuzz/contract"
)

// Cases follow the contract they are drawn for (Config.Contract). Each
// choice that changes what a case may be, or what is hard to get right
// under it, steers the generator on its own, whatever the contract's name:
//
//   - top_level = "any" (RFC 8785): no {"tool_name","args"} envelope. A
//     case is any JSON value: an object (the args tree of an envelope
//     case, with its edge features and directed probes, lifted to the
//     top), one wrapped in an array, or a bare scalar or string. The
//     envelope's own classes (args-first, bad-envelope) are never drawn.
//   - big_ints = "error": an integer past 2^53 that no double holds is out
//     of the domain. Ordinary cases draw the integer edge classes
//     (int-2^53, int-2^64, int-big) as the nearest integer a double holds
//     (2^60, 2^53+2, 10^21), which the contract writes through
//     Number::toString; an out-of-domain case may carry one a double does
//     not hold (2^53+1, 2^63-1, 10^30+1). Every number is then a double,
//     so the ES6 Number::toString boundaries (es6Float) get a share of
//     the leaves of their own.
//   - non_finite = "error": NaN and the infinities are out of the domain.
//     Ordinary cases draw -0 where they drew one of them; an out-of-domain
//     case may carry one.
//   - key_order = "utf16_units": the UTF-16 order traps (keys whose
//     code-point and UTF-16 orders differ, ClassKeyOrder) are injected
//     into one case in eight, not one in fifty.
//
// Under contract.Default none of these applies, and every case is exactly
// what a generator that knew no contract drew (testdata/cases.golden).
// Lone surrogates, duplicate keys and nesting past 512 levels are out of
// every built-in's domain, as are non-string keys and bin data (outside
// the value model); a contract's max_depth is not the generator's to
// follow (the depth classes are value.MaxDepth's).

// rules are a contract's choices as the generator reads them.
type rules struct {
	anyTop      bool // any value at the top, no envelope
	doubleInts  bool // integers past 2^53 are doubles: inexact ones out of domain
	noNonFinite bool // NaN and the infinities out of domain
	es6Numbers  bool // every number is a double: weigh the ES6 boundaries
	utf16Keys   bool // keys in UTF-16 order: weigh the order traps
	// ood are the contract's ways out of its domain, for drawOOD. The
	// default's are oodLoneSurrogate..oodBadEnvelope in that order, which
	// draws exactly what a generator knowing no contract drew.
	ood []oodKind
}

// pKeyOrderUTF16 is the share of cases that get an extra UTF-16 order trap
// under a contract that sorts keys by UTF-16 units.
const pKeyOrderUTF16 = 1.0 / 8

// rulesOf reads the choices of c that the generator follows.
func rulesOf(c contract.Contract) rules {
	r := rules{
		anyTop:      c.TopLevel == contract.TopLevelAny,
		doubleInts:  c.Numbers.BigInts != contract.BigIntsExact,
		noNonFinite: c.Numbers.NonFinite == contract.NonFiniteError,
		utf16Keys:   c.KeyOrder == contract.KeyOrderUTF16,
	}
	r.es6Numbers = r.doubleInts
	r.ood = []oodKind{oodLoneSurrogate, oodDuplicateKey, oodTooDeep, oodNonStringKey, oodUnsupported}
	if !r.anyTop {
		r.ood = append(r.ood, oodBadEnvelope)
	}
	if r.noNonFinite {
		r.ood = append(r.ood, oodNonFinite)
	}
	if r.doubleInts {
		r.ood = append(r.ood, oodInexactInt)
	}
	return r
}

// envelopeClasses are the classes only an envelope can carry.
const envelopeClasses = ClassArgsFirst | ClassBadEnvelope

// ClassesUnder are the classes a generator for contract c draws, for
// coverage reports: every class, but the envelope's where the top level is
// any value.
func ClassesUnder(c contract.Contract) Classes {
	if c.TopLevel == contract.TopLevelAny {
		return AllClasses &^ envelopeClasses
	}
	return AllClasses
}

// anyCase makes a case of a contract whose top level is any value: an
// object drawn as an envelope case's args (with its edge features,
// out-of-domain problems and directed probe), lifted to the top; or, one
// ordinary case in four, a bare scalar, string or small array.
func (s *state) anyCase() any {
	ood := s.drawOOD()
	cell, directed := s.directedCell(ood[0] != oodNone)
	if directed && occOf(cell.Class) == occNone { // the envelope's classes: no envelope here
		directed, s.plain = false, false
	}
	if directed && cell.Class.OutOfDomain() {
		ood[0] = oodOf(cell.Class)
		if ood[1] == ood[0] || s.plain {
			ood[1] = oodNone
		}
	}
	if !directed && ood[0] == oodNone && s.oneIn(4) {
		return s.bareTop()
	}
	var p probe
	if directed {
		p = s.plan(cell)
	}
	var args any
	switch {
	case directed && p.level == 2:
		args = s.directed(cell, &p, nil)
	case directed:
		args = s.directed(cell, &p, s.args())
	default:
		args = s.args()
	}
	for _, k := range ood {
		if directed && k == ood[0] {
			continue // the probe placed it
		}
		args, _ = s.outOfDomain(k, badNoTool, args, nil, false)
	}
	if s.rules.utf16Keys && !s.plain && s.chance(pKeyOrderUTF16) {
		args = s.inject(args, 2, featKeyOrder, 0)
	}
	return s.lift(args)
}

// lift makes args, drawn at level 2 below an envelope, the top of a case
// with no envelope: args itself one level up, or args in a one-element
// array, which keeps every level (so the deep probes, the near-limit and
// too-deep chains, keep their exact depth).
func (s *state) lift(args any) any {
	if s.maxLevel >= 32 || s.oneIn(4) {
		return []any{args}
	}
	s.maxLevel--
	return args
}

// bareTop is a top level that is not an object: a scalar, a string or an
// array of a few values.
func (s *state) bareTop() any {
	s.at(1, 0, 1, false)
	switch s.intn(3) {
	case 0:
		return s.scalar()
	case 1:
		return s.str()
	}
	return s.array(1, s.width())
}

// finite is f, or -0 in its place where f is NaN or an infinity and the
// contract puts them out of its domain (nonFinite places them there).
func (s *state) finite(f float64) float64 {
	if s.rules.noNonFinite && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return math.Copysign(0, -1)
	}
	return f
}

// nonFinite draws NaN (any payload) or an infinity, out of the domain of a
// contract of doubles.
func (s *state) nonFinite() float64 {
	s.hit(ClassSpecialFloat)
	switch s.intn(4) {
	case 0:
		return math.NaN()
	case 1:
		return math.Float64frombits(0x7FF0_0000_0000_0001 | s.u64()&0x800F_FFFF_FFFF_FFFF)
	case 2:
		return math.Inf(1)
	}
	return math.Inf(-1)
}

// inDomainInt is the integer x (an int64 or a *big.Int, as the value model
// holds it) when the contract writes every integer exactly, else the
// integer nearest x that a double holds (ties to even, as a double's
// rounding; the largest double for one past it): the in-domain neighbour
// of an integer edge.
func (s *state) inDomainInt(x any) any {
	if !s.rules.doubleInts {
		return x
	}
	var f float64
	switch x := x.(type) {
	case int64:
		f = float64(x)
	case *big.Int:
		f, _ = new(big.Float).SetInt(x).Float64()
	default:
		return x
	}
	if math.IsInf(f, 0) { // past the largest double: the largest integer one holds
		f = math.Copysign(math.MaxFloat64, f)
	}
	return intOfDouble(f)
}

// intOfDouble is the integer-valued double f in the value model: an int64
// when one holds it, else a *big.Int.
func intOfDouble(f float64) any {
	if f >= -0x1p63 && f < 0x1p63 {
		return int64(f)
	}
	b, _ := big.NewFloat(f).Int(nil)
	return b
}

// inexactInt draws an integer past 2^53 that no double holds, out of the
// domain of a contract of doubles: 2^53 plus an odd number, the largest
// int64, 2^64 plus one, a power of ten plus one, or an odd number of up to
// 200 bits. It records the integer class it belongs to.
func (s *state) inexactInt() any {
	var b *big.Int
	switch s.intn(5) {
	case 0:
		s.hit(ClassInt53)
		b = big.NewInt(1<<53 + int64(2*s.intn(8)+1))
	case 1:
		s.hit(ClassInt64)
		b = big.NewInt(math.MaxInt64 - int64(s.intn(3)))
	case 2:
		s.hit(ClassInt64)
		b = new(big.Int).SetUint64(uint64(2*s.intn(4) + 1))
		b.SetBit(b, 64, 1)
	case 3:
		s.hit(ClassBigInt)
		b = new(big.Int).Add(bigPow10[s.between(23, 40)], bigOne)
	default:
		s.hit(ClassBigInt)
		b = new(big.Int).SetUint64(s.u64() | 1)
		b.SetBit(b, s.between(65, 200), 1)
	}
	if s.oneIn(2) {
		b.Neg(b)
	}
	if b.IsInt64() {
		return b.Int64()
	}
	return b
}

// es6Boundaries are the doubles where ECMAScript's Number::toString
// changes layout or is hardest to get right: 1e21 and the doubles beside
// it (the switch to exponent form), 1e-7 and 1e-6 and theirs (the other
// switch), the smallest subnormal and normal, the largest double, 2^53 and
// its neighbours, and the RFC 8785 appendix's and cyberphone's classics.
var es6Boundaries = []float64{
	1e21, math.Nextafter(1e21, 0), math.Nextafter(1e21, math.Inf(1)),
	1e-7, math.Nextafter(1e-7, 0), math.Nextafter(1e-7, 1),
	1e-6, math.Nextafter(1e-6, 0), math.Nextafter(1e-6, 1),
	5e-324, 1e-323, 0x1p-1022, math.Nextafter(0x1p-1022, 0),
	math.MaxFloat64, math.Nextafter(math.MaxFloat64, 0),
	1 << 53, 1<<53 - 1, 1<<53 + 2, 1<<53 - 2, 1 << 54,
	333333333.3333333, 1e23, 9.007199254740994e15, 295147905179352830000,
	4.35, 0.002, 1e-27, 0.000001, 1.7976931348623157e308, 2.2250738585072014e-308,
}

// es6Float draws a double at an ES6 formatting boundary (ClassFloatFormat):
// a fixed boundary, a power of ten of the whole range, one needing all 17
// significant digits, or the double nearest a decimal halfway between two
// shorter ones (where the shortest digits tie, or nearly, and the rounding
// direction decides the last digit).
func (s *state) es6Float() float64 {
	s.hit(ClassFloatFormat)
	var f float64
	switch s.intn(4) {
	case 0:
		f = es6Boundaries[s.intn(len(es6Boundaries))]
	case 1:
		f, _ = strconv.ParseFloat("1e"+strconv.Itoa(s.between(-323, 308)), 64)
	case 2:
		f = s.seventeenDigits()
	default:
		f = s.halfway()
	}
	if s.oneIn(4) {
		f = -f
	}
	return f
}

// seventeenDigits draws a finite double whose shortest round-trip digits
// are 17 long, the most a double needs (a few tries of random bits in a
// random decade; the last try is kept whatever its length).
func (s *state) seventeenDigits() float64 {
	var f float64
	for range 8 {
		f = float64(s.u64()>>11) * 0x1p-53 * pow10[25+s.between(-25, 25)]
		if len(strconv.FormatFloat(f, 'e', -1, 64)) >= 21 { // d.dddddddddddddddde±dd
			break
		}
	}
	return f
}

// halfway is the double nearest d5 × 10^e for a random run of digits d
// (one to 15 of them): halfway between two decimals one digit shorter.
func (s *state) halfway() float64 {
	d := s.u64() % uint64(math.Pow10(s.between(1, 15)))
	f, _ := strconv.ParseFloat(strconv.FormatUint(d, 10)+"5e"+strconv.Itoa(s.between(-30, 30)), 64)
	return f
}
