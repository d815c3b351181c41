package clip

import (
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc... (4 bytes)"},
		{"abcd", 0, "... (4 bytes)"},
		{"abcd", -1, "... (4 bytes)"},
		// é is two bytes: a cut inside it moves back to its start.
		{"aéb", 2, "a... (4 bytes)"},
		{"aéb", 3, "aé... (4 bytes)"},
		// an astral character is four bytes.
		{"😀😀", 5, "😀... (8 bytes)"},
		{"😀😀", 3, "... (8 bytes)"},
	} {
		got := String(tc.s, tc.n)
		if got != tc.want {
			t.Errorf("String(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
		if utf8.ValidString(tc.s) && !utf8.ValidString(got) {
			t.Errorf("String(%q, %d) = %q is not UTF-8", tc.s, tc.n, got)
		}
	}
}

func TestEllipsis(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abcd", 4, "abcd"},
		{"abcdef", 5, "ab…"},
		// é is two bytes: a cut inside it moves back to its start.
		{"aébcd", 5, "a…"},
		{"aébcdef", 6, "aé…"},
		{"abcd", 2, "…"},
	} {
		got := Ellipsis(tc.s, tc.n)
		if got != tc.want {
			t.Errorf("Ellipsis(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
		if !utf8.ValidString(got) || len(got) > max(tc.n, len("…")) {
			t.Errorf("Ellipsis(%q, %d) = %q: not UTF-8 or too long", tc.s, tc.n, got)
		}
	}
}
