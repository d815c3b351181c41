package kit

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// A Model turns a decoded case, in the protocol's lossless value model, into
// the T an implementation takes: any for Exact and Native, []byte for Text.
// The implementation's function takes a T (func(dst []byte, v T) (O,
// error), Func for a Model[any]), so that a text worker is handed a []byte,
// not an any to assert. A case the model cannot hold
// without loss is never converted: Convert reports why instead.
type Model[T any] interface {
	// Name is the model's name in the hello: wire.ModelExact,
	// wire.ModelNative or wire.ModelText.
	Name() string
	// Reasons lists every reason Convert can give, for the hello.
	Reasons() []string
	// Convert returns v in the model; an *Inexpressible error (itself,
	// not wrapped) says why the model cannot hold it, and any other error
	// is the case's internal result (a case the model should never get).
	Convert(v any) (T, error)
}

// Exact is the lossless model, the one the project's own implementation
// takes: Object (members in order, duplicates kept), RawObject for a map
// with a non-string key, int64 and *big.Int, float64, strings in WTF-8
// (lone surrogates kept), []byte for bin data and Unsupported for another
// value outside the model. Cases pass through as decoded.
var Exact Model[any] = exact{}

type exact struct{}

func (exact) Name() string               { return wire.ModelExact }
func (exact) Reasons() []string          { return nil }
func (exact) Convert(v any) (any, error) { return v, nil }

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
func Native(n Numbers) Model[any] { return native{numbers: n} }

type native struct{ numbers Numbers }

func (native) Name() string { return wire.ModelNative }

func (m native) Reasons() []string {
	r := []string{wire.ReasonDuplicateKey, wire.ReasonLoneSurrogate}
	if m.numbers == Float64 {
		r = append(r, wire.ReasonBigInt)
	}
	return append(r, wire.ReasonNonStringKey, wire.ReasonUnsupported)
}

func (m native) Convert(v any) (any, error) {
	nv, bad := m.value(v)
	if bad != nil {
		return nil, bad
	}
	return nv, nil
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
			return nil, &Inexpressible{Reason: wire.ReasonBigInt, Msg: fmt.Sprintf("integer %d is past ±2^53 for a float64", v)}
		}
		return float64(v), nil
	case *big.Int:
		if m.numbers == JSONNumber {
			return json.Number(v.String()), nil
		}
		return nil, &Inexpressible{Reason: wire.ReasonBigInt, Msg: fmt.Sprintf("integer %s is past ±2^53 for a float64", short(v.String()))}
	case string:
		return m.text(v)
	case []any:
		return m.array(v)
	case Object:
		return m.object(v)
	case RawObject:
		return nil, &Inexpressible{Reason: wire.ReasonNonStringKey, Msg: "a map with a non-string key cannot be a map[string]any"}
	case wire.Unsupported:
		return nil, &Inexpressible{Reason: wire.ReasonUnsupported, Msg: v.Reason}
	case []byte:
		return nil, &Inexpressible{Reason: wire.ReasonUnsupported, Msg: "bin data is not in what encoding/json decodes"}
	}
	return nil, &Inexpressible{Reason: wire.ReasonUnsupported, Msg: fmt.Sprintf("a %T is not in the model", v)}
}

// text refuses a WTF-8 string: a Go string would carry its surrogate as
// bytes that are not UTF-8, which no JSON decoder hands an SDK.
func (native) text(s string) (any, *Inexpressible) {
	if !utf8.ValidString(s) {
		return nil, &Inexpressible{Reason: wire.ReasonLoneSurrogate, Msg: fmt.Sprintf("string %q has a lone surrogate", short(s))}
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

func (m native) object(o Object) (any, *Inexpressible) {
	out := make(map[string]any, len(o))
	for _, mem := range o {
		if _, bad := m.text(mem.Key); bad != nil {
			return nil, bad
		}
		if _, dup := out[mem.Key]; dup {
			return nil, &Inexpressible{Reason: wire.ReasonDuplicateKey, Msg: fmt.Sprintf("key %q is repeated", short(mem.Key))}
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
