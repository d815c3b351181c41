package kit

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// A Model turns a decoded case, in the protocol's lossless value model, into
// the values an implementation takes. A case the model cannot hold without
// loss is never converted: Convert reports why instead.
type Model interface {
	// Name is the model's name in the hello: wire.ModelExact or wire.ModelNative.
	Name() string
	// Reasons lists every reason Convert can give, for the hello.
	Reasons() []string
	// Convert returns v in the model, or the reason it cannot be held.
	Convert(v any) (any, *Inexpressible)
}

// Inexpressible says why a case cannot be held by a value model.
type Inexpressible struct {
	Reason string // one of the wire.Reason constants
	Msg    string // where, for people
}

// Exact is the lossless model, the one the project's own implementation
// takes: value.Object (members in order, duplicates kept),
// value.RawObject for a map with a non-string key, int64 and *big.Int,
// float64, strings in WTF-8 (lone surrogates kept), []byte for bin data and
// wire.Unsupported for another value outside the model. Cases pass through
// as decoded.
var Exact Model = exact{}

type exact struct{}

func (exact) Name() string                        { return wire.ModelExact }
func (exact) Reasons() []string                   { return nil }
func (exact) Convert(v any) (any, *Inexpressible) { return v, nil }

// Numbers is how a native Go model holds numbers.
type Numbers int

const (
	// Float64 holds every number as float64, as encoding/json decodes into
	// any. An integer past ±2^53 is inexpressible: as a float it would lose
	// its digits or its integer-ness.
	Float64 Numbers = iota
	// JSONNumber holds integers as json.Number (any size, exact), as a
	// json.Decoder with UseNumber does, and floats as float64.
	JSONNumber
)

// Native is the model of an SDK that takes what encoding/json produces:
// map[string]any, []any, string, bool, nil, and numbers as declared. A
// repeated key, a lone surrogate, a non-string key and a value outside the
// spec (bin data, an unknown ext type) are inexpressible, and so is an
// integer past ±2^53 with Float64.
func Native(n Numbers) Model { return native{numbers: n} }

type native struct{ numbers Numbers }

func (native) Name() string { return wire.ModelNative }

func (m native) Reasons() []string {
	r := []string{wire.ReasonDuplicateKey, wire.ReasonLoneSurrogate}
	if m.numbers == Float64 {
		r = append(r, wire.ReasonBigInt)
	}
	return append(r, wire.ReasonNonStringKey, wire.ReasonUnsupported)
}

func (m native) Convert(v any) (any, *Inexpressible) {
	return m.value(v)
}

// maxExact is 2^53, past which float64 skips integers.
const maxExact = 1 << 53

func (m native) value(v any) (any, *Inexpressible) {
	switch v := v.(type) {
	case nil, bool, float64:
		return v, nil
	case int64:
		if m.numbers == JSONNumber {
			return json.Number(strconv.FormatInt(v, 10)), nil
		}
		if v > maxExact || v < -maxExact {
			return nil, &Inexpressible{wire.ReasonBigInt, fmt.Sprintf("integer %d is past ±2^53 for a float64", v)}
		}
		return float64(v), nil
	case *big.Int:
		if m.numbers == JSONNumber {
			return json.Number(v.String()), nil
		}
		return nil, &Inexpressible{wire.ReasonBigInt, fmt.Sprintf("integer %s is past ±2^53 for a float64", short(v.String()))}
	case string:
		return m.text(v)
	case []any:
		return m.array(v)
	case value.Object:
		return m.object(v)
	case value.RawObject:
		return nil, &Inexpressible{wire.ReasonNonStringKey, "a map with a non-string key cannot be a map[string]any"}
	case wire.Unsupported:
		return nil, &Inexpressible{wire.ReasonUnsupported, v.Reason}
	case []byte:
		return nil, &Inexpressible{wire.ReasonUnsupported, "bin data is not in what encoding/json decodes"}
	}
	return nil, &Inexpressible{wire.ReasonUnsupported, fmt.Sprintf("a %T is not in the model", v)}
}

// text refuses a WTF-8 string: a Go string would carry its surrogate as
// bytes that are not UTF-8, which no JSON decoder hands an SDK.
func (native) text(s string) (any, *Inexpressible) {
	if !utf8.ValidString(s) {
		return nil, &Inexpressible{wire.ReasonLoneSurrogate, fmt.Sprintf("string %q has a lone surrogate", short(s))}
	}
	return s, nil
}

func (m native) array(a []any) (any, *Inexpressible) {
	out := make([]any, len(a))
	for i, x := range a {
		var bad *Inexpressible
		if out[i], bad = m.value(x); bad != nil {
			return nil, bad
		}
	}
	return out, nil
}

func (m native) object(o value.Object) (any, *Inexpressible) {
	out := make(map[string]any, len(o))
	for _, mem := range o {
		if _, bad := m.text(mem.Key); bad != nil {
			return nil, bad
		}
		if _, dup := out[mem.Key]; dup {
			return nil, &Inexpressible{wire.ReasonDuplicateKey, fmt.Sprintf("key %q is repeated", short(mem.Key))}
		}
		v, bad := m.value(mem.Value)
		if bad != nil {
			return nil, bad
		}
		out[mem.Key] = v
	}
	return out, nil
}

// short keeps a message readable when the value is huge.
func short(s string) string {
	if len(s) <= 40 {
		return s
	}
	return s[:40] + "..."
}
