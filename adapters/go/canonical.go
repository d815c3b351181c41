package canonjson

import (
	"bytes"
	"encoding/hex"
	"math/big"
	"slices"
	"strconv"
	"sync"

	"lukechampine.com/blake3"
)

// Canonical returns the canonical text of a signed value (spec section 4), or
// an *Error with the code spec section 3 says wins. It is
// Default.Canonical.
func Canonical(v any) ([]byte, error) { return Default.Canonical(v) }

// AppendCanonical appends the canonical text of a signed value to dst. It is
// the fuzzer's hot path: with a reused dst it allocates nothing for values in
// the model except the digits of *big.Int values. On error it returns dst
// unchanged in length (bytes past it may have been overwritten) and an *Error.
// It is Default.AppendCanonical.
func AppendCanonical(dst []byte, v any) ([]byte, error) { return Default.AppendCanonical(dst, v) }

// CanonicalValue returns the canonical text of any value of the model, without
// the envelope check: for tests and tools that print a fragment (an argument,
// a float) the way the signed value would print it.
func CanonicalValue(v any) ([]byte, error) { return Default.AppendCanonicalValue(nil, v) }

// AppendCanonicalValue is CanonicalValue appending to dst.
func AppendCanonicalValue(dst []byte, v any) ([]byte, error) {
	return Default.AppendCanonicalValue(dst, v)
}

// Signature returns the spec's signature of a signed value: BLAKE3-256 of its
// canonical text, as 64 lower-case hex digits. It is Default.Signature.
func Signature(v any) (string, error) { return Default.Signature(v) }

// Canonical returns the canonical text of a signed value under the
// encoding's contract: the {"tool_name","args"} envelope when its top_level
// is "envelope", any value when it is "any".
func (enc *Encoding) Canonical(v any) ([]byte, error) {
	e := getEncoder(&enc.r)
	defer putEncoder(e)
	out, err := e.canonical(e.out[:0], v, enc.r.envelope)
	e.out = out[:0]
	if err != nil {
		return nil, err
	}
	return bytes.Clone(out), nil
}

// AppendCanonical is Canonical appending to dst, with AppendCanonical's
// promises.
func (enc *Encoding) AppendCanonical(dst []byte, v any) ([]byte, error) {
	e := getEncoder(&enc.r)
	defer putEncoder(e)
	return e.canonical(dst, v, enc.r.envelope)
}

// AppendCanonicalValue appends the canonical text of any value of the model
// under the encoding's contract, without the top-level check.
func (enc *Encoding) AppendCanonicalValue(dst []byte, v any) ([]byte, error) {
	e := getEncoder(&enc.r)
	defer putEncoder(e)
	return e.canonical(dst, v, false)
}

// Signature is BLAKE3-256 of Canonical's text, as 64 lower-case hex digits.
func (enc *Encoding) Signature(v any) (string, error) {
	e := getEncoder(&enc.r)
	defer putEncoder(e)
	out, err := e.canonical(e.out[:0], v, enc.r.envelope)
	e.out = out[:0]
	if err != nil {
		return "", err
	}
	d := Digest(out)
	var h [64]byte
	hex.Encode(h[:], d[:])
	return string(h[:]), nil
}

// Digest is the spec's hash of a canonical text (BLAKE3-256, no key, no
// context): what the protocol's "digest" field carries.
func Digest(canonical []byte) [32]byte {
	if len(canonical) <= blake3ChunkSize || len(canonical) > 64<<10 {
		return blake3.Sum256(canonical)
	}
	// blake3.Sum256 copies a 3 KB hasher to the heap and, once a write spans
	// several chunks, hashes them on goroutines: costly for the few-KB texts
	// of typical cases. Feeding a pooled hasher one chunk at a time keeps it
	// on the sequential path, allocation-free.
	st := hashers.Get().(*hashState)
	st.h.Reset()
	for len(canonical) > 0 {
		n := min(len(canonical), blake3ChunkSize)
		st.h.Write(canonical[:n])
		canonical = canonical[n:]
	}
	st.h.Sum(st.sum[:0]) // into pooled memory: a local array would escape
	sum := st.sum
	hashers.Put(st)
	return sum
}

type hashState struct {
	h   *blake3.Hasher
	sum [32]byte
}

// blake3ChunkSize is BLAKE3's chunk length: a write of at most one chunk never
// takes the library's parallel path.
const blake3ChunkSize = 1024

var hashers = sync.Pool{New: func() any { return &hashState{h: blake3.New(32, nil)} }}

// encoder holds the scratch space reused across calls, so that the hot path
// does not allocate per object or per member.
type encoder struct {
	r    *rules   // the contract's choices, set by getEncoder
	buf  []byte   // the text being written
	idx  []int32  // stack of member permutations, one segment per open object
	keys []string // stack of sorted map keys, likewise
	out  []byte   // a buffer kept for Canonical and Signature
	walker
}

var encoders = sync.Pool{New: func() any { return new(encoder) }}

func getEncoder(r *rules) *encoder {
	e := encoders.Get().(*encoder)
	e.r, e.walker.r = r, r
	return e
}

func putEncoder(e *encoder) {
	if cap(e.out) > 1<<20 {
		e.out = nil // do not pin one huge case's buffer
	}
	e.buf = nil
	e.r, e.walker.r = nil, nil
	e.idx = e.idx[:0]
	clear(e.keys[:cap(e.keys)])
	e.keys = e.keys[:0]
	clear(e.path[:cap(e.path)]) // do not keep a failed case's keys alive
	e.path = e.path[:0]
	encoders.Put(e)
}

func (e *encoder) canonical(dst []byte, v any, envelope bool) ([]byte, error) {
	e.buf = dst
	ok := e.value(v, 1) && (!envelope || envelopeProblem(v) == "")
	out := e.buf
	e.buf = nil
	if ok {
		return out, nil
	}
	// Something is wrong; the optimistic pass above visited members in
	// sorted order, so find the error the spec's input-order walk reports.
	e.idx = e.idx[:0]
	return dst, e.validate(v, envelope)
}

// value writes v canonically. It visits members in output (sorted) order and
// so detects whether there is an error but not which one the spec reports;
// it returns false at the first problem.
func (e *encoder) value(v any, level int) bool {
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case bool:
		if x {
			e.buf = append(e.buf, "true"...)
		} else {
			e.buf = append(e.buf, "false"...)
		}
	case string:
		var ok bool
		e.buf, ok = e.r.appendString(e.buf, x)
		return ok
	case int64:
		var ok bool
		e.buf, ok = e.r.appendInt(e.buf, x)
		return ok
	case float64:
		var ok bool
		e.buf, ok = e.r.appendFloat(e.buf, x)
		return ok
	case Object:
		return e.object(x, level)
	case []any:
		if level > e.r.maxDepth {
			return false
		}
		e.buf = append(e.buf, '[')
		for i, el := range x {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if !e.value(el, level+1) {
				return false
			}
		}
		e.buf = append(e.buf, ']')
	case *big.Int:
		if x == nil {
			return false
		}
		var ok bool
		e.buf, ok = e.r.appendBig(e.buf, x)
		return ok
	default:
		return e.convenience(v, level)
	}
	return true
}

// convenience writes the Go types accepted for SDK callers' sake.
func (e *encoder) convenience(v any, level int) bool {
	ok := true
	switch x := v.(type) {
	case int, int8, int16, int32, uint8, uint16, uint32:
		i, _ := intOf(x)
		e.buf, ok = e.r.appendInt(e.buf, i)
	case uint:
		e.buf, ok = e.r.appendUint(e.buf, uint64(x))
	case uint64:
		e.buf, ok = e.r.appendUint(e.buf, x)
	case float32:
		e.buf, ok = e.r.appendFloat(e.buf, float64(x))
	case []string:
		if level > e.r.maxDepth {
			return false
		}
		e.buf = append(e.buf, '[')
		for i, s := range x {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if e.buf, ok = e.r.appendString(e.buf, s); !ok {
				return false
			}
		}
		e.buf = append(e.buf, ']')
	case map[string]any:
		return e.mapObject(x, level)
	case RawObject:
		return e.rawObject(x, level)
	default:
		return false
	}
	return ok
}

// member writes "key":value.
func (e *encoder) member(key string, val any, level int) bool {
	var ok bool
	if e.buf, ok = e.r.appendString(e.buf, key); !ok {
		return false
	}
	e.buf = append(e.buf, ':')
	return e.value(val, level+1)
}

// object writes the members of o sorted by key in the contract's order,
// failing on adjacent equal keys.
func (e *encoder) object(o Object, level int) bool {
	if level > e.r.maxDepth {
		return false
	}
	e.buf = append(e.buf, '{')
	if len(o) == 1 {
		if !e.member(o[0].Key, o[0].Value, level) {
			return false
		}
	} else if len(o) > 1 {
		base := len(e.idx)
		for i := range o {
			e.idx = append(e.idx, int32(i))
		}
		perm := e.idx[base:]
		slices.SortFunc(perm, func(a, b int32) int { return e.r.compareKeys(o[a].Key, o[b].Key) })
		for j, i := range perm {
			if j > 0 {
				if o[i].Key == o[perm[j-1]].Key {
					return false
				}
				e.buf = append(e.buf, ',')
			}
			if !e.member(o[i].Key, o[i].Value, level) {
				return false
			}
		}
		e.idx = e.idx[:base]
	}
	e.buf = append(e.buf, '}')
	return true
}

// mapObject writes a map[string]any, whose keys are unique by construction.
func (e *encoder) mapObject(m map[string]any, level int) bool {
	if level > e.r.maxDepth {
		return false
	}
	base := len(e.keys)
	for k := range m {
		e.keys = append(e.keys, k)
	}
	keys := e.keys[base:]
	slices.SortFunc(keys, e.r.compareKeys)
	e.buf = append(e.buf, '{')
	for j, k := range keys {
		if j > 0 {
			e.buf = append(e.buf, ',')
		}
		if !e.member(k, m[k], level) {
			return false
		}
	}
	e.keys = e.keys[:base]
	e.buf = append(e.buf, '}')
	return true
}

// rawObject writes a RawObject whose keys all turn out to be strings.
func (e *encoder) rawObject(o RawObject, level int) bool {
	if level > e.r.maxDepth {
		return false
	}
	for _, m := range o {
		if _, ok := m.Key.(string); !ok {
			return false
		}
	}
	base := len(e.idx)
	for i := range o {
		e.idx = append(e.idx, int32(i))
	}
	perm := e.idx[base:]
	slices.SortFunc(perm, func(a, b int32) int {
		return e.r.compareKeys(o[a].Key.(string), o[b].Key.(string))
	})
	e.buf = append(e.buf, '{')
	for j, i := range perm {
		if j > 0 {
			if o[i].Key.(string) == o[perm[j-1]].Key.(string) {
				return false
			}
			e.buf = append(e.buf, ',')
		}
		if !e.member(o[i].Key.(string), o[i].Value, level) {
			return false
		}
	}
	e.idx = e.idx[:base]
	e.buf = append(e.buf, '}')
	return true
}

// envelopeProblem says what is wrong with v as a signed value, "" if nothing.
// It assumes the validation walk found nothing (so keys are unique strings).
func envelopeProblem(v any) string {
	var problem string
	seen := 0
	switch x := v.(type) {
	case Object:
		if len(x) != 2 {
			return memberCountProblem(len(x))
		}
		for _, m := range x {
			if problem == "" {
				problem = envelopeMember(m.Key, m.Value, &seen)
			}
		}
	case RawObject:
		if len(x) != 2 {
			return memberCountProblem(len(x))
		}
		for _, m := range x {
			k, _ := m.Key.(string)
			if problem == "" {
				problem = envelopeMember(k, m.Value, &seen)
			}
		}
	case map[string]any:
		if len(x) != 2 {
			return memberCountProblem(len(x))
		}
		for k, val := range x {
			if p := envelopeMember(k, val, &seen); p != "" && (problem == "" || p < problem) {
				problem = p // the smallest, so that the message does not depend on map order
			}
		}
	default:
		return "the top-level value is not an object"
	}
	if problem == "" && seen != 3 {
		problem = "want exactly the members tool_name and args"
	}
	return problem
}

func memberCountProblem(n int) string {
	return "the top-level object has " + strconv.Itoa(n) + " members, want exactly tool_name and args"
}

// envelopeMember checks one member of the top-level object, noting in seen
// which of the two required members it is.
func envelopeMember(key string, val any, seen *int) string {
	switch key {
	case "tool_name":
		if _, ok := val.(string); !ok {
			return "tool_name is not a string"
		}
		*seen |= 1
	case "args":
		if k := kindOf(val); k != kindObject && k != kindMap {
			return "args is not an object"
		}
		*seen |= 2
	default:
		return "unexpected top-level member " + quoteText(key) + ", want exactly tool_name and args"
	}
	return ""
}
