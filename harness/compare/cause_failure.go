package compare

import (
	"cmp"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/internal/clip"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	model "github.com/difffuzz/difffuzz/value"
)

// MaxCause is the longest cause in bytes, its "…" included: a signature is
// one line of a known list and of a report.
const MaxCause = 120

// failureCause names a crash, a hang or an internal error of the deviant b
// (or, rarely, of the reference a): by its type and place when its worker
// said them (see crashState), else by its message read as a template
// (failureName), and then by its trigger, what the reference made of the
// case (trigger). One raise site may serve several causes (Python's
// json.dumps raises one TypeError for bytes and for mixed-type keys, a
// serde_json::Error holds every parse failure): the reference's verdict,
// its error code or that it accepted the input, tells them apart, and
// names in the label what set the failure off.
func failureCause(a, b Outcome) string {
	if b.Failure == "" && b.Error != "internal" {
		return FitCause("answers where the reference failed: " + failureName(a))
	}
	on := trigger(a)
	return fitTo(failureName(b), MaxCause-len(on)) + on
}

// trigger is what set a failure off, as the reference judged the case: " on
// valid input", " on a lone surrogate" (the reference's error code in
// words, see codeTriggers); "" when the reference failed too, or was no
// reference (NoReference's largest group may be anything). A bad envelope
// is valid input here: the envelope is the tool call's wrapper, the last
// of the spec's checks, so the content inside is otherwise valid; a
// failure in it is the content's (NaN in a case that is no envelope was a
// bucket of its own beside NaN in one, and an example that is no envelope
// cannot shrink into one), and an implementation that checks the envelope
// itself fails at a place of its own.
func trigger(a Outcome) string {
	switch {
	case a.Failure != "" || a.Error == "internal" || a.Absent():
		return ""
	case a.Error == string(model.CodeBadEnvelope):
		return validTrigger
	case a.Error != "":
		if t, ok := codeTriggers[a.Error]; ok {
			return " on " + t
		}
		return " on input rejected with " + a.Error
	}
	return validTrigger
}

// validTrigger is the trigger of a failure on input the reference accepts.
const validTrigger = " on valid input"

// lostTrigger reports whether s is t's failure, of one kind and name, where
// t's trigger was one of the reference's error codes and s's is valid input
// or another code: what the reference rejected in t's example did not set
// the failure off, or something else it held did. A minimizer keeps t's
// bucket so (Signature.Keeps), and the example's label then says what it
// needs: a parse that fails on NaN, in a case that also held a lone
// surrogate, is the bucket of NaN on valid input, not one of its own "on a
// lone surrogate", and json.dumps's TypeError on bytes, in a case whose
// reference verdict was a lone surrogate key beside them, shrinks to bytes
// alone and joins the bytes bucket. Two causes at one raise site stay apart
// all the same: an example of one cannot shrink into the other's trigger
// unless it holds it (bytes and keys of mixed types at json.dumps's). A
// trigger never changes from valid input to a code.
func (s Signature) lostTrigger(t Signature) bool {
	if s.Kind != t.Kind || s.Kind != KindCrash && s.Kind != KindHang && s.Kind != KindInternal {
		return false
	}
	name, on, ok := cutTrigger(t.Cause)
	if !ok || on == validTrigger {
		return false
	}
	sname, son, ok := cutTrigger(s.Cause)
	return ok && sname == name && son != on
}

// cutTrigger splits a failure's cause into its name (type and place) and
// its trigger (" on valid input", " on a lone surrogate", " on input
// rejected with X"); ok is false for a cause with no trigger.
func cutTrigger(cause string) (name, on string, ok bool) {
	if name, ok := strings.CutSuffix(cause, validTrigger); ok {
		return name, validTrigger, true
	}
	if i := strings.LastIndex(cause, " on input rejected with "); i >= 0 {
		return cause[:i], cause[i:], true
	}
	for _, words := range codeTriggers {
		if name, ok := strings.CutSuffix(cause, " on "+words); ok {
			return name, " on " + words, true
		}
	}
	return "", "", false
}

// codeTriggers name the spec's error codes as what the input held; a bad
// envelope is none (see trigger).
var codeTriggers = map[string]string{
	string(model.CodeTooDeep):       "nesting too deep",
	string(model.CodeNonStringKey):  "a non-string key",
	string(model.CodeLoneSurrogate): "a lone surrogate",
	string(model.CodeDuplicateKey):  "a duplicate key",
	string(model.CodeUnsupported):   "an unsupported value",
}

// rejectionCause names one side rejecting what the other writes out.
func rejectionCause(a, b Outcome) string {
	if b.Error != "" {
		return "rejects valid input with " + b.Error
	}
	return acceptsHead + a.Error + ")"
}

// acceptsHead heads the cause of an implementation that wrote a text for
// an input the reference rejects; the reference's error code follows.
const acceptsHead = "accepts out-of-domain input (want "

// AcceptedCode is the reference's error code in an acceptance of
// out-of-domain input, a rejection or a collision that is one ("accepts
// out-of-domain input (want lone_surrogate)"); ok is false for any other
// signature.
func AcceptedCode(s Signature) (code string, ok bool) {
	if s.Kind != KindRejection && s.Kind != KindCollision {
		return "", false
	}
	code, ok = strings.CutPrefix(s.Cause, acceptsHead)
	if !ok || !strings.HasSuffix(code, ")") {
		return "", false
	}
	return strings.TrimSuffix(code, ")"), true
}

// Accepting is the signature of implementations that accept input the
// reference rejects with code, of kind k (a rejection or a collision).
func Accepting(k Kind, code string, deviants []string) Signature {
	return Signature{Kind: k, Cause: acceptsHead + code + ")", Deviants: slices.Clone(deviants)}
}

// failureName is what a failure is keyed by: its crash state when the
// worker said where it was raised (protocol 4); a type without a place (a
// Go error, a Rust error passed up by ?) with its message's template,
// since one type (serde_json::Error, *strconv.NumError) holds many
// causes; else its message's template alone.
func failureName(o Outcome) string {
	switch {
	case len(o.Frames) > 0:
		return crashState(o.ErrorType, o.Frames)
	case o.ErrorType != "":
		return o.ErrorType + ": " + failureLine(o)
	}
	return failureLine(o)
}

// stateFrames bounds a crash state's frames: the raise site, and the
// standard-library entry points between it and the SDK's own code.
const stateFrames = 3

// crashState is a failure's identity from its type and place: the type,
// then where it was raised, the innermost frame, and, when that is an entry
// into the standard library (a frame without a file, "json.loads"), the
// frames out to the first of the SDK's own, the caller there: "ValueError
// in json.loads < canonical_text (handrolled.py)". Never a line number of a
// named function (an edit elsewhere in the file moves it), never the
// message (it quotes the input), and not the callers of the raise site:
// on code nobody here wrote, ClusterFuzz's three frames split one raise
// site by the path to it (a recursion one level deeper, an anonymous
// callback of Array.map, the top-level call from the worker), up to four
// buckets for one bug in the triage benchmark (docs/triage.md). A type
// without frames is the type alone; frames without a type are "an error
// in ...".
func crashState(errorType string, frames []wire.Frame) string {
	var b strings.Builder
	b.WriteString(errorType)
	if errorType == "" {
		b.WriteString("an error")
	}
	for i, f := range frames[:min(len(frames), stateFrames)] {
		if i == 0 {
			b.WriteString(" in ")
		} else {
			b.WriteString(" < ")
		}
		b.WriteString(frameName(f))
		if f.File != "" {
			break // the SDK's own frame: the raise site
		}
	}
	return b.String()
}

// frameName is one frame of a crash state: the function without a Go
// import path ("canon.(*enc).escape", not "example.com/sdk/canon.(*enc)
// .escape", which a vendored copy would change), and the file's last path
// element, whichever separator the runtime wrote. A frame without a file
// is a standard-library entry point ("JSON.parse").
func frameName(f wire.Frame) string {
	fn := f.Function
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		fn = fn[i+1:]
	}
	file := path.Base(strings.ReplaceAll(f.File, `\`, "/"))
	if f.File == "" || file == "." || file == "/" {
		return cmp.Or(fn, "?")
	}
	if fn == "" {
		// An anonymous place (a Rust panic's Location, a JavaScript
		// arrow function) is known by its line alone.
		return file + ":" + strconv.Itoa(f.Line)
	}
	return fn + " (" + file + ")"
}

// failureLine is a failure's first telling line, normalized: what it says
// of every input that fails the same way.
func failureLine(o Outcome) string {
	lines := strings.Split(strings.TrimSpace(cmp.Or(o.Template, o.Detail)), "\n")
	line := strings.TrimSpace(lines[0])
	if strings.HasSuffix(line, ":") && len(lines) > 1 {
		// A Rust panic's first line is its place ("thread 'main' panicked
		// at src/lib.rs:41:9:"); its message is the next.
		line += " " + strings.TrimSpace(lines[1])
	}
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

// rewrites name alike what one cause words otherwise from input to input.
var rewrites = []struct {
	re   *regexp.Regexp
	with string
}{
	// Python says what it was doing when the stack ran out ("while calling
	// a Python object", "in comparison"): one RecursionError.
	{regexp.MustCompile(`(?:RecursionError: )?maximum recursion depth exceeded(?: (?:while|in) [^:,;(]*)?`),
		"RecursionError: maximum recursion depth exceeded"},
	// A codec names one character, or a range when the input held more
	// in a row: "can't encode characters in position 3-4".
	{regexp.MustCompile(`can't (en|de)code (character|byte)s in position [0-9]+-[0-9]+`),
		"can't ${1}code $2 '?' in position 0"},
}

var (
	// escapes are a character of the input spelled as an escape in a
	// message: \udcee, \x1f, \U0001f600, \u{1f600}.
	escapes = regexp.MustCompile(`\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|U[0-9a-fA-F]{8}|u\{[0-9a-fA-F]{1,6}\})`)
	// codePoint is a character named by its code point, U+DCEE.
	codePoint = regexp.MustCompile(`U\+[0-9a-fA-F]{4,6}`)
	// tokenChar is a character of the input named bare after "token"
	// (V8 before 10.9: "Unexpected token N in JSON at position 5").
	tokenChar = regexp.MustCompile(`\b(token|character) [^\s…](\s|,|$)`)
	// nonFinite is a special float named in a message: which one a case
	// held is the case's, not the cause's ("unsupported value: +Inf").
	nonFinite = regexp.MustCompile(`(?i)[+-]?\b(nan|inf|infinity)\b`)
	// snippet is a quote V8 cut out of a longer input, with "..." on
	// either side: ..."a":NaN,"b"... is not valid JSON.
	snippet = regexp.MustCompile(`(?:\.\.\.)?…(?:\.\.\.)?`)
	hexNum  = regexp.MustCompile(`0x[0-9a-fA-F]+`)
	// number is a number named in a message, its shape too: 7, 1.5,
	// 1e+400 are all N.
	number = regexp.MustCompile(`[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?`)
)

// normalize keeps what a failure message says of its kind and drops what it
// says of one input: quoted text (see dropQuotes), escapes and code points,
// a character named after "token", numbers, addresses, which special float;
// and words one cause alike (see rewrites). The result is at most
// MaxCause bytes, on one line, and never a separator of a signature's text
// form.
func normalize(s string) string {
	for _, r := range rewrites {
		s = r.re.ReplaceAllString(s, r.with)
	}
	s = snippet.ReplaceAllString(dropQuotes(s), "…")
	s = escapes.ReplaceAllString(s, `\uXXXX`)
	s = codePoint.ReplaceAllString(s, "U+XXXX")
	s = tokenChar.ReplaceAllString(s, "$1 …$2")
	s = nonFinite.ReplaceAllString(s, "NaN/Infinity")
	s = hexNum.ReplaceAllString(s, "…")
	s = number.ReplaceAllString(s, "N")
	return FitCause(s)
}

// dropQuotes writes "…" for each quoted text in s, which a message quotes
// from its input, with these exceptions:
//   - an apostrophe between two letters ("can't") quotes nothing;
//   - a quote runs past a quote character escaped with a backslash, as
//     Go quotes the rune ' itself;
//   - a double-quoted text that opens with JSON ({, [ or ") or follows
//     "..." quotes the input's own text, quotes and all (V8's Unexpected
//     token 'N', "{"a":NaN}" is not valid JSON): it runs to the line's
//     last double quote, and the "..." of a cut snippet goes with it;
//   - a quoted text of whitespace alone is the word "whitespace": a parser
//     that rejects whitespace says so only there ("invalid character ' '
//     after top-level value");
//   - backquotes quote code, not input (Rust's called `Option::unwrap()`
//     on a `None` value), and are kept;
//   - a Rust error's debug form, Error("lone leading surrogate", line: 1,
//     column: 9), quotes its own message, which is kept (normalized).
func dropQuotes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		q := s[i]
		if q != '\'' && q != '"' || q == '\'' && apostrophe(s, i) {
			b.WriteByte(q)
			i++
			continue
		}
		end := closingQuote(s, i)
		if end < 0 {
			b.WriteString("…") // an open quote: all after it is the input's
			break
		}
		inner := s[i+1 : end]
		switch {
		case q == '"' && strings.HasSuffix(b.String(), "Error("):
			b.WriteString(`"` + dropQuotes(strings.ReplaceAll(inner, `\"`, `"`)) + `"`)
		case whitespace(inner):
			b.WriteString("whitespace")
		default:
			b.WriteString("…")
		}
		i = end + 1
	}
	return b.String()
}

// closingQuote is the offset of the quote that closes the one at s[open],
// or -1.
func closingQuote(s string, open int) int {
	q := s[open]
	json := open+1 < len(s) && strings.ContainsRune(`{["`, rune(s[open+1])) || strings.HasSuffix(s[:open], "...")
	if q == '"' && json {
		if end := strings.LastIndexByte(s, '"'); end > open+1 {
			return end
		}
		return -1
	}
	for j := open + 1; j < len(s); j++ {
		switch {
		case s[j] == '\\':
			j++
		case s[j] == q && !(q == '\'' && apostrophe(s, j)):
			return j
		}
	}
	return -1
}

// apostrophe reports whether the ' at s[i] stands between two letters.
func apostrophe(s string, i int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i+1:])
	return unicode.IsLetter(before) && unicode.IsLetter(after)
}

// whitespace reports whether a quoted text is JSON whitespace alone, raw
// or escaped.
func whitespace(q string) bool {
	if q == "" {
		return false
	}
	q = strings.NewReplacer(`\t`, "", `\n`, "", `\r`, "", `\u0020`, "", " ", "", "\t", "", "\n", "", "\r", "").Replace(q)
	return q == ""
}

// FitCause makes cause fit in a signature: visible, one line, without
// "; " nor " # ", at most MaxCause bytes, cut (at a character, with "…").
func FitCause(cause string) string { return fitTo(cause, MaxCause) }

// fitTo is FitCause at most n bytes long, so that a trigger after it
// still fits.
func fitTo(cause string, n int) string {
	return noSeparators(clip.Ellipsis(Visible(cause), n)) // never longer: each replacement is as long or shorter
}

// noSeparators is s without "; " (which joins a finding's signatures) and
// " # " (which starts a known list's reason), replaced until none is left:
// one pass would make one of the other ("; # " to ", # ").
func noSeparators(s string) string {
	clean := strings.NewReplacer("; ", ", ", " # ", " #")
	for {
		t := clean.Replace(s)
		if t == s {
			return s
		}
		s = t
	}
}
