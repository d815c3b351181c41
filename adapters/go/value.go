package canonjson

import (
	"math"
	"math/big"

	"github.com/difffuzz/difffuzz/value"
)

// The value model is the harness's (package value), so that a case decoded
// from the wire or read from a corpus file reaches this package as it is.
type (
	Object    = value.Object
	Member    = value.Member
	RawObject = value.RawObject
	RawMember = value.RawMember
)

// Code is one of the spec's error codes: the part of a rejection that every
// implementation must agree on.
type Code string

// The error codes of spec section 3.
const (
	CodeTooDeep       Code = "too_deep"
	CodeNonStringKey  Code = "non_string_key"
	CodeLoneSurrogate Code = "lone_surrogate"
	CodeDuplicateKey  Code = "duplicate_key"
	CodeUnsupported   Code = "unsupported_value"
	CodeBadEnvelope   Code = "bad_envelope"
)

// Error is a rejection of an out-of-domain value. Code is what implementations
// are compared on; Msg is for people and says where the problem is.
type Error struct {
	Code Code
	Msg  string
}

// Error gives the code first, so that logs and reports can be grepped by it.
func (e *Error) Error() string {
	return "canonjson: " + string(e.Code) + ": " + e.Msg
}

// ErrorCode is the spec's code as a string, so that generic callers (a test
// harness, a worker) can read it without knowing this package's types.
func (e *Error) ErrorCode() string { return string(e.Code) }

// MaxDepth is the deepest nesting the spec accepts: a container entered at a
// level above it is too_deep.
const MaxDepth = 512

type kind uint8

const (
	kindOther kind = iota
	kindNull
	kindBool
	kindInt
	kindFloat
	kindString
	kindArray
	kindObject
	kindMap
)

func kindOf(v any) kind {
	switch x := v.(type) {
	case nil:
		return kindNull
	case bool:
		return kindBool
	case int64, int, int8, int16, int32, uint, uint8, uint16, uint32, uint64:
		return kindInt
	case *big.Int:
		if x == nil {
			return kindOther
		}
		return kindInt
	case float64, float32:
		return kindFloat
	case string:
		return kindString
	case []any, []string:
		return kindArray
	case Object, RawObject:
		return kindObject
	case map[string]any:
		return kindMap
	}
	return kindOther
}

// intOf returns an integer value as int64 when it fits, else as *big.Int.
func intOf(v any) (int64, *big.Int) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case int:
		return int64(x), nil
	case int8:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case uint:
		return intOfUint(uint64(x))
	case uint8:
		return int64(x), nil
	case uint16:
		return int64(x), nil
	case uint32:
		return int64(x), nil
	case uint64:
		return intOfUint(x)
	case *big.Int:
		if x.IsInt64() {
			return x.Int64(), nil
		}
		return 0, x
	}
	return 0, nil
}

func intOfUint(u uint64) (int64, *big.Int) {
	if u <= math.MaxInt64 {
		return int64(u), nil
	}
	return 0, new(big.Int).SetUint64(u)
}
