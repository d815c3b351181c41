package compare

import (
	"strconv"
	"strings"
)

// objectKeys reads the keys of the object whose brace is at text[start], in
// their written order.
func objectKeys(text []byte, start int) []string {
	var keys []string
	for _, tok := range keyTokens(text, start) {
		keys = append(keys, keyString(unescape([]byte(tok))))
	}
	return keys
}

// keyTokens reads the key tokens of the object whose brace is at
// text[start] as they are written, quotes and escapes and all, in their
// written order. A deviant's text may be malformed: the reading stops at
// the first thing that is not a member.
func keyTokens(text []byte, start int) []string {
	var toks []string
	i := start + 1
	for i < len(text) && text[i] == '"' {
		tok := token(text, i)
		toks = append(toks, string(tok))
		i += len(tok)
		if i >= len(text) || text[i] != ':' {
			break
		}
		i = skipValue(text, i+1)
		if i >= len(text) || text[i] != ',' {
			break
		}
		i++
	}
	return toks
}

// keyOf is the key whose string token starts at text[start].
func keyOf(text []byte, start int) string { return keyString(unescape(token(text, start))) }

// keyString is a key's code points as a comparable string: a lone surrogate
// or a stray byte stays distinct from U+FFFD and from every other key.
func keyString(cps []rune) string {
	var b strings.Builder
	for _, r := range cps {
		if r >= 0xd800 && r <= 0xdfff || r > 0x10ffff {
			b.WriteString("\x00" + strconv.Itoa(int(r)) + "\x00")
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// skipValue returns the offset just past the value that starts at text[i].
func skipValue(text []byte, i int) int {
	if i >= len(text) {
		return i
	}
	switch text[i] {
	case '"':
		return i + len(token(text, i))
	case '{', '[':
		depth := 0
		for i < len(text) {
			switch text[i] {
			case '"':
				i += len(token(text, i))
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(text) && text[i] != ',' && text[i] != '}' && text[i] != ']' {
		i++
	}
	return i
}
