package value

import (
	"math"
	"math/big"
	"strings"
	"unicode/utf8"
)

// Reasons is a set of the things a value may hold that a native value model
// (a map type, a float64, a Go or Rust string) cannot: the reasons of the
// protocol's inexpressible results (docs/adapter-protocol.md). The driver
// reads a native worker's declared reasons into a Reasons (ParseReasons) and
// the generator draws cases that need none of them (Needs), so that a run of
// native implementations spends its cases on ones they can be tested on.
type Reasons uint8

// The reasons, in the order of the protocol page's table.
const (
	// NeedsDuplicateKey: an object with a repeated key.
	NeedsDuplicateKey Reasons = 1 << iota
	// NeedsLoneSurrogate: a string or key with a lone surrogate.
	NeedsLoneSurrogate
	// NeedsBigInt: an integer of magnitude 2^53 or more. Where a native
	// model's numbers end is the worker's business (JavaScript's safe
	// integers end below 2^53, a float64 holds 2^53 itself, serde_json any
	// 64-bit integer) and its hello does not say: the driver assumes the
	// smallest, so that a case Needs passes is one every model declaring
	// big_int can hold.
	NeedsBigInt
	// NeedsNonFinite: NaN, +Infinity or -Infinity.
	NeedsNonFinite
	// NeedsNonStringKey: an object (a RawObject) with a key that is not a
	// string.
	NeedsNonStringKey
	// NeedsUnsupported: a value outside the model (bin data, another ext
	// type, a Go type the model has no place for), or a string that is not
	// even WTF-8.
	NeedsUnsupported

	reasonsEnd
)

// AllReasons is the union of every reason.
const AllReasons = reasonsEnd - 1

// reasonNames are the protocol's names of the reasons, bit by bit.
var reasonNames = [...]string{"duplicate_key", "lone_surrogate", "big_int", "non_finite", "non_string_key", "unsupported_value"}

// String is the reasons' protocol names joined by ",", "none" for the empty
// set.
func (r Reasons) String() string {
	if r == 0 {
		return "none"
	}
	var names []string
	for i, n := range reasonNames {
		if r&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, ",")
}

// ParseReasons reads the reasons of a hello. A name it does not know is
// returned in unknown and left out of the set: the driver cannot steer
// clear of what it cannot recognize, and the cases that hold it are
// counted as inexpressible as before.
func ParseReasons(names []string) (r Reasons, unknown []string) {
next:
	for _, name := range names {
		for i, n := range reasonNames {
			if n == name {
				r |= 1 << i
				continue next
			}
		}
		unknown = append(unknown, name)
	}
	return r, unknown
}

// Needs returns every reason v holds, anywhere inside it. It is written from
// the spec and the protocol's table alone, like Check.
func Needs(v any) Reasons {
	var w needsWalk
	w.walk(v)
	return w.found
}

// NeedsAny reports whether v holds any of the reasons r. It stops at the
// first it finds, so that the generator can reject a draw cheaply.
func NeedsAny(v any, r Reasons) bool {
	if r == 0 {
		return false
	}
	w := needsWalk{stop: r}
	w.walk(v)
	return w.found&r != 0
}

// bigIntFrom is 2^53, where NeedsBigInt begins.
const bigIntFrom = 1 << 53

var bigIntFromBig = big.NewInt(bigIntFrom)

// needsWalk gathers the reasons of a value; it returns early once it has
// found one of stop (0: never).
type needsWalk struct {
	found, stop Reasons
}

func (w *needsWalk) done() bool { return w.found&w.stop != 0 }

func (w *needsWalk) walk(v any) {
	switch x := v.(type) {
	case nil, bool:
	case string:
		w.str(x)
	case int64:
		if x >= bigIntFrom || x <= -bigIntFrom {
			w.found |= NeedsBigInt
		}
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			w.found |= NeedsNonFinite
		}
	case []any:
		for _, el := range x {
			if w.walk(el); w.done() {
				return
			}
		}
	case Object:
		w.object(x)
	case RawObject:
		w.rawObject(x)
	default:
		w.other(v)
	}
}

// other takes the rarer types of the model (see the package doc).
func (w *needsWalk) other(v any) {
	switch x := v.(type) {
	case *big.Int:
		if x == nil {
			w.found |= NeedsUnsupported
		} else if x.CmpAbs(bigIntFromBig) >= 0 {
			w.found |= NeedsBigInt
		}
	case float32:
		w.walk(float64(x))
	case []string:
		for _, s := range x {
			w.str(s)
		}
	case map[string]any:
		for k, el := range x { // a map cannot repeat a key
			if w.str(k); w.done() {
				return
			}
			if w.walk(el); w.done() {
				return
			}
		}
	default:
		if kindOf(v) != kindInt {
			w.found |= NeedsUnsupported
		} else if n, b := intOf(v); b != nil {
			w.other(b)
		} else {
			w.walk(n)
		}
	}
}

// str records a lone surrogate, or a byte that is not even WTF-8.
func (w *needsWalk) str(s string) {
	if utf8.ValidString(s) {
		return
	}
	switch code, _, _ := stringProblem(s); code {
	case CodeLoneSurrogate:
		w.found |= NeedsLoneSurrogate
		for i := 0; i < len(s); { // a later byte may be outside WTF-8
			_, size, ok := decodeWTF8(s, i)
			if !ok {
				w.found |= NeedsUnsupported
				return
			}
			i += size
		}
	case CodeUnsupported:
		w.found |= NeedsUnsupported
	}
}

// object walks members in order; keys compare as bytes (code points, for
// WTF-8), scanning for a few members and with a set past them.
func (w *needsWalk) object(o Object) {
	var seen map[string]struct{}
	for i, m := range o {
		if w.str(m.Key); w.done() {
			return
		}
		if w.found&NeedsDuplicateKey == 0 && repeatsIn(o, i, &seen) {
			if w.found |= NeedsDuplicateKey; w.done() {
				return
			}
		}
		if w.walk(m.Value); w.done() {
			return
		}
	}
}

// repeatsIn reports whether o[i].Key is the key of an earlier member.
func repeatsIn(o Object, i int, seen *map[string]struct{}) bool {
	key := o[i].Key
	if i < 16 {
		for _, m := range o[:i] {
			if m.Key == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]struct{}, len(o))
		for _, m := range o[:i] {
			(*seen)[m.Key] = struct{}{}
		}
	}
	if _, ok := (*seen)[key]; ok {
		return true
	}
	(*seen)[key] = struct{}{}
	return false
}

// rawObject is object for a map whose keys may be any value: a key that is
// not a string needs NonStringKey, and is walked too (a float key may be
// NaN); string keys repeat as in an Object.
func (w *needsWalk) rawObject(o RawObject) {
	var keys Object // the string keys, for repeatsIn
	var seen map[string]struct{}
	for _, m := range o {
		if k, ok := m.Key.(string); ok {
			w.str(k)
			keys = append(keys, Member{Key: k})
			if repeatsIn(keys, len(keys)-1, &seen) {
				w.found |= NeedsDuplicateKey
			}
		} else {
			w.found |= NeedsNonStringKey
			w.walk(m.Key)
		}
		if w.done() {
			return
		}
		if w.walk(m.Value); w.done() {
			return
		}
	}
}
