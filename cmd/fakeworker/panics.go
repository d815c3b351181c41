package main

import (
	"fmt"
	"hash/fnv"
	"strings"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/value"
)

// The quoting-panics mode: an implementation that panics on every case,
// from one of two places, with a message that quotes the case as Python's
// repr would ('\udcee', \', U+ code points), so that no two cases have the
// same message and no normalization of messages folds them together. A
// driver that buckets by a failure's type and place (protocol 4) finds two
// buckets, one a place, however many cases; one that buckets by message
// finds one a case.

// quotingPanic panics in escapeChar or in formatToken, by the parity of a
// hash of the case's extended JSON text: a function of the case alone, so
// a case panics in the same place in every run, batch and minimization.
func quotingPanic(dst []byte, v any) ([]byte, error) {
	text := string(value.AppendText(nil, v))
	h := fnv.New32a()
	h.Write([]byte(text))
	if h.Sum32()%2 == 0 {
		escapeChar(text)
	}
	formatToken(text)
	return dst, nil
}

// escapeChar is the first of the two places.
//
//go:noinline
func escapeChar(text string) {
	c, _ := utf8.DecodeRuneInString(text)
	panic(fmt.Sprintf("'utf-8' codec can't encode character %s in position 0: %s", pyRepr(string(c)), pyRepr(text)))
}

// formatToken is the second.
//
//go:noinline
func formatToken(text string) {
	c, _ := utf8.DecodeLastRuneInString(text)
	panic(fmt.Sprintf("unexpected token U+%04X at offset %d of %s", c, len(text), pyRepr(text)))
}

// pyRepr quotes s as Python's repr of a str does: in apostrophes, an
// apostrophe and a backslash escaped, a control character, a character
// past ASCII and a byte that is not UTF-8 (a lone surrogate's WTF-8 form
// read as its code point, \udcee) as hex escapes.
func pyRepr(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 && i+2 < len(s) && s[i] == 0xED {
			c, size = 0xD000|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F), 3 // a surrogate's 3 bytes
		}
		switch {
		case c == '\'' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case c < 0x20 || c == 0x7f || c >= 0x80 && c < 0xa0:
			fmt.Fprintf(&b, `\x%02x`, c)
		case c < 0x80:
			b.WriteRune(c)
		case c <= 0xFFFF:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			fmt.Fprintf(&b, `\U%08x`, c)
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}
