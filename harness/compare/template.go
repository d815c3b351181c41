package compare

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	model "github.com/difffuzz/difffuzz/value"
)

// A failure without a place (a Go error, which carries no stack; a Rust
// error passed up by ?) is keyed by its message read as a template: what
// it says of every input that fails the same way. normalize masks what a
// message quotes and the numbers it names; but a message may name a part
// of its input bare ("Duplicate key: a b", a Go JCS library's error), and
// no rule of the message's own text can tell that part from the words
// around it. Log-template miners (Drain) find such parts by comparing
// messages; the lane has the input itself, so it masks the input's own
// strings in the message (WithTemplate) before the comparison reads it.

// WithTemplate is o with its Template set: for a failure without frames,
// its Detail with the strings of input (its keys and string values) that
// the message names masked as "…". Other outcomes are o as it is.
func (o Outcome) WithTemplate(input any) Outcome {
	if o.Failure == "" && o.Error != "internal" || len(o.Frames) > 0 || o.Detail == "" {
		return o
	}
	o.Template = maskInput(o.Detail, inputStrings(input))
	return o
}

// maxMasked bounds the strings of one input masked in a message: a case of
// many thousands of keys costs a failure's message no more than this.
const maxMasked = 4096

// minBare is the shortest input string masked wherever it stands as a
// word of the message; a shorter one ("a", "id") is masked only as the
// message's last word, where a message that names its input puts it,
// since as a word elsewhere it is more likely the message's own.
const minBare = 3

// inputStrings are the distinct strings of v, its keys and its string
// values, each also with its lone surrogates as U+FFFD (as a decoder
// that replaces them names it), longest first, so that a string is
// masked before the shorter ones inside it; the empty string, when v
// holds it, last. A special float's name (aSpecialFloat) is left out.
func inputStrings(v any) []string {
	seen := map[string]bool{}
	var walk func(v any)
	add := func(s string) {
		if len(seen) < maxMasked {
			seen[s] = true
			seen[replacingSurrogates(s)] = true
		}
	}
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			add(x)
		case []any:
			for _, el := range x {
				walk(el)
			}
		case []string:
			for _, s := range x {
				add(s)
			}
		case model.Object:
			for _, m := range x {
				add(m.Key)
				walk(m.Value)
			}
		case model.RawObject:
			for _, m := range x {
				walk(m.Key)
				walk(m.Value)
			}
		case map[string]any:
			for k, el := range x {
				add(k)
				walk(el)
			}
		}
	}
	walk(v)
	out := make([]string, 0, len(seen))
	for s := range seen {
		if !aSpecialFloat(s) { // normalize's to name, never the input's
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	return out
}

// maskInput writes "…" for what of strs msg names. A message that names
// its input at the end of its first line names it there alone: the
// longest of strs that ends the line after a colon, or after a space if
// it is more than a word (see maskLast), is masked, and nothing else
// ("Duplicate key: a" of an input that also holds the key "key" keeps its
// own word). Else each of strs of minBare bytes or more that is more than
// a word is masked wherever it stands as a word of its own (not inside a
// longer word). A string of letters alone ("value", "path": the
// generator's keys are such words) is the message's own word as often as
// the input's ("looking for beginning of value"), and is masked only
// after a colon at the line's end. The empty string (or whitespace) is
// named by a line that ends in a colon, a space and it ("Duplicate key: "). A string that is
// a number is masked only there too, else left to normalize's N
// (aNumber).
func maskInput(msg string, strs []string) string {
	for _, s := range strs {
		if masked, ok := maskLast(msg, s); ok {
			return masked
		}
	}
	for _, s := range strs {
		if len(s) >= minBare && !aWord(s) && !aNumber(s) {
			msg = maskWord(msg, s)
		}
	}
	return msg
}

// aSpecialFloat reports whether s is the name of NaN or an infinity, which
// normalize writes as one word (NaN/Infinity) wherever a message holds it:
// an input that also holds it as a string (a key "NaN") would otherwise
// mask the float the message names, and "unsupported value: NaN" would be
// two templates, one per input that happens to hold the word.
func aSpecialFloat(s string) bool {
	return s != "" && nonFinite.FindString(s) == s
}

// aNumber reports whether s is a number as normalize reads one (a sign
// before it too): it becomes N there, and masked as the input's where the
// message's own number stands it would be "…" in one message and N in
// another ("at offset 144" of an input that has the key "144").
func aNumber(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return s != "" && number.FindString(s) == s
}

// aWord reports whether s is letters alone: a word a message may hold of
// its own.
func aWord(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// replacingSurrogates is s, a string of the value model (WTF-8), with each
// lone surrogate as U+FFFD and each other stray byte too.
func replacingSurrogates(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 && i+3 <= len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
			n = 3 // a surrogate's three bytes: one character
		}
		if r == utf8.RuneError && n <= 3 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}

// maskWord replaces each occurrence of s in msg that no letter or digit
// adjoins with "…".
func maskWord(msg, s string) string {
	var b strings.Builder
	for {
		i := strings.Index(msg, s)
		if i < 0 {
			break
		}
		end := i + len(s)
		b.WriteString(msg[:i])
		if wordEdge(msg[:i], true) && wordEdge(msg[end:], false) {
			b.WriteString("…")
		} else {
			b.WriteString(s)
		}
		msg = msg[end:]
	}
	b.WriteString(msg)
	return b.String()
}

// maskLast replaces s with "…" where it ends msg's first line, but for a
// closing punctuation mark or two: after a colon, or after a space when s
// is more than a word (aWord) and no number (aNumber); ok is false where
// it does not end so.
func maskLast(msg, s string) (masked string, ok bool) {
	line, rest, nl := strings.Cut(msg, "\n")
	if strings.TrimSpace(s) == "" {
		// Only "name: " with its space names an empty value (or one of
		// whitespace): a line that ends in a bare colon (a Rust panic's
		// place) goes on in the next.
		head, found := strings.CutSuffix(line, ": "+s)
		if !found {
			return msg, false
		}
		line = head + ": …"
	} else {
		body := strings.TrimRight(line, ".,;)]} ")
		head, found := strings.CutSuffix(body, s)
		afterColon := strings.HasSuffix(strings.TrimRight(head, " "), ":")
		if !found || !afterColon && (!strings.HasSuffix(head, " ") || aWord(s) || aNumber(s)) {
			return msg, false
		}
		line = strings.TrimRight(head, " ") + " …" + line[len(body):]
	}
	if nl {
		return line + "\n" + rest, true
	}
	return line, true
}

// wordEdge reports whether the text on one side of a match ends (before)
// or starts (after) without a letter or digit touching it.
func wordEdge(side string, before bool) bool {
	var r rune
	if before {
		r, _ = utf8.DecodeLastRuneInString(side)
	} else {
		r, _ = utf8.DecodeRuneInString(side)
	}
	return r == utf8.RuneError || !unicode.IsLetter(r) && !unicode.IsDigit(r)
}
