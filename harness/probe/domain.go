package probe

import (
	"slices"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/value"
)

// The domain family is the rules of the spec's domain (its error codes)
// an implementation keeps. An input out of the domain in two ways (a
// repeated key whose first value holds a lone surrogate) is named by the
// reference's first error, `accepts out-of-domain input (want
// lone_surrogate)`, though the implementation that accepted it rejects
// lone surrogates and keeps the last of a repeated key: its profile, one
// input out of the domain in one way each, tells which rule it does not
// keep.

// domainCases are an input of each error code, out of the domain in that
// one way: every form of a bad envelope (a scalar, a member missing, one
// too many), since an SDK may check one and not another.
var domainCases = []Case{
	{Name: string(value.CodeTooDeep), input: envelopeOf(nested(value.MaxDepth + 1))},
	{Name: string(value.CodeNonStringKey), input: envelopeOf(value.RawObject{{Key: int64(4), Value: int64(0)}})},
	{Name: string(value.CodeLoneSurrogate), input: envelopeOf(value.Object{{Key: "", Value: "\xed\xa0\x80"}})},
	{Name: string(value.CodeDuplicateKey), input: envelopeOf(value.RawObject{{Key: "a", Value: int64(0)}, {Key: "a", Value: int64(1)}})},
	{Name: string(value.CodeUnsupported), input: envelopeOf(value.Object{{Key: "", Value: []byte{}}})},
	{Name: string(value.CodeBadEnvelope), input: int64(0)},
	{Name: string(value.CodeBadEnvelope), input: value.Object{{Key: "tool_name", Value: ""}}},
	{Name: string(value.CodeBadEnvelope), input: value.Object{{Key: "tool_name", Value: ""}, {Key: "args", Value: value.Object{}}, {Key: "", Value: int64(0)}}},
}

// envelopeOf is a call whose args are v.
func envelopeOf(v any) value.Object {
	return value.Object{{Key: "tool_name", Value: ""}, {Key: "args", Value: v}}
}

// nested is an array nested n levels deep, in an object.
func nested(n int) value.Object {
	var v any = []any{}
	for range n - 2 {
		v = []any{v}
	}
	return value.Object{{Key: "", Value: v}}
}

// Accepts reports whether the implementation wrote a text for a probe of
// the domain family out of the domain by code alone.
func (p Profile) Accepts(code value.Code) bool {
	if p.Family != Domain {
		return false
	}
	return slices.ContainsFunc(p.Wrong, func(w Answer) bool { return w.Name == string(code) && accepted(w.Shape) })
}

// accepted reports whether sig is an acceptance of out-of-domain input.
func accepted(sig compare.Signature) bool {
	_, ok := compare.AcceptedCode(sig)
	return ok
}

// RuleBroken is the rule an implementation with profile p does not keep,
// which it showed as sig, an acceptance of input (compare.AcceptedCode),
// input being out of the domain in several ways: the one of them it
// accepts alone when it rejects the one the reference named (its first).
// ok is false when that cannot be told: input breaks one rule, or p
// accepts the one named, or several of the others.
func (p Profile) RuleBroken(sig compare.Signature, input any) (value.Code, bool) {
	code, ok := compare.AcceptedCode(sig)
	named := value.Code(code)
	if !ok || p.Accepts(named) {
		return "", false
	}
	problems := value.Problems(input)
	var others []value.Code
	for _, c := range problems {
		if c != named && p.Accepts(c) {
			others = append(others, c)
		}
	}
	if len(others) != 1 || !slices.Contains(problems, named) {
		return "", false
	}
	return others[0], true
}
