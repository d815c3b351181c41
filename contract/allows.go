package contract

import (
	"fmt"
	"slices"
)

// Allows is what a contract leaves open: the differences from its
// reference that a conforming library may show, which are therefore not
// bugs. A contract's choices (Contract) say what its reference does; its
// Allows say how far a library may stray from that and still conform. Our
// own contract leaves nothing open (the zero Allows): every implementation
// must answer byte for byte and code for code. RFC 8785 leaves open what
// it does not settle: it names no error codes, sets no nesting limit, and
// lets a library refuse or round integers no double holds.
//
// Three things stay bugs under every Allows: a crash or hang, an exception
// on valid input the library would otherwise accept (unless a limit below
// allows the refusal), and accepting out-of-domain input, other than what
// an allowance reads differently.
type Allows struct {
	// ErrorCodes is whether a refusal must carry the contract's code.
	ErrorCodes ErrorCodes `toml:"error_codes"`
	// DepthFloor, when above 0, opens the nesting limit: a library may set
	// its own, refusing any input nested deeper than DepthFloor, or none up
	// to the wire's MaxWireDepth, accepting input nested past MaxDepth.
	// 0 is MaxDepth exactly.
	DepthFloor int `toml:"depth_floor"`
	// RefuseUnsafeInts lets a library refuse any integer past
	// ±(2^53−1), outside the range where every integer is a double.
	RefuseUnsafeInts bool `toml:"refuse_unsafe_ints"`
	// BigInts is another choice of numbers.big_ints a library may make
	// instead of the contract's ("" for none; the contract's own choice
	// is none either, so that a file changing numbers.big_ints keeps its
	// base's allowance valid).
	BigInts BigInts `toml:"big_ints"`
}

// ErrorCodes is how a refusal's code is judged.
type ErrorCodes string

const (
	// ErrorCodesExact: a refusal must carry the code the contract names
	// (docs/canonical-json.md §3), and the code the walk finds first.
	ErrorCodesExact ErrorCodes = "exact"
	// ErrorCodesAny: a refusal is a refusal, whatever its code or the
	// library's own exception (reported as internal).
	ErrorCodesAny ErrorCodes = "any"
)

// MaxSafeInt is 2^53−1, the largest integer n such that every integer of
// magnitude at most n is a double (ECMAScript's Number.MAX_SAFE_INTEGER).
const MaxSafeInt = 1<<53 - 1

// Open reports whether a leaves anything open.
func (a Allows) Open() bool { return a != Allows{ErrorCodes: ErrorCodesExact} }

// check reports the first allowance of a that is not one of its values, or
// that does not fit the contract c it belongs to.
func (a Allows) check(c Contract) error {
	if a.ErrorCodes != ErrorCodesExact && a.ErrorCodes != ErrorCodesAny {
		return fmt.Errorf("allows.error_codes = %q: want one of %q", a.ErrorCodes, []string{string(ErrorCodesExact), string(ErrorCodesAny)})
	}
	// A floor past max_depth is allowed, so that a file lowering its
	// base's max_depth reads: it only leaves no refusal of valid input to
	// allow (the reference refuses past max_depth already).
	if a.DepthFloor < 0 || a.DepthFloor > MaxWireDepth {
		return fmt.Errorf("allows.depth_floor = %d: want 0 (max_depth exactly) to %d", a.DepthFloor, MaxWireDepth)
	}
	if a.BigInts == "" {
		return nil
	}
	ok := []string{string(BigIntsExact), string(BigIntsError), string(BigIntsDouble)}
	if !slices.Contains(ok, string(a.BigInts)) {
		return fmt.Errorf("allows.big_ints = %q: want one of %q, or none", a.BigInts, ok)
	}
	return nil
}

// Variants are the contracts a library may follow instead of c that
// change what it writes rather than what it refuses: no nesting limit
// below the wire's, another reading of big integers, one allowance each,
// then both at once (a library with no limit that reads big integers as
// doubles, on a deep case holding one). A library's output that one of
// them gives is allowed.
func (c Contract) Variants() []Contract {
	var vs []Contract
	both := c.strict()
	if c.Allows.DepthFloor > 0 && c.MaxDepth < MaxWireDepth {
		v := c.strict()
		v.MaxDepth, both.MaxDepth = MaxWireDepth, MaxWireDepth
		vs = append(vs, v)
	}
	if c.Allows.BigInts != "" && c.Allows.BigInts != c.Numbers.BigInts {
		v := c.strict()
		v.Numbers.BigInts, both.Numbers.BigInts = c.Allows.BigInts, c.Allows.BigInts
		vs = append(vs, v)
	}
	if len(vs) > 1 {
		vs = append(vs, both)
	}
	return vs
}

// strict is c leaving nothing open, for a variant's reference.
func (c Contract) strict() Contract {
	c.Allows = Allows{ErrorCodes: ErrorCodesExact}
	return c
}
