package conform

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// verdict is mismatch, except that a native worker's inexpressible answer
// is judged on its own terms: c is the case, or nil when the check only has
// its bytes (then only the declaration is checked).
//
// Under another contract than this project's, the answer is judged by that
// contract instead (underContract).
func (r *runner) verdict(got wire.Result, w want, c any) string {
	switch {
	case got.Inexpressible != "":
		return r.inexpressible(got, c)
	case r.under != nil:
		return r.under.mismatch(got, c)
	}
	return mismatch(got, w)
}

// rawVerdict is verdict for a case the check has as bytes alone: under
// another contract it is decoded to be judged, and one the value model
// cannot hold (bytes that are not UTF-8) is judged by codes alone.
func (r *runner) rawVerdict(got wire.Result, w want, raw []byte) string {
	switch {
	case got.Inexpressible != "":
		return r.inexpressible(got, nil)
	case r.under == nil:
		return mismatch(got, w)
	}
	v, err := wire.DecodeValue(raw)
	if err != nil {
		return r.under.codesAlone(got, w)
	}
	return r.under.mismatch(got, v)
}

// inexpressible is "" when a worker may answer got for c: its hello says
// it has a native or text model and declares the reason (a text worker
// only what JSON text cannot spell), and c holds what the reason names.
// Anything else is a worker that hides cases from the comparison, which is
// worse than a wrong answer: nobody would see it.
func (r *runner) inexpressible(got wire.Result, c any) string {
	h := r.w.Hello()
	switch {
	case h.Model != wire.ModelNative && h.Model != wire.ModelText:
		return fmt.Sprintf("answered inexpressible (%s) but its hello declares the %q model", got.Inexpressible, modelName(h.Model))
	case h.Model == wire.ModelText && !slices.Contains(textReasons, got.Inexpressible):
		return fmt.Sprintf("answered inexpressible (%s) in the text model, which spells everything but %v", got.Inexpressible, textReasons)
	case !slices.Contains(h.Inexpressible, got.Inexpressible):
		return fmt.Sprintf("answered inexpressible (%s), a reason its hello does not declare (%v)", got.Inexpressible, h.Inexpressible)
	case c != nil && !holds(c, got.Inexpressible):
		return fmt.Sprintf("answered inexpressible (%s: %s) for a case that holds no such thing", got.Inexpressible, clip.String(got.Message, 80))
	}
	return ""
}

// textReasons are all a text worker may answer: JSON text spells repeated
// keys, big integers, lone surrogates (as escapes) and NaN (as extended
// JSON's bare token), but no bin data and no key that is not a string.
var textReasons = []string{wire.ReasonNonStringKey, wire.ReasonUnsupported}

func modelName(m string) string {
	if m == "" {
		return wire.ModelExact
	}
	return m
}

// holds reports whether v has what reason names somewhere inside it. Its
// thresholds are the loosest of any native model: an integer is big from
// 2^53 on (JavaScript's safe range ends just below).
func holds(v any, reason string) bool {
	switch v := v.(type) {
	case int64:
		return reason == wire.ReasonBigInt && (v >= 1<<53 || v <= -(1<<53))
	case *big.Int:
		return reason == wire.ReasonBigInt
	case float64:
		return reason == wire.ReasonNonFinite && (math.IsNaN(v) || math.IsInf(v, 0))
	case string:
		return reason == wire.ReasonLoneSurrogate && !utf8.ValidString(v)
	case wire.Unsupported, []byte:
		return reason == wire.ReasonUnsupported
	case []any:
		return slices.ContainsFunc(v, func(x any) bool { return holds(x, reason) })
	case value.Object:
		return objectHolds(v, reason)
	case value.RawObject:
		if reason == wire.ReasonNonStringKey || reason == wire.ReasonDuplicateKey && rawRepeats(v) {
			return true
		}
		return slices.ContainsFunc(v, func(m value.RawMember) bool { return holds(m.Key, reason) || holds(m.Value, reason) })
	}
	return false
}

func objectHolds(o value.Object, reason string) bool {
	seen := make(map[string]bool, len(o))
	for _, m := range o {
		if reason == wire.ReasonDuplicateKey && seen[m.Key] {
			return true
		}
		seen[m.Key] = true
		if holds(m.Key, reason) || holds(m.Value, reason) {
			return true
		}
	}
	return false
}

// rawRepeats reports whether a string key of o comes twice: a dict cannot
// hold that either, whatever non-string key comes before it (the walk
// finds non_string_key first, but a native model could not even build
// the object).
func rawRepeats(o value.RawObject) bool {
	seen := make(map[string]bool, len(o))
	for _, m := range o {
		if k, ok := m.Key.(string); ok {
			if seen[k] {
				return true
			}
			seen[k] = true
		}
	}
	return false
}
