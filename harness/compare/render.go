package compare

import (
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"
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

// Render is the readable diff of a divergence: each adapter's outcome, the
// first differing byte with context, and go-cmp's diff of the two sides.
func (c *Comparator) Render(v Verdict, outs []Outcome) string {
	var sb strings.Builder
	for i, o := range outs {
		fmt.Fprintf(&sb, "  %-10s %s\n", c.names[i], clip(Describe(o), 400))
	}
	if v.Agree {
		return sb.String()
	}
	a := v.Groups[v.Base][0]
	for _, d := range v.Deviations {
		b := v.Groups[d.Group][0]
		fmt.Fprintf(&sb, "  %s vs %s: %s\n", c.names[b], c.names[a], d.Kind)
		if d.Offset >= 0 {
			fmt.Fprintf(&sb, "  first difference at byte %d:\n    %-10s %s\n    %-10s %s\n", d.Offset,
				c.names[a], context(outs[a].Canonical, d.Offset), c.names[b], context(outs[b].Canonical, d.Offset))
		}
		diff := cmp.Diff(Describe(outs[a]), Describe(outs[b]))
		fmt.Fprintf(&sb, "  diff (-%s +%s):\n%s", c.names[a], c.names[b], indent(clip(diff, 4000)))
	}
	return sb.String()
}

// context is up to 30 bytes either side of off, with a caret-like marker.
func context(b []byte, off int) string {
	lo, hi := max(0, off-30), min(len(b), off+30)
	if off > len(b) {
		off = len(b)
	}
	return fmt.Sprintf("...%s>>>%s...", b[lo:off], b[off:hi])
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("... (%d bytes)", len(s))
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return "    " + strings.Join(lines, "\n    ") + "\n"
}
