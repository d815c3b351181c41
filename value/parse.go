package value

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Limits of the extended JSON reader (spec section 6). They bound the memory
// and the time a hostile corpus file or bug report can cost; the nesting limit
// is above MaxDepth so that too_deep inputs stay expressible.
const (
	MaxTextDepth = 1000
	MaxTextSize  = 64 << 20
)

// SyntaxError reports malformed extended JSON text where a person can find
// it: Line and Col are 1-based (Col counts characters, as editors do), Offset
// is the 0-based byte offset.
type SyntaxError struct {
	Line, Col, Offset int
	Msg               string
}

// Error puts the position first, the way editors and compilers report it.
func (e *SyntaxError) Error() string {
	return "line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Col) + ": " + e.Msg
}

// MaxTextIntDigits bounds the digits of an integer in extended JSON text:
// decimal conversion is quadratic, and a 64 MiB integer in a hostile bug
// report would stall the reader for minutes (spec §6 allows the bound).
const MaxTextIntDigits = 100_000

// Parse reads one value of extended JSON text (spec section 6; surrounding
// whitespace allowed) into the value model: integers as int64, or *big.Int
// outside int64; numbers with a fraction or exponent as float64 (overflow
// gives ±Inf, as the spec reads them); NaN, Infinity, -Infinity; objects as
// Object with order and duplicates kept; \u escapes of lone surrogates as
// WTF-8, escaped pairs as the astral character. Errors are *SyntaxError. It
// uses an explicit stack, so depth costs heap, not goroutine stack.
func Parse(data []byte) (any, error) {
	if len(data) > MaxTextSize {
		return nil, &SyntaxError{Line: 1, Col: 1, Msg: "the text is " + strconv.Itoa(len(data)) +
			" bytes, over the limit of " + strconv.Itoa(MaxTextSize)}
	}
	p := parser{data: data}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, p.errAt(0, "unexpected UTF-8 byte order mark")
	}
	v, err := p.run()
	if err != nil {
		return nil, err
	}
	return v, nil
}

type parser struct {
	data    []byte
	pos     int
	stack   []frame
	scratch []byte
}

// frame is an open container: an object (with the key whose value is being
// read) or an array.
type frame struct {
	isObj bool
	arr   []any
	obj   Object
	key   string
	bin   bool // the first key is BinKey, spelt without escapes
}

func (p *parser) run() (any, error) {
	for {
		v, opened, err := p.valueStart()
		if err != nil {
			return nil, err
		}
		if opened {
			continue
		}
		for done := false; !done; {
			if len(p.stack) == 0 {
				p.skipSpace()
				if p.pos < len(p.data) {
					return nil, p.errAt(p.pos, "invalid character "+p.describe(p.pos)+" after the top-level value")
				}
				return v, nil
			}
			v, done, err = p.afterElement(v)
			if err != nil {
				return nil, err
			}
		}
	}
}

// afterElement stores a finished value in the innermost container and reads
// what follows it: ',' (done: the next element is to be read) or the closing
// bracket (the container is finished and returned as the next value).
func (p *parser) afterElement(v any) (any, bool, error) {
	top := &p.stack[len(p.stack)-1]
	if top.isObj {
		top.obj = append(top.obj, Member{Key: top.key, Value: v})
	} else {
		top.arr = append(top.arr, v)
	}
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, false, p.errAt(p.pos, "unexpected end of input")
	}
	c := p.data[p.pos]
	switch {
	case c == ',':
		p.pos++
		if top.isObj {
			return nil, true, p.objectKey()
		}
		return nil, true, nil
	case top.isObj && c == '}':
		p.pos++
		v, err := p.pop()
		return v, false, err
	case !top.isObj && c == ']':
		p.pos++
		v, err := p.pop()
		return v, false, err
	case top.isObj:
		return nil, false, p.errAt(p.pos, "invalid character "+p.describe(p.pos)+" in object, expecting ',' or '}'")
	}
	return nil, false, p.errAt(p.pos, "invalid character "+p.describe(p.pos)+" in array, expecting ',' or ']'")
}

// pop ends the innermost container, which the byte before p.pos closed,
// and returns it; an object of the one member BinKey, spelt so, is bin
// data.
func (p *parser) pop() (any, error) {
	f := p.stack[len(p.stack)-1]
	p.stack[len(p.stack)-1] = frame{}
	p.stack = p.stack[:len(p.stack)-1]
	if f.isObj {
		if f.bin && len(f.obj) == 1 {
			return p.bin(f.obj[0].Value)
		}
		if f.obj == nil {
			return Object{}, nil
		}
		return f.obj, nil
	}
	if f.arr == nil {
		return []any{}, nil
	}
	return f.arr, nil
}

// bin decodes the value of a {"$bin": ...} object.
func (p *parser) bin(v any) (any, error) {
	s, ok := v.(string)
	if !ok {
		return nil, p.errAt(p.pos-1, `bin data {"`+BinKey+`": ...} wants a string of base64 (an object of that one member spells its key "\u0024bin")`)
	}
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil {
		return nil, p.errAt(p.pos-1, `bin data {"`+BinKey+`": ...}: `+err.Error())
	}
	return b, nil
}

// valueStart reads a scalar, or opens a container (opened) and positions the
// parser at its first element, or reads an empty container whole.
func (p *parser) valueStart() (v any, opened bool, err error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, false, p.errAt(p.pos, "unexpected end of input")
	}
	switch c := p.data[p.pos]; c {
	case '{', '[':
		if len(p.stack) >= MaxTextDepth {
			return nil, false, p.errAt(p.pos, "nesting deeper than "+strconv.Itoa(MaxTextDepth)+" levels")
		}
		p.stack = append(p.stack, frame{isObj: c == '{'})
		p.pos++
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == c+2 { // '}' and ']' are '{'+2 and '['+2
			p.pos++
			v, err := p.pop()
			return v, false, err
		}
		if c == '{' {
			return nil, true, p.objectKey()
		}
		return nil, true, nil
	case '"':
		s, err := p.str()
		return s, false, err
	case 't':
		return p.literal("true", true)
	case 'f':
		return p.literal("false", false)
	case 'n':
		return p.literal("null", nil)
	case 'N':
		return p.literal("NaN", math.NaN())
	case 'I':
		return p.literal("Infinity", math.Inf(1))
	}
	c := p.data[p.pos]
	if c == '-' || '0' <= c && c <= '9' {
		v, err := p.number()
		return v, false, err
	}
	return nil, false, p.errAt(p.pos, "invalid character "+p.describe(p.pos)+" looking for the beginning of a value")
}

func (p *parser) literal(word string, v any) (any, bool, error) {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return nil, false, p.errAt(p.pos, "invalid literal, expecting "+word)
	}
	p.pos += len(word)
	return v, false, nil
}

// objectKey reads `"key" :` into the innermost (object) frame.
func (p *parser) objectKey() error {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return p.errAt(p.pos, "unexpected end of input")
	}
	if p.data[p.pos] != '"' {
		return p.errAt(p.pos, "invalid character "+p.describe(p.pos)+" in object, expecting a string key")
	}
	start := p.pos
	key, err := p.str()
	if err != nil {
		return err
	}
	top := &p.stack[len(p.stack)-1]
	top.key = key
	if len(top.obj) == 0 {
		top.bin = string(p.data[start:p.pos]) == `"`+BinKey+`"`
	}
	p.skipSpace()
	if p.pos >= len(p.data) {
		return p.errAt(p.pos, "unexpected end of input")
	}
	if p.data[p.pos] != ':' {
		return p.errAt(p.pos, "invalid character "+p.describe(p.pos)+" after an object key, expecting ':'")
	}
	p.pos++
	return nil
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// str reads a string literal starting at its opening quote.
func (p *parser) str() (string, error) {
	d := p.data
	start := p.pos + 1
	i := start
	for i < len(d) && d[i] != '"' && d[i] != '\\' && d[i] >= 0x20 && d[i] < utf8.RuneSelf {
		i++
	}
	if i < len(d) && d[i] == '"' {
		p.pos = i + 1
		return string(d[start:i]), nil
	}
	b := append(p.scratch[:0], d[start:i]...)
	for {
		if i >= len(d) {
			return "", p.errAt(i, "unexpected end of input in a string")
		}
		switch c := d[i]; {
		case c == '"':
			p.pos = i + 1
			p.scratch = b
			return string(b), nil
		case c == '\\':
			var err error
			if b, i, err = p.escape(b, i); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.errAt(i, "control character "+codePoint(rune(c))+" in a string (write it as an escape)")
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				return "", p.errAt(i, "invalid UTF-8 byte 0x"+hex4(rune(c))[2:])
			}
			b = append(b, d[i:i+size]...)
			i += size
		}
	}
}

// escape decodes the escape at d[i] (a backslash), returning the position
// after it. A high surrogate escape directly followed by a low surrogate
// escape is one astral character; any other surrogate stays lone (WTF-8).
func (p *parser) escape(b []byte, i int) ([]byte, int, error) {
	d := p.data
	if i+1 >= len(d) {
		return b, i, p.errAt(i+1, "unexpected end of input in a string")
	}
	switch c := d[i+1]; c {
	case '"', '\\', '/':
		return append(b, c), i + 2, nil
	case 'b':
		return append(b, '\b'), i + 2, nil
	case 'f':
		return append(b, '\f'), i + 2, nil
	case 'n':
		return append(b, '\n'), i + 2, nil
	case 'r':
		return append(b, '\r'), i + 2, nil
	case 't':
		return append(b, '\t'), i + 2, nil
	case 'u':
		u, ok := hexQuad(d, i+2)
		if !ok {
			return b, i, p.errAt(i, "invalid \\u escape, expecting four hex digits")
		}
		i += 6
		if utf16.IsSurrogate(u) && u < 0xDC00 && i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
			if lo, ok := hexQuad(d, i+2); ok && 0xDC00 <= lo && lo <= 0xDFFF {
				return utf8.AppendRune(b, utf16.DecodeRune(u, lo)), i + 6, nil
			}
		}
		return appendWTF8(b, u), i, nil
	}
	return b, i, p.errAt(i+1, "invalid escape character "+p.describe(i+1)+" in a string")
}

func hexQuad(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var u rune
	for _, c := range d[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			u = u<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			u = u<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			u = u<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return u, true
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][-+]?[0-9]+)? or -Infinity.
func (p *parser) number() (any, error) {
	d := p.data
	start := p.pos
	i := start
	if d[i] == '-' {
		i++
		if bytes.HasPrefix(d[i:], []byte("Infinity")) {
			p.pos = i + len("Infinity")
			return math.Inf(-1), nil
		}
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
		if i < len(d) && isDigit(d[i]) {
			return nil, p.errAt(i-1, "invalid number: a leading zero")
		}
	case i < len(d) && isDigit(d[i]):
		i = skipDigits(d, i)
	default:
		return nil, p.numberErr(i, "after '-'")
	}
	isFloat := false
	if i < len(d) && d[i] == '.' {
		if i++; i >= len(d) || !isDigit(d[i]) {
			return nil, p.numberErr(i, "after the decimal point")
		}
		i = skipDigits(d, i)
		isFloat = true
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		if i++; i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !isDigit(d[i]) {
			return nil, p.numberErr(i, "in the exponent")
		}
		i = skipDigits(d, i)
		isFloat = true
	}
	p.pos = i
	text := string(d[start:i])
	if isFloat {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) { // overflow reads as ±Inf, per the spec
			return nil, p.errAt(start, "invalid number "+text)
		}
		return f, nil
	}
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return n, nil
	}
	if len(text) > MaxTextIntDigits+1 {
		return nil, p.errAt(start, fmt.Sprintf("integer of %d digits, over the limit of %d", len(text), MaxTextIntDigits))
	}
	n, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return nil, p.errAt(start, "invalid integer "+text)
	}
	return n, nil
}

func (p *parser) numberErr(i int, where string) error {
	if i >= len(p.data) {
		return p.errAt(i, "unexpected end of input in a number")
	}
	return p.errAt(i, "invalid character "+p.describe(i)+" in a number, expecting a digit "+where)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func skipDigits(d []byte, i int) int {
	for i < len(d) && isDigit(d[i]) {
		i++
	}
	return i
}

// describe names the character at offset i for a message.
func (p *parser) describe(i int) string {
	if i >= len(p.data) {
		return "end of input"
	}
	r, size := utf8.DecodeRune(p.data[i:])
	if r == utf8.RuneError && size == 1 {
		return "byte 0x" + hex4(rune(p.data[i]))[2:]
	}
	return strconv.QuoteRune(r)
}

// errAt builds a SyntaxError for byte offset i, counting lines by '\n' and
// columns in characters (1-based), as Python's json module reports them.
func (p *parser) errAt(i int, msg string) error {
	before := p.data[:min(i, len(p.data))]
	line := 1 + bytes.Count(before, []byte{'\n'})
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	col := 1 + utf8.RuneCount(before[lineStart:])
	return &SyntaxError{Line: line, Col: col, Offset: i, Msg: msg}
}
