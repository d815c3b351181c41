// Package zoo is difffuzz's mutant zoo: one-bug implementations of canonical
// JSON (docs/canonical-json.md), each a named, described variation of one
// compact encoder, served as workers by cmd/mutant and hunted by
// cmd/mutanthunt. A mutant the fuzzer does not find in a short run
// marks an edge class, or a context of one, that the generator does not
// reach (issue 14).
//
// Enc is that encoder. Its zero value is the spec, step by step: the
// validation walk of spec section 3 in input order, then the envelope check,
// then the writer of section 4. Every field replaces one step, so that a
// mutant is one field set to a small function (see Mutants). It is test code:
// clear rather than fast, and it agrees with the project's Go implementation
// (package canonjson) on every input, which its tests check.
package zoo

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Enc is a canonical JSON encoder built from replaceable steps; the zero Enc
// follows the spec. Values are those of the kit's exact model.
type Enc struct {
	// Depth is the deepest accepted nesting level; 0 means the spec's 512.
	Depth int
	// FlatObjects makes objects not count as a nesting level.
	FlatObjects bool
	// DepthLast checks the depth after the rest of the walk instead of on
	// entering each container.
	DepthLast bool
	// Lone says whether the walk rejects the surrogate r found in a key (key)
	// or a string value; nil rejects every one.
	Lone func(r rune, key bool) bool
	// Dup returns the index of the first key equal to an earlier one, or -1;
	// nil compares every pair.
	Dup func(keys []string) int
	// Checks is the order of each member's checks: k (the key's code
	// points), d (the duplicate check), v (the member's value). "" is "kdv".
	Checks string
	// KeysFirst runs the key and duplicate checks of all an object's members
	// before walking any of their values.
	KeysFirst bool
	// SortedWalk walks members in key order instead of input order.
	SortedWalk bool
	// EnvelopeFirst checks the envelope before the walk.
	EnvelopeFirst bool
	// Envelope says whether the top-level object's members make a signed
	// value; nil is the spec's check (SpecEnvelope).
	Envelope func(ms []Member) bool
	// Key turns a key that is not a string into one; nil (or false) rejects
	// it with non_string_key.
	Key func(k any) (string, bool)
	// NullUnsupported writes a value outside the model as null.
	NullUnsupported bool

	// Rewrite replaces each value before it is written (after the walk
	// accepted the whole); nil keeps it.
	Rewrite func(v any) any
	// Order returns the output order of an object's keys at a nesting level
	// (the top-level object is level 1); nil is code point order.
	Order func(keys []string, level int) []int
	// String writes a quoted string, a key if key; nil is e.Quote.
	String func(e *Enc, dst []byte, s string, key bool) []byte
	// Char writes one code point of a string; nil is Escape.
	Char func(dst []byte, r rune) []byte
	// Float writes a float; nil is ECMA.
	Float func(dst []byte, f float64) []byte
	// Int writes an int64; nil is decimal.
	Int func(dst []byte, i int64) []byte
	// Big writes an integer outside int64; nil is decimal. An error is an
	// internal failure.
	Big func(dst []byte, b *big.Int) ([]byte, error)
	// Text checks the whole canonical text; an error is an internal failure.
	Text func(text []byte) error
}

// Member is one member of an object, whatever the type of its key.
type Member struct {
	Key   any
	Value any
}

// Canonical is e as a kit.Func: the canonical text of the signed value v
// appended to dst, or a rejection carrying a spec code.
func (e *Enc) Canonical(dst []byte, v any) ([]byte, error) {
	if e.EnvelopeFirst {
		if err := e.envelope(v); err != nil {
			return dst, err
		}
	}
	if err := e.walk(v, 1); err != nil {
		return dst, err
	}
	if e.DepthLast && depthOf(v) > e.depth() {
		return dst, reject(canonjson.CodeTooDeep)
	}
	if !e.EnvelopeFirst {
		if err := e.envelope(v); err != nil {
			return dst, err
		}
	}
	out, err := e.write(dst, v, 1)
	if err == nil && e.Text != nil {
		err = e.Text(out[len(dst):])
	}
	if err != nil {
		return dst, err
	}
	return out, nil
}

func reject(c canonjson.Code) error { return &kit.SpecError{Code: string(c), Message: "mutant"} }

func (e *Enc) depth() int {
	if e.Depth == 0 {
		return canonjson.MaxDepth
	}
	return e.Depth
}

// membersOf returns an object's members, or false for any other value.
func membersOf(v any) ([]Member, bool) {
	switch x := v.(type) {
	case canonjson.Object:
		ms := make([]Member, len(x))
		for i, m := range x {
			ms[i] = Member{m.Key, m.Value}
		}
		return ms, true
	case canonjson.RawObject:
		ms := make([]Member, len(x))
		for i, m := range x {
			ms[i] = Member{m.Key, m.Value}
		}
		return ms, true
	}
	return nil, false
}

// walk is the validation walk of spec section 3, step 1.
func (e *Enc) walk(v any, level int) error {
	switch x := v.(type) {
	case nil, bool, int64, float64, *big.Int:
		return nil
	case string:
		return e.checkString(x, false)
	case []any:
		if !e.DepthLast && level > e.depth() {
			return reject(canonjson.CodeTooDeep)
		}
		for _, el := range x {
			if err := e.walk(el, level+1); err != nil {
				return err
			}
		}
		return nil
	}
	ms, ok := membersOf(v)
	if !ok {
		if outside(v) && e.NullUnsupported {
			return nil
		}
		return reject(canonjson.CodeUnsupported)
	}
	if !e.DepthLast && level > e.depth() {
		return reject(canonjson.CodeTooDeep)
	}
	child := level + 1
	if e.FlatObjects {
		child = level
	}
	return e.walkMembers(ms, child)
}

// walkMembers runs each member's checks in order (the spec: key, duplicate,
// value), members in input order.
func (e *Enc) walkMembers(ms []Member, child int) error {
	if e.SortedWalk {
		ms = slices.Clone(ms)
		slices.SortStableFunc(ms, func(a, b Member) int { return strings.Compare(keyText(a.Key), keyText(b.Key)) })
	}
	var keys []string // the string keys before the first that is not one
	for _, m := range ms {
		k, ok := e.keyOf(m.Key)
		if !ok {
			break
		}
		keys = append(keys, k)
	}
	dup := e.dup(keys)
	checks := e.Checks
	if checks == "" {
		checks = "kdv"
	}
	if e.KeysFirst {
		if err := e.checkMembers(ms, keys, dup, "kd", child); err != nil {
			return err
		}
		checks = "v"
	}
	return e.checkMembers(ms, keys, dup, checks, child)
}

// checkMembers runs checks on each member in turn; keys are the string keys
// before the first that is not one, dup the index of the first duplicate.
func (e *Enc) checkMembers(ms []Member, keys []string, dup int, checks string, child int) error {
	for i, m := range ms {
		if i == len(keys) {
			return reject(canonjson.CodeNonStringKey)
		}
		for _, c := range checks {
			var err error
			switch c {
			case 'k':
				err = e.checkString(keys[i], true)
			case 'd':
				if i == dup {
					err = reject(canonjson.CodeDuplicateKey)
				}
			case 'v':
				err = e.walk(m.Value, child)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func keyText(k any) string {
	s, _ := k.(string)
	return s
}

func (e *Enc) keyOf(k any) (string, bool) {
	if s, ok := k.(string); ok {
		return s, true
	}
	if e.Key != nil {
		return e.Key(k)
	}
	return "", false
}

func (e *Enc) dup(keys []string) int {
	if e.Dup != nil {
		return e.Dup(keys)
	}
	return FirstDup(keys)
}

// FirstDup is the spec's duplicate check: the index of the first key equal
// to any earlier one, or -1.
func FirstDup(keys []string) int {
	seen := make(map[string]bool, len(keys))
	for i, k := range keys {
		if seen[k] {
			return i
		}
		seen[k] = true
	}
	return -1
}

// checkString rejects a string holding a lone surrogate (carried in WTF-8).
func (e *Enc) checkString(s string, key bool) error {
	for i := 0; i < len(s); {
		r, n := decode(s, i)
		if utf16.IsSurrogate(r) && (e.Lone == nil || e.Lone(r, key)) {
			return reject(canonjson.CodeLoneSurrogate)
		}
		i += n
	}
	return nil
}

// decode returns the code point at s[i:] and its length, reading the 3-byte
// WTF-8 form of a surrogate as the surrogate.
func decode(s string, i int) (rune, int) {
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n == 1 && i+2 < len(s) && s[i] == 0xED && s[i+1]&0xE0 == 0xA0 {
		return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), 3
	}
	return r, n
}

// depthOf is the spec's depth of v: 0 for a scalar, 1 + the deepest child
// for a container.
func depthOf(v any) int {
	var kids []any
	if a, ok := v.([]any); ok {
		kids = a
	} else if ms, ok := membersOf(v); ok {
		for _, m := range ms {
			kids = append(kids, m.Value)
		}
	} else {
		return 0
	}
	d := 0
	for _, k := range kids {
		d = max(d, depthOf(k))
	}
	return d + 1
}

func (e *Enc) envelope(v any) error {
	ms, ok := membersOf(v)
	check := e.Envelope
	if check == nil {
		check = SpecEnvelope
	}
	if !ok || !check(ms) {
		return reject(canonjson.CodeBadEnvelope)
	}
	return nil
}

// SpecEnvelope is the spec's envelope: exactly tool_name (a string) and args
// (an object), in either order.
func SpecEnvelope(ms []Member) bool {
	return EnvelopeWith(ms, isString, isObject, false)
}

// EnvelopeWith checks an envelope whose tool_name and args pass their tests;
// extra allows members other than those two.
func EnvelopeWith(ms []Member, toolOK, argsOK func(any) bool, extra bool) bool {
	tool, args := 0, 0
	for _, m := range ms {
		switch {
		case m.Key == "tool_name" && toolOK(m.Value):
			tool++
		case m.Key == "args" && argsOK(m.Value):
			args++
		case !extra:
			return false
		}
	}
	return tool == 1 && args == 1
}

func isString(v any) bool { _, ok := v.(string); return ok }
func isObject(v any) bool { _, ok := membersOf(v); return ok }

// write is the writer of spec section 4.
func (e *Enc) write(dst []byte, v any, level int) ([]byte, error) {
	if e.Rewrite != nil {
		v = e.Rewrite(v)
	}
	switch x := v.(type) {
	case nil, wire.Unsupported, []byte: // outside the model only with NullUnsupported
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case int64:
		if e.Int != nil {
			return e.Int(dst, x), nil
		}
		return strconv.AppendInt(dst, x, 10), nil
	case *big.Int:
		if e.Big != nil {
			return e.Big(dst, x)
		}
		return x.Append(dst, 10), nil
	case float64:
		if e.Float != nil {
			return e.Float(dst, x), nil
		}
		return ECMA.Append(dst, x), nil
	case string:
		return e.str(dst, x, false), nil
	case []any:
		dst = append(dst, '[')
		for i, el := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = e.write(dst, el, level+1); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	}
	ms, _ := membersOf(v)
	return e.object(dst, ms, level)
}

func (e *Enc) object(dst []byte, ms []Member, level int) ([]byte, error) {
	keys := make([]string, len(ms))
	for i, m := range ms {
		keys[i], _ = e.keyOf(m.Key) // the walk accepted every key
	}
	var perm []int
	if e.Order != nil {
		perm = e.Order(keys, level)
	} else {
		perm = SortBy(keys, strings.Compare)
	}
	dst = append(dst, '{')
	for j, i := range perm {
		if j > 0 {
			dst = append(dst, ',')
		}
		dst = append(e.str(dst, keys[i], true), ':')
		var err error
		if dst, err = e.write(dst, ms[i].Value, level+1); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// SortBy returns the indexes of keys in the order cmp sorts them (stable:
// keys cmp calls equal keep their input order).
func SortBy(keys []string, cmp func(a, b string) int) []int {
	perm := make([]int, len(keys))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int { return cmp(keys[a], keys[b]) })
	return perm
}

func (e *Enc) str(dst []byte, s string, key bool) []byte {
	if e.String != nil {
		return e.String(e, dst, s, key)
	}
	return e.Quote(dst, s)
}

// Quote writes s quoted, each code point through e.Char.
func (e *Enc) Quote(dst []byte, s string) []byte {
	return e.QuoteWith(dst, s, func(dst []byte, r rune, _, _ int) []byte { return e.char(dst, r) })
}

// QuoteWith writes s quoted, each code point through char, which also gets
// the code point's index in s and its byte offset.
func (e *Enc) QuoteWith(dst []byte, s string, char func(dst []byte, r rune, index, at int) []byte) []byte {
	dst = append(dst, '"')
	for i, at := 0, 0; at < len(s); i++ {
		r, n := decode(s, at)
		dst = char(dst, r, i, at)
		at += n
	}
	return append(dst, '"')
}

func (e *Enc) char(dst []byte, r rune) []byte {
	if e.Char != nil {
		return e.Char(dst, r)
	}
	return Escape(dst, r)
}

const hexDigits = "0123456789abcdef"

// Escape writes one code point as spec section 4.3 does.
func Escape(dst []byte, r rune) []byte {
	switch r {
	case '"':
		return append(dst, '\\', '"')
	case '\\':
		return append(dst, '\\', '\\')
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	switch {
	case r >= 0x20 && r < 0x7f:
		return append(dst, byte(r))
	case r < 0x10000:
		return AppendU(dst, r)
	}
	hi, lo := utf16.EncodeRune(r)
	return AppendU(AppendU(dst, hi), lo)
}

// AppendU writes \uXXXX with four lower-case hex digits.
func AppendU(dst []byte, u rune) []byte {
	return append(dst, '\\', 'u', hexDigits[u>>12&0xf], hexDigits[u>>8&0xf], hexDigits[u>>4&0xf], hexDigits[u&0xf])
}

// Layout is the float layout of spec section 4.5 with its thresholds and
// spellings as parameters, so that float mutants are one changed parameter.
type Layout struct {
	Hi, Lo int  // fixed notation for Lo < n <= Hi (the spec: 21, -6)
	NoPlus bool // no '+' in a positive exponent
	Upper  bool // 'E'
	Pad2   bool // exponents of at least two digits
}

// ECMA is the spec's layout.
var ECMA = Layout{Hi: 21, Lo: -6}

// Digits returns the shortest round-trip digits of a finite, non-zero |x|
// and n such that |x| = 0.digits × 10^n.
func Digits(x float64) (digits string, n int) {
	b := strconv.AppendFloat(nil, math.Abs(x), 'e', -1, 64)
	m, exp, _ := strings.Cut(string(b), "e")
	e, _ := strconv.Atoi(exp)
	return strings.Replace(m, ".", "", 1), e + 1
}

// Append writes x in the layout.
func (l Layout) Append(dst []byte, x float64) []byte {
	switch {
	case x != x:
		return append(dst, "NaN"...)
	case math.IsInf(x, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(x, -1):
		return append(dst, "-Infinity"...)
	case x == 0:
		return append(dst, '0')
	case x < 0:
		dst = append(dst, '-')
	}
	d, n := Digits(x)
	k := len(d)
	switch {
	case k <= n && n <= l.Hi:
		return append(append(dst, d...), strings.Repeat("0", n-k)...)
	case 0 < n && n <= l.Hi:
		return append(append(append(dst, d[:n]...), '.'), d[n:]...)
	case l.Lo < n && n <= 0:
		return append(append(append(dst, "0."...), strings.Repeat("0", -n)...), d...)
	}
	dst = append(dst, d[0])
	if k > 1 {
		dst = append(append(dst, '.'), d[1:]...)
	}
	if l.Upper {
		dst = append(dst, 'E')
	} else {
		dst = append(dst, 'e')
	}
	e := n - 1
	switch {
	case e < 0:
		dst = append(dst, '-')
		e = -e
	case !l.NoPlus:
		dst = append(dst, '+')
	}
	if l.Pad2 && e < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, int64(e), 10)
}

// outside reports whether v is a value outside the model as a worker
// decodes one: bin data, or another wire value it cannot hold.
func outside(v any) bool {
	switch v.(type) {
	case wire.Unsupported, []byte:
		return true
	}
	return false
}
