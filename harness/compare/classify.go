package compare

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

type scanState struct {
	inString bool
	key      bool // the open string is an object key
	keyNext  bool // the next token would be a key
	inNumber bool
	start    int   // offset of the open string's quote
	objects  []int // offsets of the open objects' braces, innermost last
	inObject bool  // the innermost open container is an object
}

// scan runs a tiny JSON tokenizer over a prefix of canonical text.
func scan(p []byte) scanState {
	var st scanState
	var stack []byte
	escaped := false
	for i, ch := range p {
		if st.inString {
			switch {
			case escaped:
				escaped = false
			case ch == '\\':
				escaped = true
			case ch == '"':
				st.inString = false
			}
			continue
		}
		st.inNumber = false
		switch ch {
		case '"':
			st.inString, st.start, st.key = true, i, st.keyNext
			st.keyNext = false
		case '{':
			stack = append(stack, ch)
			st.objects = append(st.objects, i)
			st.keyNext = true
		case '[':
			stack = append(stack, ch)
		case '}', ']':
			if len(stack) > 0 {
				if stack[len(stack)-1] == '{' && len(st.objects) > 0 {
					st.objects = st.objects[:len(st.objects)-1]
				}
				stack = stack[:len(stack)-1]
			}
		case ',':
			st.keyNext = len(stack) > 0 && stack[len(stack)-1] == '{'
		case ':':
			st.keyNext = false
		default:
			st.inNumber = true
		}
	}
	st.inObject = len(stack) > 0 && stack[len(stack)-1] == '{'
	return st
}

func at(b []byte, i int) byte {
	if i < len(b) {
		return b[i]
	}
	return 0
}

// numberStart reports whether c may start a number token: a JSON number,
// NaN, Infinity, or a spelling JSON lacks (+1, +Inf).
func numberStart(c byte) bool {
	return c == '-' || c == '+' || c >= '0' && c <= '9' || c == 'N' || c == 'I'
}

// token returns the string token that starts with the quote at b[start].
func token(b []byte, start int) []byte {
	escaped := false
	for i := start + 1; i < len(b); i++ {
		switch {
		case escaped:
			escaped = false
		case b[i] == '\\':
			escaped = true
		case b[i] == '"':
			return b[start : i+1]
		}
	}
	return b[start:]
}

// unescape decodes a string token into its code points, so that two
// spellings of one key compare equal and two different keys do not. Raw
// UTF-8 is one code point a sequence, a \uXXXX pair of a high and a low
// surrogate is one astral code point, and a lone surrogate stays itself
// (a value no scalar value equals). A byte that is not UTF-8 stays distinct
// from every code point, as invalidByte+b.
func unescape(tok []byte) []rune {
	out := make([]rune, 0, len(tok))
	for i := 1; i < len(tok); {
		c := tok[i]
		switch {
		case c == '"':
			return out
		case c == '\\':
			r, n := escape(tok[i:])
			out = append(out, r)
			i += n
		case c < utf8.RuneSelf:
			out = append(out, rune(c))
			i++
		default:
			r, n := decodeRaw(tok[i:])
			out = append(out, r)
			i += n
		}
	}
	return out
}

// decodeRaw decodes the raw UTF-8 sequence at the start of s (s[0] is not
// ASCII). The 3-byte form of a surrogate (WTF-8, as a lone surrogate is
// sometimes written raw) is that surrogate, so that it equals its escape.
func decodeRaw(s []byte) (rune, int) {
	if len(s) >= 3 && s[0] == 0xed && s[1] >= 0xa0 && s[1] <= 0xbf && s[2] >= 0x80 && s[2] <= 0xbf {
		return 0xd000 | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f), 3
	}
	r, n := utf8.DecodeRune(s)
	if r == utf8.RuneError && n <= 1 {
		return invalidByte + rune(s[0]), 1
	}
	return r, n
}

// invalidByte offsets a byte that is not UTF-8 past every code point.
const invalidByte = unicode.MaxRune + 1

// escape decodes the escape sequence at the start of s (s[0] is the
// backslash) and returns its code point and its length in bytes. A high
// surrogate escape directly followed by a low one is one code point.
func escape(s []byte) (rune, int) {
	if len(s) < 2 {
		return '\\', len(s)
	}
	switch s[1] {
	case 'u':
		r, ok := hex4(s[2:])
		if !ok {
			return 'u', 2
		}
		if utf16.IsSurrogate(r) && r < 0xdc00 && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if lo, ok := hex4(s[8:]); ok && lo >= 0xdc00 && lo <= 0xdfff {
				return utf16.DecodeRune(r, lo), 12
			}
		}
		return r, 6
	case 'n':
		return '\n', 2
	case 't':
		return '\t', 2
	case 'r':
		return '\r', 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	}
	return rune(s[1]), 2 // \" \\ \/ and anything else stand for themselves
}

// hex4 reads four hex digits at the start of s.
func hex4(s []byte) (rune, bool) { return hexN(s, 4) }

// hexN reads the n hex digits s starts with.
func hexN(s []byte, n int) (rune, bool) {
	if len(s) < n {
		return 0, false
	}
	var r rune
	for _, h := range s[:n] {
		v := hexval(rune(h))
		if v < 0 {
			return 0, false
		}
		r = r*16 + v
	}
	return r, true
}

func hexval(h rune) rune {
	switch {
	case h >= '0' && h <= '9':
		return h - '0'
	case h >= 'a' && h <= 'f':
		return h - 'a' + 10
	case h >= 'A' && h <= 'F':
		return h - 'A' + 10
	}
	return -1
}
