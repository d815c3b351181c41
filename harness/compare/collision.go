package compare

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// Collides reports whether one implementation's outcomes xa and xb of two
// cases are a collision, given the reference's outcomes ra and rb of the
// same cases: the implementation wrote a text for each, with one digest,
// while the reference tells the two apart, by two texts that differ or by a
// text and a rejection. A system that names a call by its digest would take
// the two calls for one (issue 26's false dedup).
//
// Equal reference texts are never a collision, however the inputs differ:
// -0 and 0 are both 0 by the contract. Two rejections are none either: the
// reference says neither is a call, and the implementation's acceptance of
// each is already a rejection finding of its own.
func Collides(ra, rb, xa, xb Outcome) bool {
	if !written(xa) || !written(xb) || !bytes.Equal(xa.Digest, xb.Digest) {
		return false
	}
	if ra.Absent() || rb.Absent() || ra.Failure != "" || rb.Failure != "" {
		return false // the reference gives no truth to tell them apart by
	}
	switch {
	case written(ra) && written(rb):
		return !sameText(ra, rb)
	case written(ra) || written(rb):
		return true // a text against a rejection
	}
	return false
}

// written reports whether o is a text (with its digest).
func written(o Outcome) bool {
	return !o.Absent() && o.Failure == "" && o.Error == "" && o.Digest != nil
}

// sameText compares two outputs by text when both carry it, else by
// digest (the reference's digests are BLAKE3 of its texts).
func sameText(a, b Outcome) bool {
	if a.Canonical != nil && b.Canonical != nil {
		return bytes.Equal(a.Canonical, b.Canonical)
	}
	return bytes.Equal(a.Digest, b.Digest)
}

// CollisionSignature names the collision implementation name shows
// between two judged cases, the lower-indexed first: ra and rb are the
// reference's outcomes, x name's (one text for both), first and second
// the cases' signatures. Its kind is
// KindCollision; its cause says what name did, never what the reference
// did, so that one bug's collisions are one bucket whatever else their
// cases hold:
//   - When name deviates on one case only, it wrote there the reference's
//     text of the other case (its one digest is the reference's there):
//     the cause is that deviation's, the place where name merged the two
//     ("a `\"` in a key left unescaped" for keys written unescaped; "-0
//     written without its sign" for an implementation that writes both -0
//     and 0 as 0, never "-0 written with its sign").
//   - When name's first deviation on both cases is one structural cause
//     (KindStructure: a member dropped, a byte where an object belongs), it
//     is that cause: past a structural deviation the texts no longer line
//     up, and an implementation that writes every object wrong one way
//     would make a bucket of each place two cases may differ.
//   - When its deviation on both is one cause, at the place where the
//     reference's two texts first differ (NaN and Infinity both written as
//     null), it is that cause: what name did to both there.
//   - When it deviates on both, and one of the two wrote a number with
//     another value, it is that deviation: another spelling keeps two
//     values apart, another value merges them (a parser that reads
//     999999999999999900000.0 as 1e21, whose formatter writes 1e21 in
//     full).
//   - When it deviates on both otherwise (a shared context that holds raw
//     non-ASCII, say), the texts stay in line, and the cause is where the
//     reference's two texts first differ: the place name merged them (see
//     mergeCause).
//   - When the reference rejected one of them and name deviates on both,
//     it is name's deviation on the case the reference wrote when that is
//     structural (one wrong shape for calls of every kind: a catch-all's
//     null for a valid call and for one it should refuse), else its
//     acceptance of the other: it wrote for an input it should refuse the
//     text of another call (a lone surrogate decoded as U+FFFD), whatever
//     else it wrote wrong on the valid one (U+FFFD written raw), which
//     would not tell the two calls apart if it were right.
//
// ok is false when name deviates on neither, which a collision rules out.
func CollisionSignature(name string, ra, rb, x Outcome, first, second []Signature) (Signature, bool) {
	s := Signature{Kind: KindCollision, Deviants: []string{name}}
	a, b := DeviationOf(name, first), DeviationOf(name, second)
	switch {
	case a == nil && b == nil:
		return Signature{}, false
	case a == nil:
		s.Cause = b.Cause
	case b == nil:
		s.Cause = a.Cause
	case a.Kind == KindStructure && a.Bucket() == b.Bucket():
		s.Cause = a.Cause
	case ra.Error != "" || rb.Error != "":
		s.Cause = rejectedCause(ra, a, b)
	case a.Bucket() == b.Bucket() && AtMerge(ra, rb, x):
		s.Cause = a.Cause
	case lostValue(a) != lostValue(b):
		s.Cause = a.Cause
		if lostValue(b) {
			s.Cause = b.Cause
		}
	case ra.Canonical != nil && rb.Canonical != nil && !bytes.Equal(ra.Canonical, rb.Canonical):
		s.Cause = mergeCause(ra.Canonical, rb.Canonical, a.Cause, b.Cause)
	default:
		s.Cause = a.Cause
	}
	return s, true
}

// rejectedCause names a collision of a case the reference rejected with
// one it wrote, given ra, the reference's outcome on the first, and name's
// deviations a and b on the two: its deviation on the written one when
// structural, else its acceptance of the rejected one (see
// CollisionSignature).
func rejectedCause(ra Outcome, a, b *Signature) string {
	written, accepted := a, b
	if ra.Error != "" {
		written, accepted = b, a
	}
	if written.Kind == KindStructure {
		return written.Cause
	}
	return accepted.Cause
}

// lostValue reports whether deviation d wrote a number with another value
// than the reference's. Of two numbers' deviations, only such a one can
// make two different values one text: another spelling of each keeps them
// apart.
func lostValue(d *Signature) bool { return d.Kind == KindNumber && ChangesValue(d.Cause) }

// AtMerge reports whether an implementation's one text x of a collision's
// two cases first departs from the reference's first text ra no sooner
// than the reference's two texts ra and rb differ: its deviation there is
// what made the two one (NaN and Infinity both written as null), not a
// shared context's (raw non-ASCII before the place the two differ).
func AtMerge(ra, rb, x Outcome) bool {
	if ra.Canonical == nil || rb.Canonical == nil || x.Canonical == nil || bytes.Equal(ra.Canonical, rb.Canonical) {
		return false
	}
	return FirstDiff(ra.Canonical, x.Canonical) >= FirstDiff(ra.Canonical, rb.Canonical)
}

// mergeCause names the place where the reference's texts ta and tb first
// differ, read as the first wanted and the second written, or the other way
// round when only that reading is one of the implementation's own
// deviations (devA on the first case, devB on the second): an
// implementation that writes 0.0 for both 0 and -0 is "-0 written without
// its sign", never "-0 written with its sign".
func mergeCause(ta, tb []byte, devA, devB string) string {
	off := FirstDiff(ta, tb)
	_, fwd := Cause(ta, tb, off)
	_, back := Cause(tb, ta, off)
	if fwd != devA && fwd != devB && (back == devA || back == devB) {
		return back
	}
	return fwd
}

// CollisionSignatureOf is SignatureOf for a collision pair: the
// signature of the collision adapter x shows between two cases judged
// afresh, a and b their outcomes in the order of names, the reference's
// first. ok is false when the two no longer collide in x.
func CollisionSignatureOf(names []string, x int, a, b []Outcome) (Signature, bool) {
	if !Collides(a[0], b[0], a[x], b[x]) {
		return Signature{}, false
	}
	return CollisionSignature(names[x], a[0], b[0], a[x], SignatureOf(names, a), SignatureOf(names, b))
}

// DeviationOf is the first of sigs that name deviates in, or nil: its
// deviation on a case, which names a collision (CollisionSignature).
func DeviationOf(name string, sigs []Signature) *Signature {
	if i := slices.IndexFunc(sigs, func(t Signature) bool { return t.Deviates(name) }); i >= 0 {
		return &sigs[i]
	}
	return nil
}

// RenderCollision shows a collision for people: each case's reference
// outcome and implementation x's, and the digest x gave both.
func (c *Comparator) RenderCollision(x int, a, b []Outcome) string {
	var sb strings.Builder
	for i, outs := range [][]Outcome{a, b} {
		fmt.Fprintf(&sb, "  case %c %-10s %s\n", 'A'+i, c.names[0], Visible(clip.String(Describe(outs[0]), 400)))
		fmt.Fprintf(&sb, "         %-10s %s\n", c.names[x], Visible(clip.String(Describe(outs[x]), 400)))
	}
	fmt.Fprintf(&sb, "  %s gives both the digest %s: two calls the reference tells apart are one\n", c.names[x], hex.EncodeToString(a[x].Digest))
	return sb.String()
}
