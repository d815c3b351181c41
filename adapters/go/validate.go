package canonjson

import (
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// validate runs the validation walk of spec section 3 in input order and
// returns the first error it finds, then (if asked) the envelope error. It is
// only run once the optimistic encoder has seen a problem, so it favours
// clear messages over speed; it still recurses at most MaxDepth+1 levels.
func validate(v any, envelope bool) *Error {
	w := walker{}
	if err := w.walk(v, 1); err != nil {
		return err
	}
	if envelope {
		if p := envelopeProblem(v); p != "" {
			return &Error{Code: CodeBadEnvelope, Msg: p}
		}
	}
	// The encoder and the walk disagree: a bug in this package.
	return &Error{Code: CodeUnsupported, Msg: "internal error: the encoder rejected a value the validation walk accepts"}
}

// walker tracks the path to the current value for error messages.
type walker struct {
	path []pathStep
}

type pathStep struct {
	key   string
	index int // -1 for a key
}

func (w *walker) fail(code Code, msg string) *Error {
	b := []byte(msg)
	b = append(b, " at $"...)
	for _, s := range w.path {
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

func (w *walker) walk(v any, level int) *Error {
	switch x := v.(type) {
	case nil, bool, int64, float64, int, int8, int16, int32, uint, uint8, uint16, uint32, uint64, float32:
		return nil
	case *big.Int:
		if x == nil {
			return w.fail(CodeUnsupported, "a nil *big.Int is outside the model")
		}
		return nil
	case string:
		return w.str(x, "string value")
	}
	if k := kindOf(v); k != kindArray && k != kindObject && k != kindMap {
		return w.fail(CodeUnsupported, "a value of Go type "+typeName(v)+" is outside the model")
	}
	if level > MaxDepth {
		return w.fail(CodeTooDeep, "a container nested deeper than "+strconv.Itoa(MaxDepth)+" levels")
	}
	switch x := v.(type) {
	case []any:
		for i, el := range x {
			if err := w.elem(i, el, level); err != nil {
				return err
			}
		}
	case []string:
		for i, el := range x {
			if err := w.elem(i, el, level); err != nil {
				return err
			}
		}
	case Object:
		return w.members(len(x), func(i int) (any, any) { return x[i].Key, x[i].Value }, level)
	case RawObject:
		return w.members(len(x), func(i int) (any, any) { return x[i].Key, x[i].Value }, level)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys) // a map has no input order: walk it in output order
		return w.members(len(keys), func(i int) (any, any) { return keys[i], x[keys[i]] }, level)
	}
	return nil
}

func (w *walker) elem(i int, v any, level int) *Error {
	w.path = append(w.path, pathStep{index: i})
	err := w.walk(v, level+1)
	w.path = w.path[:len(w.path)-1]
	return err
}

func (w *walker) str(s, what string) *Error {
	code, at, r := stringProblem(s)
	switch code {
	case CodeLoneSurrogate:
		return w.fail(code, what+" holds the lone surrogate U+"+strings.ToUpper(hex4(r))+" at byte "+strconv.Itoa(at))
	case CodeUnsupported:
		return w.fail(code, what+" is not UTF-8 (byte 0x"+hex4(r)[2:]+" at "+strconv.Itoa(at)+")")
	}
	return nil
}

// members walks an object's members in input order: key checks, then the
// duplicate check, then the value, member by member (spec section 3, step 1).
func (w *walker) members(n int, member func(int) (any, any), level int) *Error {
	dup := firstDuplicate(n, member)
	for i := 0; i < n; i++ {
		k, v := member(i)
		key, ok := k.(string)
		if !ok {
			return w.fail(CodeNonStringKey, "an object key of Go type "+typeName(k))
		}
		if err := w.str(key, "the key "+quoteText(key)); err != nil {
			return err
		}
		if i == dup {
			return w.fail(CodeDuplicateKey, "the key "+quoteText(key)+" appears twice")
		}
		w.path = append(w.path, pathStep{key: key, index: -1})
		err := w.walk(v, level+1)
		w.path = w.path[:len(w.path)-1]
		if err != nil {
			return err
		}
	}
	return nil
}

// firstDuplicate returns the smallest index whose string key equals the key
// of an earlier member, or -1. Keys compare as code point sequences, which
// for WTF-8 strings is byte equality.
func firstDuplicate(n int, member func(int) (any, any)) int {
	keys := make([]string, n)
	idx := make([]int, 0, n)
	for i := range n {
		k, _ := member(i)
		if s, ok := k.(string); ok {
			keys[i] = s
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := strings.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		return a - b
	})
	dup := -1
	for j := 1; j < len(idx); j++ {
		if i := idx[j]; keys[i] == keys[idx[j-1]] && (dup < 0 || i < dup) {
			dup = i
		}
	}
	return dup
}

func typeName(v any) string {
	if v == nil {
		return "nil"
	}
	return reflect.TypeOf(v).String()
}

func hex4(r rune) string {
	return string([]byte{hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf]})
}

// quoteText quotes s as the extended JSON text would, for messages.
func quoteText(s string) string {
	return string(appendTextString(nil, s))
}
