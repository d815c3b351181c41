package compare

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// unit is one character of a string token as written: raw, or an escape.
type unit struct {
	cp   rune // the code point; a lone surrogate is itself; invalidByte+b for a stray byte
	form form
	end  bool // the string's closing quote (or the end of the text)
}

// form is how a character is spelled in a string token.
type form int

const (
	formRaw         form = iota
	formShort            // \n \" \\ and the other two-character escapes
	formHex              // \uXXXX in lower case (two of them for an astral character)
	formHexUpper         // \uXXXX with upper-case hex digits
	formAstralHex        // \uXXXX\uXXXX of a surrogate pair written for an astral character
	formAstralUpper      // the same with upper-case hex digits
	formInvalid          // a backslash JSON gives no meaning to: \x01, \0, \v, \'
)

// describe says how a deviant spelled a character the reference spelled
// want's way, for "written ...". The case of the hex digits is named only
// against a reference that writes hex too: an escaper that writes \u000A
// and \u0008 where short escapes are wanted is one cause, not two.
func (f form) describe(want form) string {
	switch f {
	case formRaw:
		return "raw"
	case formShort:
		return "as a short escape"
	case formHexUpper, formAstralUpper:
		if want == formHex || want == formAstralHex {
			return "as \\uXXXX in upper case"
		}
	case formInvalid:
		return "as an escape JSON lacks"
	}
	return "as \\uXXXX"
}

// spell says how the reference spelled cp, for "(want ...)": the escape
// itself when the class is one character, the shape of it otherwise.
func (f form) spell(cp rune) string {
	switch f {
	case formRaw:
		return "raw"
	case formShort:
		if single(cp) {
			return shortEscape(cp)
		}
		return "its short escape"
	}
	if single(cp) {
		return fmt.Sprintf("\\u%04x", cp)
	}
	return "\\uXXXX"
}

func shortEscape(cp rune) string {
	switch cp {
	case '"':
		return `\"`
	case '\\':
		return `\\`
	case '/':
		return `\/`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	return "?"
}

// unitLen is the length in bytes of the unit at the start of s, at least 1.
func unitLen(s []byte) int {
	if len(s) == 0 {
		return 1
	}
	if s[0] == '\\' {
		_, n := escape(s)
		return n
	}
	if s[0] < utf8.RuneSelf {
		return 1
	}
	_, n := decodeRaw(s)
	return n
}

// nextUnit is s past its first unit.
func nextUnit(s []byte) []byte { return s[min(len(s), unitLen(s)):] }

// readUnit reads the unit at the start of s.
func readUnit(s []byte) unit {
	if len(s) == 0 || s[0] == '"' {
		return unit{end: true}
	}
	if s[0] != '\\' {
		if s[0] < utf8.RuneSelf {
			return unit{cp: rune(s[0])}
		}
		r, _ := decodeRaw(s)
		return unit{cp: r}
	}
	r, n := escape(s)
	switch {
	case !validEscape(s):
		return unit{cp: r, form: formInvalid}
	case n == 2:
		return unit{cp: r, form: formShort}
	case n == 12:
		if upperHex(s[2:6]) || upperHex(s[8:12]) {
			return unit{cp: r, form: formAstralUpper}
		}
		return unit{cp: r, form: formAstralHex}
	case n == 6 && upperHex(s[2:6]):
		return unit{cp: r, form: formHexUpper}
	}
	return unit{cp: r, form: formHex}
}

// upperOfLower reports whether fb is fa's \u escape with upper-case hex
// digits: one bug in the escaper's format string (%04X), whatever the
// character's class, unlike a class written as \uXXXX where the reference
// writes it otherwise (raw, a short escape), which is the escaping rule's.
func upperOfLower(fa, fb form) bool {
	return fa == formHex && fb == formHexUpper || fa == formAstralHex && fb == formAstralUpper
}

// validEscape reports whether the escape at the start of s (s[0] is the
// backslash) is one of JSON's.
func validEscape(s []byte) bool {
	if len(s) < 2 {
		return false
	}
	if s[1] == 'u' {
		_, ok := hex4(s[2:])
		return ok
	}
	return strings.IndexByte(`"\\/bfnrt`, s[1]) >= 0
}

func upperHex(h []byte) bool {
	for _, c := range h {
		if c >= 'A' && c <= 'F' {
			return true
		}
	}
	return false
}

// single reports whether cp is a class of its own in formClass.
func single(cp rune) bool {
	switch cp {
	case '"', '\\', '/', 0x7f:
		return true
	}
	return false
}

// formClass names the class of cp for a difference of spelling alone: the
// classes one escaping rule treats alike, so that a bug that writes every
// non-ASCII character raw is one cause whichever characters a case holds
// (U+2028, a byte order mark and astral characters among them), while DEL,
// the quote, the backslash and the solidus, each with rules of its own,
// stay apart.
func formClass(cp rune) string {
	if cp >= 0x80 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) {
		return "non-ASCII" // an astral character's escape is a pair of \uXXXX
	}
	return charClass(cp)
}

// cutClass names the character a string was cut short at: U+0000 by its
// name, since a string that ends at its first NUL is the C-string bug of
// its own, else its class.
func cutClass(cp rune) string {
	if cp == 0 {
		return "U+0000"
	}
	return charClass(cp)
}

// charClass names the class of characters cp belongs to, as a root cause
// names them: one character where a bug is often about that one (DEL, a
// quote, U+2028), else a class whose members one bug treats alike. U+0000
// is a control character like the others: an escaper that writes every
// control character wrong writes it wrong too.
func charClass(cp rune) string {
	switch {
	case cp >= invalidByte:
		return "a byte that is not UTF-8"
	case cp == '"':
		return "a `\"`"
	case cp == '\\':
		return "a `\\`"
	case cp == '/':
		return "a `/`"
	case single(cp), cp == 0x2028, cp == 0x2029, cp == 0xfffd, cp == 0xfeff:
		return fmt.Sprintf("U+%04X", cp)
	case cp == '\b' || cp == '\f' || cp == '\n' || cp == '\r' || cp == '\t':
		return "a control character with a short escape"
	case cp < 0x20:
		return "a control character"
	case cp < 0x7f:
		return "printable ASCII"
	case cp >= 0xd800 && cp <= 0xdfff:
		return "a lone surrogate"
	case cp >= 0x10000:
		return "an astral character"
	case cp >= 0x80 && cp <= 0x9f:
		return "a C1 control character"
	}
	return "non-ASCII"
}
