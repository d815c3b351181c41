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
// clear messages over speed, but it allocates only for the error itself; it
// recurses at most the contract's max_depth+1 levels.
func (e *encoder) validate(v any, envelope bool) *Error {
	w := &e.walker
	w.path = w.path[:0]
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

// walker is the validation walk's state: the path to the current value, for
// messages, and scratch space for the duplicate check.
type walker struct {
	r    *rules // the contract's choices
	path []pathStep
	idx  []int32
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
	case nil, bool:
		return nil
	case int64, float64, int, int8, int16, int32, uint, uint8, uint16, uint32, uint64, float32:
		if p := w.r.numberProblem(v); p != "" {
			return w.fail(CodeUnsupported, p)
		}
		return nil
	case *big.Int:
		if x == nil {
			return w.fail(CodeUnsupported, "a nil *big.Int is outside the model")
		}
		if p := w.r.numberProblem(x); p != "" {
			return w.fail(CodeUnsupported, p)
		}
		return nil
	case string:
		return w.str(x, false)
	}
	if k := kindOf(v); k != kindArray && k != kindObject && k != kindMap {
		return w.fail(CodeUnsupported, "a value of Go type "+typeName(v)+" is outside the model")
	}
	if level > w.r.maxDepth {
		return w.fail(CodeTooDeep, "a container nested deeper than "+strconv.Itoa(w.r.maxDepth)+" levels")
	}
	switch x := v.(type) {
	case []any:
		for i, el := range x {
			if err := w.child(pathStep{index: i}, el, level); err != nil {
				return err
			}
		}
	case []string:
		for i, el := range x {
			w.path = append(w.path, pathStep{index: i})
			if err := w.str(el, false); err != nil {
				return err
			}
			w.path = w.path[:len(w.path)-1]
		}
	case Object:
		return w.object(x, level)
	case RawObject:
		return w.rawObject(x, level)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys) // a map has no input order: walk it in output order
		o := make(Object, len(keys))
		for i, k := range keys {
			o[i] = Member{Key: k, Value: x[k]}
		}
		return w.object(o, level)
	}
	return nil
}

// child walks a member's or element's value one level down.
func (w *walker) child(step pathStep, v any, level int) *Error {
	w.path = append(w.path, step)
	if err := w.walk(v, level+1); err != nil {
		return err
	}
	w.path = w.path[:len(w.path)-1]
	return nil
}

// object walks members in input order: key checks, then the duplicate check,
// then the value, member by member (spec section 3, step 1).
func (w *walker) object(o Object, level int) *Error {
	dup := w.firstDuplicate(len(o), func(i int) (string, bool) { return o[i].Key, true })
	for i, m := range o {
		if err := w.key(m.Key, i == dup); err != nil {
			return err
		}
		if err := w.child(pathStep{key: m.Key, index: -1}, m.Value, level); err != nil {
			return err
		}
	}
	return nil
}

// rawObject is object for keys of any type.
func (w *walker) rawObject(o RawObject, level int) *Error {
	dup := w.firstDuplicate(len(o), func(i int) (string, bool) {
		s, ok := o[i].Key.(string)
		return s, ok
	})
	for i, m := range o {
		key, ok := m.Key.(string)
		if !ok {
			return w.fail(CodeNonStringKey, "an object key of Go type "+typeName(m.Key))
		}
		if err := w.key(key, i == dup); err != nil {
			return err
		}
		if err := w.child(pathStep{key: key, index: -1}, m.Value, level); err != nil {
			return err
		}
	}
	return nil
}

// key runs the checks of one string key: its code points, then (dup) the
// duplicate check.
func (w *walker) key(k string, dup bool) *Error {
	if err := w.str(k, true); err != nil {
		return err
	}
	if dup {
		return w.fail(CodeDuplicateKey, "the key "+quoteText(k)+" appears twice")
	}
	return nil
}

func (w *walker) str(s string, isKey bool) *Error {
	code, at, r := stringProblem(s)
	if code == "" {
		return nil
	}
	what := "string value"
	if isKey {
		what = "the key " + quoteText(s)
	}
	if code == CodeLoneSurrogate {
		return w.fail(code, what+" holds the lone surrogate "+codePoint(r)+" at byte "+strconv.Itoa(at))
	}
	return w.fail(code, what+" is not UTF-8 (byte 0x"+hex4(r)[2:]+" at "+strconv.Itoa(at)+")")
}

// firstDuplicate returns the smallest index whose string key equals the key
// of an earlier member, or -1. Keys compare as code point sequences, which
// for WTF-8 strings is byte equality.
func (w *walker) firstDuplicate(n int, keyAt func(int) (string, bool)) int {
	if n <= 16 {
		for i := 1; i < n; i++ {
			ki, ok := keyAt(i)
			if !ok {
				continue
			}
			for j := range i {
				if kj, ok := keyAt(j); ok && kj == ki {
					return i
				}
			}
		}
		return -1
	}
	base := len(w.idx)
	defer func() { w.idx = w.idx[:base] }()
	for i := range n {
		if _, ok := keyAt(i); ok {
			w.idx = append(w.idx, int32(i))
		}
	}
	idx := w.idx[base:]
	slices.SortFunc(idx, func(a, b int32) int {
		ka, _ := keyAt(int(a))
		kb, _ := keyAt(int(b))
		if c := strings.Compare(ka, kb); c != 0 {
			return c
		}
		return int(a - b)
	})
	dup := -1
	for j := 1; j < len(idx); j++ {
		ki, _ := keyAt(int(idx[j]))
		kp, _ := keyAt(int(idx[j-1]))
		if i := int(idx[j]); ki == kp && (dup < 0 || i < dup) {
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

// codePoint writes r as U+XXXX for messages.
func codePoint(r rune) string {
	return "U+" + strings.ToUpper(hex4(r))
}

func hex4(r rune) string {
	return string([]byte{hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf]})
}

// quoteText quotes s as the extended JSON text would, for messages.
func quoteText(s string) string {
	return string(appendTextString(nil, s))
}
