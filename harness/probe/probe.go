// Package probe measures a cause family in an implementation's own
// function. A bucket's cause is read off the shape of its one minimized
// example, so one float formatter that is wrong in many ways (%.17g: 0.1
// written long, -0 with its sign, Infinity as +Inf) makes as many buckets
// as shapes its examples happen to show, and one key writer that splices
// keys between quotes as they are makes one bucket per character class.
// For five families (float formatting, big integers, string escaping, key
// order, the domain's rules), a fixed set of probe cases is run through
// the implementation, and its profile (the probes it writes otherwise than
// the reference, and how) names every bucket of the family in it: a
// property of the function, measured once, not of one example.
//
// The package holds the probe sets, the reading of a profile from the
// probes' outcomes, and the profile's causes; it does no I/O. harness/lane
// runs the probes through an implementation (Lane.Family), for a run's
// relabelling after minimization and for check, replay and minimize alike
// (docs/triage.md, "Family probes").
package probe

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/jsontext"
	"github.com/difffuzz/difffuzz/value"
)

// Family is a class of causes whose root is usually one function of an
// implementation.
type Family string

// The families probed.
const (
	Floats   Family = "float formatting"
	Integers Family = "big integers"
	Strings  Family = "string escaping"
	KeyOrder Family = "key order" // see keyorder.go
	Domain   Family = "domain"    // see domain.go
)

// For is the family a difference of kind k, shown by input (a bucket's
// minimized example), belongs to, "" for none: a number's spelling is the
// float formatter's in an input that holds a float, the big-integer path's
// in one that holds an integer past 2^53 and no float (an integer that a
// double holds exactly is written by neither); a string's character, in a
// key or a value, is the escaper's; an order of keys, the key sorter's; a
// rejection, the domain's rules the implementation keeps.
func For(k compare.Kind, input any) Family {
	switch k {
	case compare.KindNumber:
		switch {
		case holdsFloat(input):
			return Floats
		case holdsBigInt(input):
			return Integers
		}
	case compare.KindString, compare.KindKeyEscape:
		return Strings
	case compare.KindKeyOrder:
		return KeyOrder
	case compare.KindRejection:
		return Domain
	}
	return ""
}

// owns reports whether a difference of kind k is family f's: what a
// profile of f counts, and what a defect of f may explain.
func owns(f Family, k compare.Kind) bool {
	switch f {
	case Floats, Integers:
		return k == compare.KindNumber
	case Strings:
		return k == compare.KindString || k == compare.KindKeyEscape
	case KeyOrder:
		return k == compare.KindKeyOrder
	case Domain:
		return k == compare.KindRejection
	}
	return false
}

// Case is one probe: a number, a string or keys, probed alone in a fixed
// valid input, or a domain probe's whole input (Input).
type Case struct {
	// Name is the probed number or character as people read it, in the
	// profile's cause: "0.1", "-0.0", "U+007F", "`\"`".
	Name string
	// Key: a string probed as a key, else as a value.
	Key    bool
	probed any // a float64, a string, or the []string keys of a key-order probe
	// input, when set, is the whole input: a domain probe, out of the
	// domain by its error code alone (Name).
	input any
}

// Input is the case's input, an envelope holding the probed value alone:
// {"tool_name":"","args":{"":X}}, or {"tool_name":"","args":{X:0}} for a
// key. It is valid under every contract (one whose top level is any value
// takes any object), and its canonical text is known around X (wrapping),
// so that the implementation's spelling of X can be read from its output.
// A domain probe's is its whole input.
func (c Case) Input() any {
	if c.input != nil {
		return c.input
	}
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

// spelledAs reports whether sp is a token of the probe's input as a text
// worker gets it (jsontext.Append), whose spelling of a number is one of
// several notations.
func (c Case) spelledAs(sp string) bool {
	if sp == "" {
		return false
	}
	text, err := jsontext.Append(nil, c.Input())
	if err != nil {
		return false
	}
	for i := 0; ; {
		j := bytes.Index(text[i:], []byte(sp))
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(sp)
		if (start == 0 || !numberByte(text[start-1])) && (end == len(text) || !numberByte(text[end])) {
			return true
		}
		i = start + 1
	}
}

// numberByte reports whether b may be part of a JSON number's token.
func numberByte(b byte) bool {
	return '0' <= b && b <= '9' || b == '.' || b == 'e' || b == 'E' || b == '+' || b == '-'
}

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

// Cases are family f's probes, in a fixed order: a profile lists what is
// wrong in it.
func Cases(f Family) []Case {
	switch f {
	case Floats:
		return floatCases
	case Integers:
		return intCases
	case Strings:
		return stringCases
	case KeyOrder:
		return keyOrderCases
	case Domain:
		return domainCases
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
	// Verbatim: Spelling is how the probe's text, as a text worker gets
	// it (package jsontext), spells the probed value, not the reference's
	// spelling: the implementation echoed its input.
	Verbatim bool
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
	// families' is read by Explains and CauseOf.
	Orders []string
}

// Measure reads implementation name's profile of family f from the
// outcomes of its probes (got) and the reference's (ref), both in the
// order of Cases(f), the reference following contract want, whose key
// order is the right one. A probe the implementation crashed or hung on
// tells nothing of its formatting: the profile is unknown, and so an
// error.
func Measure(want contract.Contract, f Family, name string, ref, got []compare.Outcome) (Profile, error) {
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
			if !owns(f, s.Kind) || !s.Deviates(name) {
				continue
			}
			sp, _ := c.Spelling(got[i].Canonical)
			p.Wrong = append(p.Wrong, Answer{Case: c, Shape: compare.Signature{Kind: s.Kind, Cause: s.Cause, Deviants: []string{name}},
				Spelling: sp, Verbatim: f == Floats && c.spelledAs(sp)})
		}
	}
	if f == KeyOrder {
		p.Orders = keyOrders(want, p.Wrong, ref, got)
	}
	return p, nil
}
