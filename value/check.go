package value

import (
	"math/big"
	"slices"
	"strconv"
)

// Code is one of the spec's error codes (docs/canonical-json.md, section 3):
// the part of a rejection that every implementation must agree on.
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

// Codes lists the error codes in the order of the spec's table.
var Codes = []Code{CodeTooDeep, CodeNonStringKey, CodeLoneSurrogate, CodeDuplicateKey, CodeUnsupported, CodeBadEnvelope}

// Error is a value's problem as the spec's walk finds it. Code is what
// implementations are compared on; Msg says where the problem is, for people.
type Error struct {
	Code Code
	Msg  string
}

// Error gives the code first, so that logs and reports can be grepped by it.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Msg }

// Check runs the walk of spec section 3, step 1 over v (pre-order, members
// and elements in input order) and returns the first problem it finds, or
// nil: the error any implementation must reject v with, v being signed or a
// fragment of a signed value (whose levels then count from v). It is written
// from the spec alone and shares no code with an implementation under test,
// so that the harness's idea of the domain cannot bend with one of them.
// It recurses at most MaxDepth+1 levels.
func Check(v any) *Error {
	var c checker
	return c.walk(v, 1)
}

// CheckSigned is Check for a signed value: the walk, then (only if the walk
// found nothing) the envelope of spec section 3, step 2.
func CheckSigned(v any) *Error {
	if err := Check(v); err != nil {
		return err
	}
	if p := envelopeProblem(v); p != "" {
		return &Error{Code: CodeBadEnvelope, Msg: p}
	}
	return nil
}

// Problems is every error code the walk of spec section 3 finds in v, a
// signed value, and then its envelope's, each once, in the order of Codes:
// what an input out of the domain in several ways breaks. CheckSigned
// gives the first of them, the one every implementation must answer with;
// the others tell which rule an implementation that accepts v does not keep
// (a repeated key whose first value holds a lone surrogate, accepted by an
// SDK that keeps the last of a repeated key). The walk goes on past a
// problem, but not into what it cannot read: the members after a key that
// is not a string, the levels past MaxDepth. A top-level key that repeats
// is the duplicate's problem, not the envelope's: the envelope is read with
// the last member of each key.
func Problems(v any) []Code {
	c := checker{found: map[Code]bool{}}
	c.walk(v, 1)
	if !c.found[CodeNonStringKey] && envelopeProblem(lastOfEach(v)) != "" {
		c.found[CodeBadEnvelope] = true
	}
	var out []Code
	for _, code := range Codes {
		if c.found[code] {
			out = append(out, code)
		}
	}
	return out
}

// lastOfEach is v with the last member of each key of its top-level
// object, in the order the keys first appear; v itself when it is no
// object with a repeated key. Its keys are strings (Problems asks only
// then).
func lastOfEach(v any) any {
	var members []Member
	switch x := v.(type) {
	case Object:
		members = x
	case RawObject:
		for _, m := range x {
			members = append(members, Member{Key: m.Key.(string), Value: m.Value})
		}
	default:
		return v
	}
	var out Object
	for _, m := range members {
		k := m.Key
		if i := slices.IndexFunc(out, func(o Member) bool { return o.Key == k }); i >= 0 {
			out[i].Value = m.Value
			continue
		}
		out = append(out, Member{Key: k, Value: m.Value})
	}
	return out
}

// checker is the walk's path to the current value, for messages, which are
// only written on failure: the minimizer checks every node of a tree.
type checker struct {
	path []step
	// found, when set, collects each problem's code, and the walk goes on
	// past it (Problems).
	found map[Code]bool
}

// step is one level of the path: an element's index, or a member's key.
type step struct {
	key   string
	index int // -1 for a key
}

func (c *checker) fail(code Code, msg string) *Error {
	if c.found != nil {
		c.found[code] = true
		return nil
	}
	b := append([]byte(msg), " at $"...)
	for _, s := range c.path {
		b = append(b, '[')
		if s.index >= 0 {
			b = strconv.AppendInt(b, int64(s.index), 10)
		} else {
			b = appendTextString(b, s.key)
		}
		b = append(b, ']')
	}
	return &Error{Code: code, Msg: string(b)}
}

func (c *checker) walk(v any, level int) *Error {
	switch x := v.(type) {
	case *big.Int:
		if x == nil {
			return c.fail(CodeUnsupported, "a nil *big.Int is outside the model")
		}
		return nil
	case string:
		return c.str(x, false)
	}
	switch kindOf(v) {
	case kindNull, kindBool, kindInt, kindFloat:
		return nil
	case kindOther:
		return c.fail(CodeUnsupported, "a value of Go type "+typeName(v)+" is outside the model")
	}
	if level > MaxDepth {
		return c.fail(CodeTooDeep, "a container nested deeper than "+strconv.Itoa(MaxDepth)+" levels")
	}
	switch x := v.(type) {
	case []any:
		for i, el := range x {
			if err := c.child(step{index: i}, el, level); err != nil {
				return err
			}
		}
	case []string:
		for i, el := range x {
			if err := c.child(step{index: i}, el, level); err != nil {
				return err
			}
		}
	case Object:
		return c.object(len(x), func(i int) (string, bool) { return x[i].Key, true },
			func(i int) any { return x[i].Key }, func(i int) any { return x[i].Value }, level)
	case RawObject:
		return c.object(len(x), func(i int) (string, bool) { k, ok := x[i].Key.(string); return k, ok },
			func(i int) any { return x[i].Key }, func(i int) any { return x[i].Value }, level)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys) // a map has no input order: walk it in output order
		return c.object(len(keys), func(i int) (string, bool) { return keys[i], true },
			func(i int) any { return keys[i] }, func(i int) any { return x[keys[i]] }, level)
	}
	return nil
}

// child walks an element's or a member's value one level down.
func (c *checker) child(s step, v any, level int) *Error {
	c.path = append(c.path, s)
	if err := c.walk(v, level+1); err != nil {
		return err
	}
	c.path = c.path[:len(c.path)-1]
	return nil
}

// object checks member by member, in input order: the key is a string, its
// code points, it does not repeat an earlier key; then the member's value.
// keyAt gives member i's key (ok false if it is not a string, rawKeyAt then
// gives it for the message), valueAt its value. Keys compare as code point
// sequences, which for WTF-8 strings is byte equality.
func (c *checker) object(n int, keyAt func(int) (string, bool), rawKeyAt, valueAt func(int) any, level int) *Error {
	var seen map[string]bool // past a few members; below, a scan
	for i := range n {
		key, ok := keyAt(i)
		if !ok {
			if err := c.fail(CodeNonStringKey, "an object key of Go type "+typeName(rawKeyAt(i))); err != nil {
				return err
			}
			return nil // Problems: the keys that follow are not comparable
		}
		if err := c.str(key, true); err != nil {
			return err
		}
		if repeats(key, i, keyAt, &seen) {
			if err := c.fail(CodeDuplicateKey, "the key "+quoteText(key)+" appears twice"); err != nil {
				return err
			}
		}
		if err := c.child(step{key: key, index: -1}, valueAt(i), level); err != nil {
			return err
		}
	}
	return nil
}

// repeats reports whether key, member i's, is the key of an earlier member
// (all of which are strings, or the walk would have stopped).
func repeats(key string, i int, keyAt func(int) (string, bool), seen *map[string]bool) bool {
	if i < 16 {
		for j := range i {
			if k, _ := keyAt(j); k == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool)
		for j := range i {
			k, _ := keyAt(j)
			(*seen)[k] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}

// str checks a string's code points: a lone surrogate, or a byte that is not
// even WTF-8 (outside the model).
func (c *checker) str(s string, isKey bool) *Error {
	code, at, r := stringProblem(s)
	if code == "" {
		return nil
	}
	what := "string value"
	if isKey {
		what = "the key " + quoteText(s)
	}
	if code == CodeLoneSurrogate {
		return c.fail(code, what+" holds the lone surrogate "+codePoint(r)+" at byte "+strconv.Itoa(at))
	}
	return c.fail(code, what+" is not UTF-8 (byte 0x"+hex4(r)[2:]+" at "+strconv.Itoa(at)+")")
}

// envelopeProblem says what is wrong with v as a signed value, "" if
// nothing: an object of exactly the members tool_name, a string, and args,
// an object, in either order. It assumes Check found nothing.
func envelopeProblem(v any) string {
	var keys []any
	var vals []any
	switch x := v.(type) {
	case Object:
		for _, m := range x {
			keys, vals = append(keys, m.Key), append(vals, m.Value)
		}
	case RawObject:
		for _, m := range x {
			keys, vals = append(keys, m.Key), append(vals, m.Value)
		}
	case map[string]any:
		for k, val := range x {
			keys, vals = append(keys, k), append(vals, val)
		}
	default:
		return "the top-level value is not an object"
	}
	if len(keys) != 2 {
		return "the top-level object has " + strconv.Itoa(len(keys)) + " members, want exactly tool_name and args"
	}
	problem := ""
	for i, k := range keys {
		p := envelopeMember(k.(string), vals[i])
		if p != "" && (problem == "" || p < problem) {
			problem = p // the smallest, so that the message does not depend on map order
		}
	}
	return problem
}

func envelopeMember(key string, val any) string {
	switch key {
	case "tool_name":
		if _, ok := val.(string); !ok {
			return "tool_name is not a string"
		}
	case "args":
		if k := kindOf(val); k != kindObject && k != kindMap {
			return "args is not an object"
		}
	default:
		return "unexpected top-level member " + quoteText(key) + ", want exactly tool_name and args"
	}
	return ""
}
