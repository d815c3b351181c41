package compare

import (
	"bytes"
	"fmt"

	"lukechampine.com/blake3"

	"github.com/difffuzz/difffuzz/contract"
	model "github.com/difffuzz/difffuzz/value"
)

// Trait is a way an implementation departs from its contract's reference
// that the contract allows (contract.Allows): not a bug, but a row of the
// implementation's profile. Its value is a stable word, for reports and
// tallies; Allowance.String says it as a person would.
type Trait string

// The traits, one per allowance and way of showing it.
const (
	// TraitOwnErrors: refuses with its own exception (internal) where the
	// reference refused with a code (allows.error_codes = any).
	TraitOwnErrors Trait = "own_exceptions"
	// TraitOtherCodes: refuses with another code than the reference's
	// (allows.error_codes = any).
	TraitOtherCodes Trait = "other_codes"
	// TraitDepthLimit: refuses nesting the reference accepts, deeper than
	// allows.depth_floor.
	TraitDepthLimit Trait = "depth_limit"
	// TraitNoDepthLimit: accepts nesting past max_depth, and writes it as
	// the reference would without a limit (allows.depth_floor > 0).
	TraitNoDepthLimit Trait = "no_depth_limit"
	// TraitUnsafeInts: refuses a case holding an integer past ±(2^53−1)
	// (allows.refuse_unsafe_ints).
	TraitUnsafeInts Trait = "unsafe_ints"
	// TraitBigInts: writes integers past ±2^53 by another numbers.big_ints
	// choice (allows.big_ints), as the reference would under it.
	TraitBigInts Trait = "big_ints"
)

// Allowance is one deviation a contract allows: the group that shows it,
// and the trait it shows.
type Allowance struct {
	Group int
	Trait Trait
	// Depth is the case's nesting depth, for the depth traits; 0 for the
	// others.
	Depth int
	// Choice is the other numbers.big_ints choice, for TraitBigInts.
	Choice contract.BigInts
}

// String says what the implementation does, for a profile's row: "refuses
// nesting 600 deep". The depth is the case's; a profile keeps the least.
func (a Allowance) String() string {
	switch a.Trait {
	case TraitOwnErrors:
		return "raises its own exceptions for what it refuses"
	case TraitOtherCodes:
		return "refuses with error codes of its own choosing"
	case TraitDepthLimit:
		return fmt.Sprintf("refuses nesting %d deep (a limit of its own)", a.Depth)
	case TraitNoDepthLimit:
		return fmt.Sprintf("accepts nesting %d deep (past the contract's limit)", a.Depth)
	case TraitUnsafeInts:
		return "refuses integers past 2^53"
	case TraitBigInts:
		return fmt.Sprintf("writes integers past 2^53 as numbers.big_ints = %s does", a.Choice)
	}
	return string(a.Trait)
}

// Variant is the reference under one of the contracts its own allows a
// library to follow instead (contract.Contract.Variants): Ask answers one
// case as that reference would, ok false when it could not.
type Variant struct {
	Contract contract.Contract
	Ask      func(input any) (o Outcome, ok bool)
}

// WithVariants gives the comparator the references of its contract's
// variants, so that Judge can allow an output one of them writes. Without
// them such an output stays a divergence: the judge allows only what it
// can check.
func (c *Comparator) WithVariants(vs []Variant) { c.variants = vs }

// Judge is Compare, then the contract's allowances: each deviation the
// contract leaves open moves from Deviations to Allowed, and a case whose
// every deviation is allowed agrees. input is the case, for the facts an
// allowance needs (its depth, its integers). Under a contract that leaves
// nothing open it is Compare.
func (c *Comparator) Judge(input any, outs []Outcome) Verdict {
	v := c.Compare(outs)
	if v.Agree || v.NoReference || !c.want.Allows.Open() {
		return v
	}
	base := outs[v.Groups[v.Base][0]]
	kept := v.Deviations[:0:0]
	for _, d := range v.Deviations {
		b := outs[v.Groups[d.Group][0]]
		as := c.allowance(input, base, b)
		for _, a := range as {
			a.Group = d.Group
			v.Allowed = append(v.Allowed, a)
		}
		if len(as) == 0 {
			kept = append(kept, d)
		}
	}
	v.Deviations = kept
	v.Agree = len(kept) == 0
	return v
}

// allowance is the traits b shows against the reference's a, if the
// contract allows them (two, for an output of a variant of two choices);
// none when it does not. Crashes and hangs, and a broken reference, are
// never allowed.
func (c *Comparator) allowance(input any, a, b Outcome) []Allowance {
	if a.Failure != "" || b.Failure != "" || a.Error == "internal" {
		return nil
	}
	if b.Error != "" {
		if al, ok := c.refusal(input, a, b); ok {
			return []Allowance{al}
		}
		return nil
	}
	return c.variantOutput(input, b)
}

// refusal allows b's refusal: of a case the reference also refuses, with
// any code when error codes are open; of any case, for a limit the
// contract lets a library set (nesting, unsafe integers), with that
// limit's code unless error codes are open.
func (c *Comparator) refusal(input any, a, b Outcome) (Allowance, bool) {
	al := c.want.Allows
	anyCode := al.ErrorCodes == contract.ErrorCodesAny
	switch {
	case a.Error != "" && anyCode && b.Error == "internal":
		return Allowance{Trait: TraitOwnErrors}, true
	case a.Error != "" && anyCode:
		return Allowance{Trait: TraitOtherCodes}, true
	}
	if depth := model.Depth(input); al.DepthFloor > 0 && depth > al.DepthFloor && (anyCode || b.Error == "too_deep") {
		return Allowance{Trait: TraitDepthLimit, Depth: depth}, true
	}
	if al.RefuseUnsafeInts && (anyCode || b.Error == "unsupported_value") && model.NeedsAny(input, model.NeedsBigInt) {
		return Allowance{Trait: TraitUnsafeInts}, true
	}
	return Allowance{}, false
}

// variantOutput allows b's output when the reference under one of the
// contract's variants writes it, with a digest of its own text: the
// traits are the variant's choices that differ from the contract's.
func (c *Comparator) variantOutput(input any, b Outcome) []Allowance {
	if b.Canonical != nil {
		if d := blake3.Sum256(b.Canonical); !bytes.Equal(d[:], b.Digest) {
			return nil
		}
	}
	for _, vr := range c.variants {
		o, ok := vr.Ask(input)
		if !ok || o.Error != "" || o.Failure != "" || !bytes.Equal(o.Digest, b.Digest) {
			continue
		}
		var as []Allowance
		if vr.Contract.MaxDepth != c.want.MaxDepth {
			as = append(as, Allowance{Trait: TraitNoDepthLimit, Depth: model.Depth(input)})
		}
		if vr.Contract.Numbers.BigInts != c.want.Numbers.BigInts {
			as = append(as, Allowance{Trait: TraitBigInts, Choice: vr.Contract.Numbers.BigInts})
		}
		return as
	}
	return nil
}

// Masked is outs with every allowed group's outcomes replaced by the
// baseline's: the outcomes as a judge that allows them sees the case, for
// the collision oracle, which must not take an allowed output (a big
// integer read as its double) for two cases given one digest.
func (v Verdict) Masked(outs []Outcome) []Outcome {
	if len(v.Allowed) == 0 {
		return outs
	}
	masked := append([]Outcome(nil), outs...)
	base := outs[v.Groups[v.Base][0]]
	for _, a := range v.Allowed {
		for _, i := range v.Groups[a.Group] {
			masked[i] = base
		}
	}
	return masked
}
