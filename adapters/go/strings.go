package canonjson

import (
	"unicode/utf16"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// plain marks the ASCII bytes that spec section 4.3 writes as themselves:
// printable ASCII except '"' and '\'. Everything else is escaped.
var plain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// shortEscape holds the two-character escapes of spec section 4.3 (0 = none).
var shortEscape = [utf8.RuneSelf]byte{
	'"': '"', '\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't',
}

// appendEscapedASCII writes one escaped ASCII byte.
func appendEscapedASCII(dst []byte, c byte) []byte {
	if e := shortEscape[c]; e != 0 {
		return append(dst, '\\', e)
	}
	return appendU(dst, rune(c))
}

// appendU writes \uXXXX with four lower-case hex digits.
func appendU(dst []byte, u rune) []byte {
	return append(dst, '\\', 'u',
		hexDigits[u>>12&0xf], hexDigits[u>>8&0xf], hexDigits[u>>4&0xf], hexDigits[u&0xf])
}

// appendNonASCII writes a code point >= U+0080 as one \u escape, or as a
// surrogate pair of escapes above U+FFFF.
func appendNonASCII(dst []byte, r rune) []byte {
	if r < 0x10000 {
		return appendU(dst, r)
	}
	hi, lo := utf16.EncodeRune(r)
	return appendU(appendU(dst, hi), lo)
}

// appendString writes s quoted and escaped per spec section 4.3, with the
// contract's choices for DEL and the non-ASCII classes. It reports false,
// having written garbage, when s is not valid UTF-8 (which includes lone
// surrogates in WTF-8): the caller then runs the precise validation walk to
// find the error the spec's order reports.
func (r *rules) appendString(dst []byte, s string) ([]byte, bool) {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if r.plain[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendEscapedASCII(dst, c)
			i++
			start = i
			continue
		}
		x, size := utf8.DecodeRuneInString(s[i:])
		if x == utf8.RuneError && size == 1 {
			return dst, false
		}
		if !r.escapes(x) {
			i += size
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = appendNonASCII(dst, x)
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), true
}

// decodeWTF8 decodes the code point at s[i:], accepting the 3-byte form of a
// surrogate. ok is false for a byte that starts no code point even in WTF-8.
func decodeWTF8(s string, i int) (r rune, size int, ok bool) {
	r, size = utf8.DecodeRuneInString(s[i:])
	if r != utf8.RuneError || size != 1 {
		return r, size, true
	}
	if i+2 < len(s) && s[i] == 0xED && s[i+1]&0xE0 == 0xA0 && s[i+2]&0xC0 == 0x80 {
		return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), 3, true
	}
	return utf8.RuneError, 1, false
}

// stringProblem classifies a string for the validation walk: "" when it is a
// valid string of the model, CodeLoneSurrogate or CodeUnsupported (invalid
// UTF-8 that is not a surrogate either) for the first problem in byte order,
// with the byte offset and the offending code point or byte.
func stringProblem(s string) (code Code, at int, what rune) {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size, ok := decodeWTF8(s, i)
		if !ok {
			return CodeUnsupported, i, rune(s[i])
		}
		if utf16.IsSurrogate(r) {
			return CodeLoneSurrogate, i, r
		}
		i += size
	}
	return "", 0, 0
}

// appendTextString writes s, for messages, in the extended JSON text of spec section 6: the
// escapes of section 4.3, lone surrogates as \udXXX escapes so that they read
// back as written, and any byte that is not even WTF-8 as the invalid escape
// \xHH, which makes the text unreadable rather than silently repairing it.
func appendTextString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendEscapedASCII(dst, c)
			i++
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		r, size, ok := decodeWTF8(s, i)
		if ok {
			dst = appendNonASCII(dst, r)
		} else {
			dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
