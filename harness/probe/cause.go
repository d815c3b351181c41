package probe

import (
	"fmt"
	"strings"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/internal/clip"
)

// The heads of the families' causes, and the whole cause of a formatter
// that echoes its input.
const (
	floatHead     = "floats formatted otherwise: "
	intHead       = "integers past 2^53 written otherwise: "
	valueHead     = "floats written with another value: "
	keyHead       = "characters in keys written otherwise: "
	rawHead       = "characters written raw: "
	verbatimCause = "numbers written as the input text spells them"
)

// maxSpelling bounds one spelling shown in a cause.
const maxSpelling = 24

// spelledCause is head and each wrong probe, with its spelling for as many
// as fit ("0.1 as 0.10000000000000001, -0.0 as -0, also 1e-7 NaN").
func spelledCause(head string, wrong []Answer) string {
	full := make([]string, len(wrong))
	names := make([]string, len(wrong))
	for i, w := range wrong {
		names[i] = w.Name
		full[i] = w.Name
		if w.Spelling != "" {
			full[i] += " as " + clipped(w.Spelling)
		}
	}
	for k := len(full); k >= 0; k-- {
		s := head + strings.Join(full[:k], ", ")
		if k < len(full) {
			if k > 0 {
				s += ", also "
			}
			s += strings.Join(names[k:], " ")
		}
		if len(s) <= compare.MaxCause {
			return s
		}
	}
	return fitList(head, names, " ")
}

// rawCause names the characters written raw in values: U+007F U+00E9.
func rawCause(wrong []Answer) string {
	var names []string
	for _, w := range wrong {
		if !w.Key {
			names = append(names, w.Name)
		}
	}
	return fitList(rawHead, names, " ")
}

// keyCause names the wrong characters of keys by how each was written:
// `"` `\` U+0001 raw, U+2028 as \u2028.
func keyCause(wrong []Answer) string {
	var order []string
	names := map[string][]string{}
	for _, w := range wrong {
		how := "otherwise"
		switch {
		case w.Spelling == w.probed.(string):
			how = "raw"
		case w.Spelling != "":
			how = "as " + clipped(w.Spelling)
		}
		if _, ok := names[how]; !ok {
			order = append(order, how)
		}
		names[how] = append(names[how], w.Name)
	}
	parts := make([]string, len(order))
	for i, how := range order {
		parts[i] = strings.Join(names[how], " ") + " " + how
	}
	return fitList(keyHead, parts, ", ")
}

// clipped is a spelling as a cause shows it: visible, one line, at most
// maxSpelling bytes.
func clipped(s string) string {
	return clip.Ellipsis(compare.Visible(s), maxSpelling)
}

// fitList is head and the parts joined by sep, as many as fit in a cause,
// the rest counted ("and 3 more").
func fitList(head string, parts []string, sep string) string {
	for n := len(parts); n > 0; n-- {
		s := head + strings.Join(parts[:n], sep)
		if n < len(parts) {
			s += fmt.Sprintf("%sand %d more", sep, len(parts)-n)
		}
		if len(s) <= compare.MaxCause {
			return s
		}
	}
	return head + fmt.Sprintf("%d probes", len(parts))
}
