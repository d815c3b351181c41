// Package jsontext writes a case as JSON text, for the workers of the text
// model (docs/adapter-protocol.md, "Version 4"): an SDK that receives a tool
// call's arguments as JSON text and parses them with its own parser. The
// driver spells each case once, here, and sends every text worker of
// protocol 4 the same bytes, whatever its language: the spelling rules
// (docs/your-sdk.md, "The text model") are then written once rather than
// once in each kit, and cannot drift apart between them.
//
// Each case is spelled in one of many equivalent ways, all read back as the
// same value by the spec's reader (docs/canonical-json.md §6): characters
// raw or escaped, numbers in several notations, whitespace between tokens.
// The spelling is a function of the value alone, so that a replay or a
// minimization step sends the same text for the same value, while the same
// value inside different cases is spelled differently.
package jsontext

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// Unspellable says why a value has no JSON text: Reason is
// wire.ReasonUnsupported (bin data, another value outside the spec) or
// wire.ReasonNonStringKey, the only reasons a text worker has.
type Unspellable struct {
	Reason string
	Msg    string // where, for people
}

func (u *Unspellable) Error() string { return u.Reason + ": " + u.Msg }

// Reasons lists every reason of an Unspellable: what a text worker's hello
// declares.
var Reasons = []string{wire.ReasonNonStringKey, wire.ReasonUnsupported}

// Append appends v, a value of the exact model (kit.Exact: what the wire
// decodes), as JSON text in valid UTF-8 (a lone surrogate is always
// escaped), or returns dst as it was and an *Unspellable error for what
// JSON text cannot spell, so that a caller spelling a batch into one
// buffer goes on with the next case. The text of v is the same on every
// call.
func Append(dst []byte, v any) ([]byte, error) {
	w := textWriter{out: dst, s: spellSeed}
	w.space()
	if err := w.value(v); err != nil {
		return dst, err
	}
	w.space()
	return w.out, nil
}

// spellSeed starts the spelling generator (FNV-1a's offset basis).
const spellSeed = 0x811C9DC5

// textWriter writes one case. s is the spelling generator's state: mix
// folds the value's content in as it is written, pick draws a choice.
type textWriter struct {
	out []byte
	s   uint32
}

func (w *textWriter) mix(x uint32) { w.s = (w.s ^ x) * 0x01000193 }

// pick is a choice in [0, n): a Weyl step through murmur3's finalizer.
func (w *textWriter) pick(n uint32) uint32 {
	w.s += 0x9E3779B9
	z := w.s
	z = (z ^ z>>16) * 0x85EBCA6B
	z = (z ^ z>>13) * 0xC2B2AE35
	return (z ^ z>>16) % n
}

// spaces are the whitespace a pick of 10..15 writes between tokens.
var spaces = [...]string{" ", "  ", "\n", "\t", "\r\n", "\n  "}

func (w *textWriter) space() {
	if r := w.pick(16); r >= 10 {
		w.out = append(w.out, spaces[r-10]...)
	}
}

func (w *textWriter) value(v any) *Unspellable {
	switch v := v.(type) {
	case nil:
		w.word(1, "null")
	case bool:
		if v {
			w.word(2, "true")
		} else {
			w.word(3, "false")
		}
	case int64:
		var buf [20]byte
		w.integer(strconv.AppendInt(buf[:0], v, 10))
	case uint64:
		var buf [20]byte
		w.integer(strconv.AppendUint(buf[:0], v, 10))
	case *big.Int:
		w.integer(v.Append(nil, 10))
	case float64:
		w.float(v)
	case string:
		return w.str(v)
	case []any:
		return w.array(v)
	case value.Object:
		return w.object(v)
	case value.RawObject:
		return w.rawObject(v)
	case []byte:
		return &Unspellable{wire.ReasonUnsupported, "bin data has no JSON text"}
	case wire.Unsupported:
		return &Unspellable{wire.ReasonUnsupported, v.Reason}
	default:
		return &Unspellable{wire.ReasonUnsupported, fmt.Sprintf("a %T has no JSON text", v)}
	}
	return nil
}

func (w *textWriter) word(tag uint32, s string) {
	w.mix(tag)
	w.out = append(w.out, s...)
}

// integer writes an integer's decimal digits, its only spelling: any other
// (an exponent, a fraction) makes a float in the spec's reader.
func (w *textWriter) integer(digits []byte) {
	for i := 0; i < len(digits); i++ {
		w.mix(uint32(digits[i]))
	}
	w.out = append(w.out, digits...)
}

func (w *textWriter) array(a []any) *Unspellable {
	w.mix('[')
	w.mix(uint32(len(a)))
	w.out = append(w.out, '[')
	if len(a) == 0 {
		w.space()
	}
	for i, x := range a {
		if i > 0 {
			w.out = append(w.out, ',')
		}
		w.space()
		if err := w.value(x); err != nil {
			return err
		}
		w.space()
	}
	w.out = append(w.out, ']')
	return nil
}

func (w *textWriter) object(o value.Object) *Unspellable {
	w.mix('{')
	w.mix(uint32(len(o)))
	w.out = append(w.out, '{')
	if len(o) == 0 {
		w.space()
	}
	for i, m := range o {
		if err := w.member(i, m.Key, m.Value); err != nil {
			return err
		}
	}
	w.out = append(w.out, '}')
	return nil
}

// rawObject is a map the wire decoded with a key that is not a string: it
// is written up to that key, which JSON text cannot spell.
func (w *textWriter) rawObject(o value.RawObject) *Unspellable {
	w.mix('{')
	w.mix(uint32(len(o)))
	w.out = append(w.out, '{')
	for i, m := range o {
		k, ok := m.Key.(string)
		if !ok {
			return &Unspellable{wire.ReasonNonStringKey, fmt.Sprintf("a %T key has no JSON text", m.Key)}
		}
		if err := w.member(i, k, m.Value); err != nil {
			return err
		}
	}
	w.out = append(w.out, '}')
	return nil
}

// member takes its key as a string, not boxed in an any: a member of an
// Object then costs no allocation.
func (w *textWriter) member(i int, k string, v any) *Unspellable {
	if i > 0 {
		w.out = append(w.out, ',')
	}
	w.space()
	if err := w.str(k); err != nil {
		return err
	}
	w.space()
	w.out = append(w.out, ':')
	w.space()
	if err := w.value(v); err != nil {
		return err
	}
	w.space()
	return nil
}

// shortEscapes are the two-character escapes of the control characters
// that have one.
var shortEscapes = map[rune]byte{'\b': 'b', '\t': 't', '\n': 'n', '\f': 'f', '\r': 'r'}

// str writes a string of WTF-8 (a lone surrogate as its 3-byte form), each
// code point raw or escaped: raw only where the reader maps the byte to the
// same code point, so never a quote, a backslash, a control character or a
// surrogate.
func (w *textWriter) str(s string) *Unspellable {
	w.mix('"')
	w.out = append(w.out, '"')
	for i := 0; i < len(s); {
		c, size := decodeWTF8(s, i)
		if size == 0 {
			return &Unspellable{wire.ReasonUnsupported, fmt.Sprintf("string %q is not WTF-8", short(s))}
		}
		w.mix(uint32(c))
		w.char(c, s[i:i+size])
		i += size
	}
	w.out = append(w.out, '"')
	return nil
}

func (w *textWriter) char(c rune, raw string) {
	switch {
	case c == '"' || c == '\\':
		if w.pick(2) == 0 {
			w.out = append(w.out, '\\', byte(c))
			return
		}
	case c == '/':
		switch w.pick(3) {
		case 0:
			w.out = append(w.out, '/')
			return
		case 1:
			w.out = append(w.out, `\/`...)
			return
		}
	case c < 0x20:
		if e, ok := shortEscapes[c]; ok && w.pick(2) == 0 {
			w.out = append(w.out, '\\', e)
			return
		}
	case 0xD800 <= c && c <= 0xDFFF:
	default:
		if w.pick(8) < 7 {
			w.out = append(w.out, raw...)
			return
		}
	}
	w.escape(c)
}

// escape writes \uXXXX (a surrogate pair past the BMP), its hex digits all
// upper or all lower case.
func (w *textWriter) escape(c rune) {
	hex := "0123456789ABCDEF"
	if w.pick(2) == 1 {
		hex = "0123456789abcdef"
	}
	unit := func(u rune) {
		w.out = append(w.out, '\\', 'u', hex[u>>12&15], hex[u>>8&15], hex[u>>4&15], hex[u&15])
	}
	if c >= 0x10000 {
		c -= 0x10000
		unit(0xD800 + c>>10)
		unit(0xDC00 + c&0x3FF)
		return
	}
	unit(c)
}

// decodeWTF8 is the code point at s[i:] and its size, accepting a
// surrogate's 3-byte form; size 0 for a byte that starts none.
func decodeWTF8(s string, i int) (rune, int) {
	c, size := utf8.DecodeRuneInString(s[i:])
	if c != utf8.RuneError || size != 1 {
		return c, size
	}
	if i+2 < len(s) && s[i] == 0xED && s[i+1]&0xE0 == 0xA0 && s[i+2]&0xC0 == 0x80 {
		return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), 3
	}
	return 0, 0
}

// float writes a float in one of four notations of its shortest decimal
// digits D and exponent X (x = d.ddd × 10^X), each with a fraction or an
// exponent, so that the reader takes it as a float and rounds it back to x.
// NaN and the infinities are the bare tokens of extended JSON (§6): a
// standard parser refuses them, which is a finding about the SDK.
func (w *textWriter) float(x float64) {
	switch {
	case math.IsNaN(x):
		w.word('N', "NaN")
		return
	case math.IsInf(x, 1):
		w.word('I', "Infinity")
		return
	case math.IsInf(x, -1):
		w.word('i', "-Infinity")
		return
	}
	var buf, dbuf [32]byte                              // on the stack: a float costs no allocation
	sci := strconv.AppendFloat(buf[:0], x, 'e', -1, 64) // -d.ddde±XX
	neg := sci[0] == '-'
	if neg {
		sci = sci[1:]
	}
	e := bytes.IndexByte(sci, 'e')
	digits := append(dbuf[:0], sci[0])
	if e > 1 {
		digits = append(digits, sci[2:e]...) // past the point
	}
	exp := 0
	for _, c := range sci[e+2:] {
		exp = exp*10 + int(c-'0')
	}
	if sci[e+1] == '-' {
		exp = -exp
	}
	w.out = appendFloatText(w, w.out, neg, digits, exp)
}

// short keeps a message readable when the value is huge.
func short(s string) string {
	if len(s) <= 40 {
		return s
	}
	return s[:40] + "..."
}
