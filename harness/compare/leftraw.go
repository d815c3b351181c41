package compare

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

// leftUnescaped names a quote or a backslash (cp) written raw where the
// reference escaped it: key_escape in a key, which it breaks out of, else
// string_escape.
func leftUnescaped(cp rune, key bool) (Kind, string) {
	c := "`" + string(cp) + "`"
	if key {
		return KindKeyEscape, "a " + c + " in a key left unescaped"
	}
	return KindString, "a " + c + " left unescaped"
}

// spelling is one unit of the reference's string: as the reference wrote
// it, and raw (nil when raw is how it wrote it, or it has no raw form).
type spelling struct {
	at        int // its offset in the reference's text
	as, raw   []byte
	quoteOrBS bool // a quote or a backslash, which the reference escapes
}

// The bounds of the strings firstLeftRaw reads. Each unit the reference
// escaped has two readings, as escaped and raw, and a run of n backslashes
// on the order of n² ways to pair them up, so the escaped units are
// bounded by maxAligned; the others have one reading each, which costs a
// step, so all units by maxUnits. A string past either, seen while
// fuzzing, takes the unit-by-unit cause; so would its minimized example,
// kept so by its label, were the bounds the few characters a minimized
// example needs: a 257-character key with two backslashes stayed `a \
// written as printable ASCII` when the bound was 256 units of any kind.
const (
	maxAligned = 256
	maxUnits   = 1 << 14
)

// firstLeftRaw finds the first quote or backslash that b wrote raw in the
// string that opens at start in both texts, when b's string reads as a's
// with each character spelled as a spelled it or raw. Such a string is
// written by a path that escapes nothing (go-17g's keys), and its raw
// backslashes pair up with what follows them into escapes of their own:
// the key \\a written raw reads as \a, which a walk unit by unit calls "a
// `\` dropped", and \\ then U+0017 "a `\` written as a control character".
// Read this way, one bug is one cause whatever follows the backslash. It
// reports the unit's offset in a and its code point.
func firstLeftRaw(a, b []byte, start int) (at int, cp rune, ok bool) {
	units, ok := spellings(a, start)
	if !ok || !slices.ContainsFunc(units, func(u spelling) bool { return u.quoteOrBS }) {
		return 0, 0, false
	}
	fits := aligner(units, b)
	q := start + 1
	if !fits(0, q) {
		return 0, 0, false
	}
	for i, u := range units {
		switch {
		case u.raw == nil: // one reading, which fits(0, ...) found
			q += len(u.as)
		case u.quoteOrBS && bytes.HasPrefix(b[q:], u.raw) && fits(i+1, q+len(u.raw)):
			return u.at, rune(u.raw[0]), true
		case bytes.HasPrefix(b[q:], u.as) && fits(i+1, q+len(u.as)):
			q += len(u.as)
		default:
			q += len(u.raw)
		}
	}
	return 0, 0, false
}

// spellings is the units of the string that opens at a[start], up to its
// closing quote; not ok past maxUnits of them, or maxAligned escaped.
func spellings(a []byte, start int) ([]spelling, bool) {
	var out []spelling
	escaped := 0
	for p := start + 1; p < len(a); {
		u := readUnit(a[p:])
		if u.end {
			break
		}
		n := unitLen(a[p:])
		s := spelling{at: p, as: a[p:min(len(a), p+n)]}
		if u.form != formRaw && utf8.ValidRune(u.cp) {
			s.raw = utf8.AppendRune(nil, u.cp)
			s.quoteOrBS = u.cp == '"' || u.cp == '\\'
			escaped++
		}
		if len(out) == maxUnits || escaped > maxAligned {
			return nil, false
		}
		out = append(out, s)
		p += n
	}
	return out, true
}

// aligner returns fits(i, q): whether units[i:], each spelled as the
// reference spelled it or raw, are b from q on, up to a closing quote.
// Backslashes written raw make the reading ambiguous (\\ is one backslash
// escaped or two raw), so it tries both, remembering what it found.
func aligner(units []spelling, b []byte) func(i, q int) bool {
	memo := map[[2]int]bool{}
	var fits func(i, q int) bool
	fits = func(i, q int) bool {
		for ; i < len(units) && units[i].raw == nil; i++ { // one reading: no choice to remember
			if !bytes.HasPrefix(b[q:], units[i].as) {
				return false
			}
			q += len(units[i].as)
		}
		if i == len(units) {
			return q < len(b) && b[q] == '"'
		}
		k := [2]int{i, q}
		if v, seen := memo[k]; seen {
			return v
		}
		u := units[i]
		v := bytes.HasPrefix(b[q:], u.as) && fits(i+1, q+len(u.as)) ||
			u.raw != nil && bytes.HasPrefix(b[q:], u.raw) && fits(i+1, q+len(u.raw))
		memo[k] = v
		return v
	}
	return fits
}
