package probe

import (
	"math"
	"slices"
	"strconv"

	"github.com/difffuzz/difffuzz/harness/compare"
)

// A defect is the wrong probes of a profile that one rule of the family's
// function makes, one cause however many classes of probes it shows.
type defect struct {
	wrong []Answer
	// kind and cause are its label: the one shape its probes show when
	// they show one (a planted bug keeps the label its examples give), else
	// the family's naming them (see shaped).
	kind  compare.Kind
	cause string
	// explains, when set, is the shapes of the family's kinds the defect
	// explains beyond its probes' own: every one (a formatter that echoes
	// the input's spelling, a big-integer path), or every shape of another
	// value (a parser or a precision that loses digits).
	explains func(compare.Signature) bool
}

// anyShape explains every difference of the family's kinds.
func anyShape(compare.Signature) bool { return true }

// valueShape explains a number written with another value.
func valueShape(s compare.Signature) bool { return compare.ChangesValue(s.Cause) }

// minVerbatim is how many wrong float probes, all echoing the probe's
// text, make a formatter one that echoes its input: one or two may match
// a spelling of the text by chance.
const minVerbatim = 3

// defects are the profile's defects:
//   - of floats, the formatter's style, every probe written as another
//     spelling of its double (or not as a number: NaN as null), and the
//     lost precision, every probe written with another value (a parser that
//     rounds 3728.8897006372813 to its neighbour, a formatter of 15
//     digits), which explains every shape of another value; or, when every
//     wrong probe echoes the probe's text, the echo, which explains every
//     number;
//   - of big integers, every wrong probe: one big-integer path writes them
//     all, and it explains every number of an input whose one big number
//     is an integer;
//   - of strings, the key writer's (the characters wrong in a key and right
//     in a value: keys spliced between quotes as they are), and the raw
//     writer's (the characters written raw in a value, and the same in a
//     key: an escaper that escapes what JSON requires and writes the rest
//     as it is, DEL, C1 controls and non-ASCII alike, as RFC 8785 and
//     ensure_ascii=False do). A character wrong otherwise in values too is
//     its class's cause, one bucket of its own already (keys and values
//     alike), and two such classes two causes: \u00XX for \n and
//     upper-case hex are two fixes.
func (p Profile) defects() []defect {
	var ds []defect
	add := func(d defect) {
		if len(d.wrong) > 0 {
			ds = append(ds, d)
		}
	}
	switch p.Family {
	case Floats:
		if len(p.Wrong) >= minVerbatim && !slices.ContainsFunc(p.Wrong, func(w Answer) bool { return !w.Verbatim }) {
			add(defect{wrong: p.Wrong, kind: compare.KindNumber, cause: verbatimCause, explains: anyShape})
			break
		}
		style, lost := p.lostValue()
		add(shaped(style, compare.KindNumber, spelledCause(floatHead, style), nil))
		add(shaped(lost, compare.KindNumber, spelledCause(valueHead, lost), valueShape))
	case Integers:
		add(shaped(p.Wrong, compare.KindNumber, spelledCause(intHead, p.Wrong), anyShape))
	case Strings:
		keys, raw := p.keyWriter(), p.rawWriter()
		kind := compare.KindString
		if slices.ContainsFunc(keys, func(w Answer) bool { return w.Shape.Kind == compare.KindKeyEscape }) {
			kind = compare.KindKeyEscape
		}
		add(shaped(keys, kind, keyCause(keys), nil))
		add(shaped(raw, compare.KindString, rawCause(raw), nil))
	}
	return ds
}

// shaped is the defect of the wrong probes, labelled by the family's kind
// and cause, or by the one shape they show when they show one.
func shaped(wrong []Answer, kind compare.Kind, cause string, explains func(compare.Signature) bool) defect {
	d := defect{wrong: wrong, kind: kind, cause: cause, explains: explains}
	if len(wrong) > 0 && !slices.ContainsFunc(wrong, func(w Answer) bool { return w.Shape.Bucket() != wrong[0].Shape.Bucket() }) {
		d.kind, d.cause = wrong[0].Shape.Kind, wrong[0].Shape.Cause
	}
	return d
}

// lostValue splits the wrong float probes into those written as another
// spelling of their double, or not as a number, and those written with
// another value.
func (p Profile) lostValue() (style, lost []Answer) {
	for _, w := range p.Wrong {
		x, err := strconv.ParseFloat(w.Spelling, 64)
		if f, ok := w.probed.(float64); ok && err == nil && x != f && !math.IsNaN(f) {
			lost = append(lost, w)
			continue
		}
		style = append(style, w)
	}
	return style, lost
}

// keyWriter are the string probes wrong in a key and right in a value.
func (p Profile) keyWriter() []Answer {
	var out []Answer
	for _, w := range p.Wrong {
		inValue := func(v Answer) bool { return !v.Key && v.Name == w.Name }
		if w.Key && !slices.ContainsFunc(p.Wrong, inValue) {
			out = append(out, w)
		}
	}
	return out
}

// rawWriter are the string probes written raw in a value, and the same
// characters wrong in a key.
func (p Profile) rawWriter() []Answer {
	var out []Answer
	for _, w := range p.Wrong {
		raw := func(v Answer) bool { return !v.Key && v.Name == w.Name && v.Spelling == v.probed.(string) }
		if slices.ContainsFunc(p.Wrong, raw) {
			out = append(out, w)
		}
	}
	return out
}

// defectOf is the defect that explains a difference of shape sig: one of
// its probes showed that very kind and cause; or sig is a key breaking out
// of its string (key_escape) and one of the key writer's probed keys broke
// out too, which is one key writer escaping nothing whatever follows the
// quote or backslash; or the defect explains any shape of the family's.
// A difference no probe shows (a lone surrogate written as U+FFFD, an
// integer's digits in a float's place) is not the family function's, as
// far as the probes know, and keeps its own label; so does one a probe
// shows outside every defect.
func (p Profile) defectOf(sig compare.Signature) (defect, bool) {
	ds := p.defects()
	same := func(w Answer) bool { return w.Shape.Bucket() == sig.Bucket() }
	for _, d := range ds {
		if slices.ContainsFunc(d.wrong, same) {
			return d, true
		}
	}
	if slices.ContainsFunc(p.Wrong, same) {
		return defect{}, false
	}
	for _, d := range ds {
		breaks := sig.Kind == compare.KindKeyEscape && d.kind == compare.KindKeyEscape
		if d.explains != nil && owns(p.Family, sig.Kind) && d.explains(sig) || breaks {
			return d, true
		}
	}
	return defect{}, false
}

// Explains reports whether one of the profile's defects accounts for a
// difference of shape sig (see defectOf).
func (p Profile) Explains(sig compare.Signature) bool {
	_, ok := p.defectOf(sig)
	return ok
}

// CauseOf is the label of every bucket the defect that explains sig
// explains: the one shape its probes show when they show one, else the
// family's cause naming each of them and how it was written. It is
// canonical: the probes' order is fixed, so one defect is one cause. ok is
// false when no defect explains sig.
func (p Profile) CauseOf(sig compare.Signature) (kind compare.Kind, cause string, ok bool) {
	d, ok := p.defectOf(sig)
	if !ok {
		return "", "", false
	}
	return d.kind, compare.FitCause(d.cause), true
}
