package compare

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// Describe renders an outcome for people: the canonical text, or the error.
func Describe(o Outcome) string {
	switch {
	case o.Failure != "":
		return "<" + string(o.Failure) + ">"
	case o.Error != "":
		return "error " + o.Error
	case o.Absent():
		return "<inexpressible: " + o.Inexpressible + ">"
	}
	return string(o.Canonical)
}

// Visible is s as it may be shown to people: a character that would not
// show or would break the line (a control character, DEL, U+2028, a byte
// order mark, a stray byte) is written as ⟨U+XXXX⟩, since an implementation
// may well write one raw.
func Visible(s string) string {
	clean := true
	for _, r := range s {
		if !shows(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8RuneError && isStray(s[i:]):
			fmt.Fprintf(&b, "⟨0x%02X⟩", s[i])
		case shows(r):
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		}
	}
	return b.String()
}

func shows(r rune) bool { return r != utf8RuneError && (unicode.IsPrint(r) || r == ' ') }

// Render is the readable diff of a divergence: each adapter's outcome, the
// first differing byte with context, and go-cmp's diff of the two sides.
func (c *Comparator) Render(v Verdict, outs []Outcome) string {
	var sb strings.Builder
	for i, o := range outs {
		fmt.Fprintf(&sb, "  %-10s %s\n", c.names[i], Visible(clip.String(Describe(o), 400)))
	}
	if v.Agree {
		return sb.String()
	}
	a := v.Groups[v.Base][0]
	for _, d := range v.Deviations {
		b := v.Groups[d.Group][0]
		fmt.Fprintf(&sb, "  %s vs %s: %s: %s\n", c.names[b], c.names[a], d.Kind, d.Cause)
		if d.Offset >= 0 {
			fmt.Fprintf(&sb, "  first difference at byte %d:\n    %-10s %s\n    %-10s %s\n", d.Offset,
				c.names[a], context(outs[a].Canonical, d.Offset), c.names[b], context(outs[b].Canonical, d.Offset))
		}
		diff := cmp.Diff(Visible(Describe(outs[a])), Visible(Describe(outs[b])))
		fmt.Fprintf(&sb, "  diff (-%s +%s):\n%s", c.names[a], c.names[b], indent(clip.String(diff, 4000)))
	}
	if v.Unanimous() {
		fmt.Fprintf(&sb, "  hint: every implementation but %s agrees on this; the reference stays the truth\n", theReference(c.names[0]))
	}
	return sb.String()
}

// theReference names the reference adapter in a sentence: "the reference",
// and its name too unless that is the word itself (the built-in one is
// called "reference").
func theReference(name string) string {
	if name == "reference" {
		return "the reference"
	}
	return "the reference, " + name + ","
}

// context is up to 30 bytes either side of off, with a caret-like marker.
func context(b []byte, off int) string {
	lo, hi := max(0, off-30), min(len(b), off+30)
	if off > len(b) {
		off = len(b)
	}
	return Visible(fmt.Sprintf("...%s>>>%s...", b[lo:off], b[off:hi]))
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return "    " + strings.Join(lines, "\n    ") + "\n"
}

const utf8RuneError = '\uFFFD'

// isStray reports whether s starts with a byte that is not UTF-8 (rather
// than a U+FFFD written out).
func isStray(s string) bool { return !strings.HasPrefix(s, "\uFFFD") }
