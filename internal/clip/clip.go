// Package clip shortens text for a message, a report or a page. It is the
// one place that cuts a string, so that no cut ever splits a UTF-8
// character: half a character in a report is an invalid byte that a JSON
// or XML reader rejects, or shows as U+FFFD where the input had none.
package clip

import (
	"fmt"
	"unicode/utf8"
)

// String is s cut to at most n bytes at a character's start, followed by
// "... (N bytes)" naming s's whole length, so that a reader knows how much
// was left out. s itself when it fits; n < 0 counts as 0.
func String(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < 0 {
		n = 0
	}
	return s[:start(s, n)] + fmt.Sprintf("... (%d bytes)", len(s))
}

// Ellipsis is s cut at a character's start and followed by "…", at most n
// bytes in all, for a label that has a length limit of its own (a cause,
// one spelling in it). s itself when it fits.
func Ellipsis(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:start(s, max(n-len(ellipsis), 0))] + ellipsis
}

const ellipsis = "…"

// start is n, or the start of the character byte n falls in.
func start(s string, n int) int {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
