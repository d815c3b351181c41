// Package probe measures a cause family in an implementation's own
// function. A bucket's cause is read off the shape of its one minimized
// example, so one float formatter that is wrong in many ways (%.17g: 0.1
// written long, -0 with its sign, Infinity as +Inf) makes as many buckets
// as shapes its examples happen to show, and one key writer that splices
// keys between quotes as they are makes one bucket per character class.
// For these two families, a fixed set of probe cases is run through the
// implementation, and its profile (the probes it writes otherwise than the
// reference, and how) names every bucket of the family in it: a property
// of the function, measured once, not of one example.
//
// The package holds the probe sets, the reading of a profile from the
// probes' outcomes, and the profile's cause; it does no I/O. harness/lane
// runs the probes through an implementation (Lane.Family), for a run's
// relabelling after minimization and for check, replay and minimize alike
// (docs/triage.md, "Family probes").
package probe

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/internal/clip"
	"github.com/difffuzz/difffuzz/value"
)

// Family is a class of causes whose root is usually one function of an
// implementation.
type Family string

// The families probed.
const (
	Floats   Family = "float formatting"
	Strings  Family = "string escaping"
	KeyOrder Family = "key order" // see keyorder.go
)

// Of is the family a difference of kind k belongs to, "" for none: a
// number's spelling is the float formatter's, a string's character (in a
// key or a value) the escaper's.
func Of(k compare.Kind) Family {
	switch k {
	case compare.KindNumber:
		return Floats
	case compare.KindString, compare.KindKeyEscape:
		return Strings
	case compare.KindKeyOrder:
		return KeyOrder
	}
	return ""
}

// Case is one probe: a number or a string, probed alone in a fixed valid
// input (Input).
type Case struct {
	// Name is the probed number or character as people read it, in the
	// profile's cause: "0.1", "-0.0", "U+007F", "`\"`".
	Name string
	// Key: a string probed as a key, else as a value.
	Key    bool
	probed any // a float64, a string, or the []string keys of a key-order probe
}

// Input is the case's input, an envelope holding the probed value alone:
// {"tool_name":"","args":{"":X}}, or {"tool_name":"","args":{X:0}} for a
// key. It is valid under every contract (one whose top level is any value
// takes any object), and its canonical text is known around X (wrapping),
// so that the implementation's spelling of X can be read from its output.
func (c Case) Input() any {
	args := value.Object{{Key: "", Value: c.probed}}
	if c.Key {
		args = value.Object{{Key: c.probed.(string), Value: int64(0)}}
	}
	if keys, ok := c.probed.([]string); ok {
		args = zeros(keys)
	}
	return value.Object{{Key: "tool_name", Value: ""}, {Key: "args", Value: args}}
}

// wrapping is the canonical text of Input around the probed value's
// spelling: "args" sorts before "tool_name" by code points and by UTF-16
// units alike.
func (c Case) wrapping() (prefix, suffix string) {
	switch {
	case isKeys(c.probed):
		return `{"args":`, `,"tool_name":""}`
	case c.Key:
		return `{"args":{"`, `":0},"tool_name":""}`
	case isString(c.probed):
		return `{"args":{"":"`, `"},"tool_name":""}`
	}
	return `{"args":{"":`, `},"tool_name":""}`
}

func isString(v any) bool { _, ok := v.(string); return ok }

// Spelling is the probed value as text wrote it between the input's fixed
// text, and whether text has that fixed text around it.
func (c Case) Spelling(text []byte) (string, bool) {
	prefix, suffix := c.wrapping()
	s := string(text)
	if len(s) < len(prefix)+len(suffix) || !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) {
		return "", false
	}
	return s[len(prefix) : len(s)-len(suffix)], true
}

// floatCases probe a float formatter: the shortest digits (0.1, 1e23),
// both thresholds of the exponent form (1e-7 against 0.00001, 1e21 against
// 1e20), the exponent's spelling (1e-8: no leading zero), integer-valued
// floats (1.0, past 2^53, a double whose shortest digits end in zeros),
// the smallest subnormal, zero's sign and the non-finite floats.
var floatCases = []Case{
	{Name: "0.1", probed: 0.1},
	{Name: "1e-7", probed: 1e-7},
	{Name: "1e-8", probed: 1e-8},
	{Name: "0.00001", probed: 1e-5},
	{Name: "1e20", probed: 1e20},
	{Name: "1e21", probed: 1e21},
	{Name: "1e23", probed: 1e23},
	{Name: "1.0", probed: 1.0},
	{Name: "2^60", probed: float64(1 << 60)},
	{Name: "49812407423580900.0", probed: 49812407423580900.0},
	{Name: "5e-324", probed: 5e-324},
	{Name: "-0.0", probed: math.Copysign(0, -1)},
	{Name: "NaN", probed: math.NaN()},
	{Name: "Infinity", probed: math.Inf(1)},
	{Name: "-Infinity", probed: math.Inf(-1)},
}

// stringChars are the characters a string escaper is probed with, one of
// each class an escaping rule treats alike (docs/triage.md, "A bucket is a
// root cause"): the quote, the backslash and the solidus; controls with a
// short escape, others, U+0000; DEL; a C1 control; non-ASCII in the BMP,
// U+2028 and an astral character.
var stringChars = []struct{ name, s string }{
	{"`\"`", `"`},
	{"`\\`", `\`},
	{"`/`", "/"},
	{"U+000A", "\n"},
	{"U+0008", "\b"},
	{"U+0001", "\x01"},
	{"U+0000", "\x00"},
	{"U+007F", "\x7f"},
	{"U+0085", "\u0085"},
	{"U+00E9", "\u00e9"},
	{"U+2028", "\u2028"},
	{"U+1F600", "\U0001F600"},
}

// stringCases probe each of stringChars in a value, then in a key.
var stringCases = func() []Case {
	var cs []Case
	for _, key := range []bool{false, true} {
		for _, c := range stringChars {
			cs = append(cs, Case{Name: c.name, Key: key, probed: c.s})
		}
	}
	return cs
}()

// Cases are family f's probes, in a fixed order: a profile lists what is
// wrong in it.
func Cases(f Family) []Case {
	switch f {
	case Floats:
		return floatCases
	case Strings:
		return stringCases
	case KeyOrder:
		return keyOrderCases
	}
	return nil
}

// Inputs are the inputs of family f's probes, in the order of Cases.
func Inputs(f Family) []any {
	cs := Cases(f)
	in := make([]any, len(cs))
	for i, c := range cs {
		in[i] = c.Input()
	}
	return in
}

// Answer is one probe that an implementation wrote otherwise than the
// reference.
type Answer struct {
	Case
	// Shape is the difference its output shows, as a bucket of one
	// example would be labelled: the family's kind and cause, naming the
	// implementation.
	Shape compare.Signature
	// Spelling is the implementation's spelling of the probed value; ""
	// when its output does not hold the input's fixed text around it.
	Spelling string
}

// Profile is what an implementation gets wrong of one family.
type Profile struct {
	Family Family
	// Wrong are the probes it writes otherwise, in a difference of the
	// family's kinds, in the order of Cases. Empty: the family's function
	// is right on every probe.
	Wrong []Answer
	// Orders are the key orders the implementation follows: key order's
	// profile (see keyOrders), read by OrderCause, where the other
	// families' is read by Explains and Cause.
	Orders []string
}

// Measure reads implementation name's profile of family f from the
// outcomes of its probes (got) and the reference's (ref), both in the
// order of Cases(f). A probe the implementation crashed or hung on tells
// nothing of its formatting: the profile is unknown, and so an error.
//
// Measure is for a reference that follows this project's contract;
// MeasureUnder for one that follows another.
func Measure(f Family, name string, ref, got []compare.Outcome) (Profile, error) {
	return MeasureUnder(contract.Default, f, name, ref, got)
}

// MeasureUnder is Measure for a reference that follows contract want,
// whose key order is the right one.
func MeasureUnder(want contract.Contract, f Family, name string, ref, got []compare.Outcome) (Profile, error) {
	cs := Cases(f)
	if len(ref) != len(cs) || len(got) != len(cs) {
		return Profile{}, fmt.Errorf("probe %s: %d and %d outcomes for %d probes", f, len(ref), len(got), len(cs))
	}
	p := Profile{Family: f}
	for i, c := range cs {
		if got[i].Failure != "" {
			return Profile{}, fmt.Errorf("probe %s: %s %s on %s", f, name, got[i].Failure, value.AppendText(nil, c.Input()))
		}
		for _, s := range compare.SignatureOf([]string{"reference", name}, []compare.Outcome{ref[i], got[i]}) {
			if Of(s.Kind) != f || !s.Deviates(name) {
				continue
			}
			sp, _ := c.Spelling(got[i].Canonical)
			p.Wrong = append(p.Wrong, Answer{Case: c, Shape: compare.Signature{Kind: s.Kind, Cause: s.Cause, Deviants: []string{name}}, Spelling: sp})
		}
	}
	if f == KeyOrder {
		p.Orders = keyOrders(want, p.Wrong, ref, got)
	}
	return p, nil
}

// Applies reports whether family f may name a bucket whose minimized
// example is input: a number's difference is the float formatter's only in
// an input that holds a float (an integer's digits are another function's,
// a parser's or a big-integer path's); a string's, in any input.
func Applies(f Family, input any) bool {
	return f != Floats || holdsFloat(input)
}

// holdsFloat reports whether v holds a float anywhere.
func holdsFloat(v any) bool {
	switch v := v.(type) {
	case float64, float32:
		return true
	case []any:
		return slices.ContainsFunc(v, holdsFloat)
	case value.Object:
		return slices.ContainsFunc(v, func(m value.Member) bool { return holdsFloat(m.Value) })
	case value.RawObject:
		return slices.ContainsFunc(v, func(m value.RawMember) bool { return holdsFloat(m.Key) || holdsFloat(m.Value) })
	case map[string]any:
		for _, x := range v {
			if holdsFloat(x) {
				return true
			}
		}
	}
	return false
}

// own are the wrong probes that are the family function's own, one
// defect however many classes it shows: every float probe (one formatter
// writes them all), but of the strings only those wrong in a key and right
// in a value, the key writer's (keys spliced between quotes as they are).
// A character wrong in values too is its class's cause, one bucket of its
// own already (keys and values alike), and several such classes are
// several causes: DEL raw and non-ASCII raw are two choices a contract
// settles apart (RFC 8785 writes both raw), \u00XX for \n and upper-case
// hex two fixes.
func (p Profile) own() []Answer {
	if p.Family == Floats {
		return p.Wrong
	}
	var own []Answer
	for _, w := range p.Wrong {
		if w.Key && !slices.ContainsFunc(p.Wrong, func(v Answer) bool { return !v.Key && v.Name == w.Name }) {
			own = append(own, w)
		}
	}
	return own
}

// Explains reports whether the profile accounts for a difference of shape
// sig: one of its own probes (see own) showed that very kind and cause,
// and none of the others did; or sig is a key breaking out of its string
// (key_escape) and one of its own probed keys broke out too, which is one
// key writer escaping nothing whatever follows the quote or backslash. A
// difference no probe shows (a lone surrogate written as U+FFFD, an
// integer's digits) is not the family function's, as far as the probes
// know, and keeps its own label.
func (p Profile) Explains(sig compare.Signature) bool {
	own := p.own()
	same := func(w Answer) bool { return w.Shape.Bucket() == sig.Bucket() }
	if slices.ContainsFunc(p.Wrong, same) && !slices.ContainsFunc(own, same) {
		return false
	}
	return slices.ContainsFunc(own, same) ||
		sig.Kind == compare.KindKeyEscape && slices.ContainsFunc(own, func(w Answer) bool { return w.Shape.Kind == compare.KindKeyEscape })
}

// Cause is the profile's kind and cause, the label of every bucket of the
// family it explains: the one shape its own probes show when they show one
// (a planted bug keeps the label its examples give), else the family's
// cause naming each of them and how it was written. It is canonical: the
// probes' order is fixed, so one profile is one cause. ok is false when no
// probe is the function's own.
func (p Profile) Cause() (kind compare.Kind, cause string, ok bool) {
	own := p.own()
	if len(own) == 0 {
		return "", "", false
	}
	first := own[0].Shape
	if !slices.ContainsFunc(own, func(w Answer) bool { return w.Shape.Bucket() != first.Bucket() }) {
		return first.Kind, first.Cause, true
	}
	if p.Family == Floats {
		return compare.KindNumber, compare.FitCause(floatCause(own), ""), true
	}
	kind = compare.KindString
	if slices.ContainsFunc(own, func(w Answer) bool { return w.Shape.Kind == compare.KindKeyEscape }) {
		kind = compare.KindKeyEscape
	}
	return kind, compare.FitCause(keyCause(own), ""), true
}

// The heads of the families' causes.
const (
	floatHead = "floats formatted otherwise: "
	keyHead   = "characters in keys written otherwise: "
)

// maxSpelling bounds one spelling shown in a cause.
const maxSpelling = 24

// floatCause names each wrong float probe, with its spelling for as many
// as fit ("0.1 as 0.10000000000000001, -0.0 as -0, also 1e-7 NaN").
func floatCause(wrong []Answer) string {
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
		s := floatHead + strings.Join(full[:k], ", ")
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
	return fitList(floatHead, names, " ")
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
