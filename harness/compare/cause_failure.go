package compare

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// failureCause names a crash, a hang or an internal error of the deviant b
// (or, rarely, of the reference a) by the failure's type and first line,
// with its numbers and quoted text normalized away, and an internal error
// also by whether the input was valid.
func failureCause(a, b Outcome) string {
	switch {
	case b.Failure == "" && b.Error != "internal":
		return "answers where the reference failed: " + failureLine(a)
	case b.Failure != "":
		return failureLine(b) // the worker's own words tell crashes apart
	}
	return failureLine(b) + validity(a)
}

// rejectionCause names one side rejecting what the other writes out.
func rejectionCause(a, b Outcome) string {
	if b.Error != "" {
		return "rejects valid input with " + b.Error
	}
	return "accepts out-of-domain input (want " + a.Error + ")"
}

// validity says what the reference made of the input an internal error is
// on, so that a crash on valid input never shares a bucket with a
// deliberate rejection of what the spec rejects too.
func validity(ref Outcome) string {
	switch {
	case ref.Error != "" && ref.Error != "internal":
		return " on out-of-domain input"
	case ref.Failure == "" && ref.Error == "":
		return " on valid input"
	}
	return ""
}

// failureLine is a failure's first telling line, normalized: what it says
// of every input that fails the same way.
func failureLine(o Outcome) string {
	lines := strings.Split(strings.TrimSpace(o.Detail), "\n")
	line := strings.TrimSpace(lines[0])
	if o.Failure != "" {
		// Detail is the driver's word ("exit status 101") and the stderr
		// tail; the worker's own last line says more of the cause.
		for i := len(lines) - 1; i > 0; i-- {
			if l := strings.TrimSpace(lines[i]); l != "" {
				line = line + " (" + l + ")"
				break
			}
		}
	}
	if line == "" {
		line = "no message"
	}
	return normalize(line)
}

var (
	quoted     = regexp.MustCompile("'[^']*'|\"[^\"]*\"|`[^`]*`")
	quotedJSON = regexp.MustCompile("[\"'`]\\s*[{\\[]")
	// nonFinite is a special float named in a message: which one a case
	// held is the case's, not the cause's ("unsupported value: +Inf").
	nonFinite = regexp.MustCompile(`(?i)[+-]?\b(nan|inf|infinity)\b`)
	hexNum    = regexp.MustCompile(`0x[0-9a-fA-F]+`)
	digits    = regexp.MustCompile(`[0-9]+`)
)

// normalize keeps what a failure message says of its kind and drops what it
// says of one input: quoted text (and all after a quote left open),
// numbers, addresses, which special float;
// at most 120 bytes, on one line, and never a separator of a signature's
// text form.
func normalize(s string) string {
	if i := quotedJSON.FindStringIndex(s); i != nil {
		// A quote of JSON text quotes the input itself, quotes and all
		// (JavaScript's JSON.parse: Unexpected token 'N', "{"a":NaN}"
		// is not valid JSON): nothing after it is the cause's.
		s = s[:i[0]] + "…"
	}
	s = quoted.ReplaceAllString(s, "…")
	s = nonFinite.ReplaceAllString(s, "NaN/Infinity")
	s = hexNum.ReplaceAllString(s, "0x…")
	s = digits.ReplaceAllString(s, "N")
	return cleanCause(s)
}

// cleanCause makes s fit in a signature: visible, one line, without "; ",
// at most 120 bytes.
func cleanCause(s string) string {
	s = strings.NewReplacer("; ", ", ", " # ", " #").Replace(Visible(s))
	if len(s) > 120 {
		cut := 120
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
