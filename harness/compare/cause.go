package compare

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/difffuzz/difffuzz/contract"
)

// Cause names the kind and the root cause of the difference between the
// reference's canonical text a and a deviant's text b, which first differ at
// byte off. The cause is told from what is written there, never from where:
// the same escaping bug in a key and in a value is one cause, so that it is
// one bucket, while two escaping bugs are two. It reads like "U+007F written
// raw (want \u007f)" or "keys in UTF-16 order", and says what the deviant
// b did, never what the reference did.
//
// Cause judges under this project's contract; CauseUnder under another.
func Cause(a, b []byte, off int) (Kind, string) { return CauseUnder(contract.Default, a, b, off) }

// CauseUnder is Cause for a reference that follows contract c: where what
// is wanted depends on the contract's choices (key order, integers past
// 2^53), the cause says what c wants (see wants).
func CauseUnder(c contract.Contract, a, b []byte, off int) (Kind, string) {
	w := wantsOf(c)
	st := scan(a[:off])
	if st.inString {
		return stringCause(a, b, st, w)
	}
	if k, cause, ok := numberCause(a, b, off, st, w); ok {
		return k, cause
	}
	if st.inObject && (member(at(a, off)) || member(at(b, off))) {
		if k, cause, ok := memberCause(a, b, st.objects[len(st.objects)-1], w); ok {
			return k, cause
		}
	}
	return KindStructure, fmt.Sprintf("%s where want %s", tokenName(b, off), tokenName(a, off))
}

// Classify is the kind of Cause alone.
func Classify(a, b []byte, off int) Kind {
	k, _ := Cause(a, b, off)
	return k
}

// stringCause names a difference inside the string that opens at st.start:
// the first unit (a character, raw or escaped) whose spelling differs. It
// is string_escape wherever the string is, a key or a value, but for a
// quote or a backslash left unescaped in a key, which breaks out of the
// key (key_escape): keys written by a path of their own that escapes
// nothing are a bug of their own, the one that makes two calls one
// (docs/triage.md, Collisions).
func stringCause(a, b []byte, st scanState, w wants) (Kind, string) {
	p := st.start + 1
	for p < len(a) {
		n := unitLen(a[p:])
		if p+n > len(b) || !bytes.Equal(a[p:p+n], b[p:p+n]) {
			break
		}
		p += n
	}
	ua, ub := readUnit(a[p:]), readUnit(b[p:])
	switch {
	case ua.cp == '"' && !ua.end && ub.end,
		ua.cp == '\\' && ua.form == formShort && !ub.end && ub.form != formRaw && ub.cp != '\\':
		return leftUnescaped(ua.cp, st.key)
	}
	if r, cp, ok := firstLeftRaw(a, b, st.start); ok && r <= p {
		return leftUnescaped(cp, st.key)
	}
	if st.key && (ua.end || ub.end || ua.cp != ub.cp) {
		if k, cause, ok := keyListCause(a, b, st, w); ok {
			return k, cause
		}
	}
	return KindString, unitCause(a, b, st.start, p, ua, ub)
}

// unitCause names how the deviant's unit ub at b[p] departs from the
// reference's ua at a[p], in the string that opens at a[start]: spelled
// otherwise, added, dropped, or another character.
func unitCause(a, b []byte, start, p int, ua, ub unit) string {
	switch {
	case ua.end:
		return "a string written past its end (" + charClass(ub.cp) + " added)"
	case ub.end:
		return "a string cut short at " + cutClass(ua.cp)
	case ua.cp == ub.cp && upperOfLower(ua.form, ub.form):
		return `\uXXXX written in upper case (want lower case)`
	case codePointEscape(b[p:], ua.cp):
		return charClass(ua.cp) + " written as \\u and its code point (want " + pairOrRaw(ua.form) + ")"
	case ua.cp == ub.cp || ub.form == formInvalid:
		return fmt.Sprintf("%s written %s (want %s)", formClass(ua.cp), ub.form.describe(ua.form), ua.form.spell(ua.cp))
	}
	restA, restB := a[p:start+len(token(a, start))], b[p:start+len(token(b, start))]
	switch {
	case bytes.Equal(restA, nextUnit(restB)):
		return charClass(ub.cp) + " added"
	case bytes.Equal(nextUnit(restA), restB):
		return charClass(ua.cp) + " dropped"
	}
	return replaced(ua.cp, ub.cp)
}

// replaced names a character changed into another: by the class of each,
// and, when both are of one class, by that class once ("a character
// replaced by another (non-ASCII)"), never "non-ASCII written as
// non-ASCII", which reads as no change at all.
func replaced(a, b rune) string {
	ca, cb := charClass(a), charClass(b)
	if ca == cb {
		return "a character replaced by another (" + ca + ")"
	}
	return ca + " written as " + cb
}

// codePointEscape reports whether s starts with \u and the five or six hex
// digits of the astral character cp (\u1f600 for U+1F600), where JSON
// wants a surrogate pair. JSON reads \u1f600 as U+1F60 and a "0", so the
// character read back depends on the code point (non-ASCII, a lone
// surrogate, U+2028 or U+FFFD): the spelling, not what it reads as, is the
// one cause.
func codePointEscape(s []byte, cp rune) bool {
	if cp < 0x10000 || len(s) < 2 || s[0] != '\\' || s[1] != 'u' {
		return false
	}
	for _, n := range []int{5, 6} {
		if v, ok := hexN(s[2:], n); ok && v == cp {
			return true
		}
	}
	return false
}

// keyListCause tells whether a key that reads as another key is the object's
// members in another order, or another set of members.
func keyListCause(a, b []byte, st scanState, w wants) (Kind, string, bool) {
	if len(st.objects) == 0 {
		return "", "", false
	}
	obj := st.objects[len(st.objects)-1]
	ka, kb := objectKeys(a, obj), objectKeys(b, obj)
	if !slices.Contains(ka, keyOf(b, st.start)) {
		return "", "", false // the key itself was written wrong
	}
	k, cause := keysCause(ka, kb, keyTokens(a, obj), w)
	return k, cause, true
}

// member reports whether c starts or ends an object member.
func member(c byte) bool { return c == '"' || c == ',' || c == '}' }

// memberCause names a difference at a member boundary of the object at
// start: another member comes first, or one is missing or added; not ok
// when the keys are the same.
func memberCause(a, b []byte, start int, w wants) (Kind, string, bool) {
	ka, kb := objectKeys(a, start), objectKeys(b, start)
	if slices.Equal(ka, kb) {
		return "", "", false
	}
	k, cause := keysCause(ka, kb, keyTokens(a, start), w)
	return k, cause, true
}

// keysCause compares the reference's keys ka of an object, written as the
// tokens spelled, with a deviant's kb, in their written order: kb is named
// by the first of keyOrders it is in, else "keys out of order".
func keysCause(ka, kb, spelled []string, w wants) (Kind, string) {
	sa, sb := slices.Sorted(slices.Values(ka)), slices.Sorted(slices.Values(kb))
	if !slices.Equal(sa, sb) {
		return KindStructure, membersCause(ka, kb)
	}
	for _, o := range keyOrders(w, ka, spelled) {
		if slices.Equal(kb, o.keys) {
			return KindKeyOrder, o.cause
		}
	}
	return KindKeyOrder, KeysOutOfOrder
}

// KeysOutOfOrder names keys in an order none of keyOrders gives.
const KeysOutOfOrder = "keys out of order"

// keyOrder is an order of an object's keys that a deviant may follow, and
// the key_order cause that names a deviant in it.
type keyOrder struct {
	cause string
	keys  []string
}

// keyOrders are the orders of the reference's keys ka, written as the
// tokens spelled, that a key_order cause names, in the order a cause is
// chosen among those a deviant's keys are in. The order of another
// contract (UTF-16 units where w wants code points, or the reverse) comes
// first: under RFC 8785, code-point order is also the order of the raw
// tokens, which would read as "sorted by their escaped text".
func keyOrders(w wants, ka, spelled []string) []keyOrder {
	rev := slices.Clone(ka)
	slices.Reverse(rev)
	return append(w.otherOrders(ka),
		keyOrder{"keys sorted by their escaped text", spelledOrder(ka, spelled)},
		keyOrder{"integer-like keys first (JavaScript property order)", jsOrder(ka)},
		keyOrder{"keys in reverse order", rev})
}

// membersCause names how a deviant's keys kb differ from the reference's ka
// as sets: a member dropped or added (the key named when it is one that
// hosts treat specially).
func membersCause(ka, kb []string) string {
	dropped, added := minus(ka, kb), minus(kb, ka)
	switch {
	case len(dropped) > 0 && len(added) == 0:
		return "a member " + special(dropped) + "dropped"
	case len(added) > 0 && len(dropped) == 0:
		return "a member " + special(added) + "added"
	}
	return "another set of members"
}

// special names a key among keys that hosts treat specially, for the cause.
func special(keys []string) string {
	for _, k := range keys {
		if k == "__proto__" || k == "constructor" || k == "prototype" {
			return "`" + k + "` "
		}
	}
	return ""
}

// minus is the keys of x, counted with repeats, that y lacks.
func minus(x, y []string) []string {
	left := slices.Clone(y)
	var out []string
	for _, k := range x {
		if i := slices.Index(left, k); i >= 0 {
			left = slices.Delete(left, i, i+1)
		} else {
			out = append(out, k)
		}
	}
	return out
}

// utf16Order is keys sorted by UTF-16 code units, as JavaScript sorts.
func utf16Order(keys []string) []string {
	out := slices.Clone(keys)
	slices.SortStableFunc(out, func(x, y string) int {
		return slices.Compare(utf16.Encode([]rune(x)), utf16.Encode([]rune(y)))
	})
	return out
}

// spelledOrder is keys sorted by their tokens as the reference spelled them,
// escapes and all, as a library that sorts the keys it has already written
// does (serde_jcs: "\n" is 5C 6E there, and sorts after "0" and "D").
// Checked before the orders a pair of keys shows by chance (reverse order,
// JavaScript's), since a pair of keys is where minimizing leaves it.
func spelledOrder(keys, spelled []string) []string {
	if len(spelled) != len(keys) {
		return nil
	}
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int { return strings.Compare(spelled[x], spelled[y]) })
	out := make([]string, len(keys))
	for i, j := range idx {
		out[i] = keys[j]
	}
	return out
}

// jsOrder is the order a JavaScript object gives keys inserted in code
// point order: the integer-like ones first, by value, then the rest.
func jsOrder(keys []string) []string {
	var ints, rest []string
	for _, k := range keys {
		if arrayIndex(k) {
			ints = append(ints, k)
		} else {
			rest = append(rest, k)
		}
	}
	slices.SortStableFunc(ints, func(x, y string) int {
		if len(x) != len(y) {
			return len(x) - len(y)
		}
		return strings.Compare(x, y)
	})
	return append(ints, rest...)
}

// arrayIndex reports whether k is a canonical array index, which a
// JavaScript object orders before its other keys.
func arrayIndex(k string) bool {
	if k == "0" {
		return true
	}
	if k == "" || k[0] == '0' || len(k) > 10 || len(k) == 10 && k > "4294967294" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return false
		}
	}
	return true
}
