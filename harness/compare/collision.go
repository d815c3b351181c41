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
// reference's outcomes, first and second the cases' signatures. Its kind is
// KindCollision; its cause is where the reference's two texts first differ,
// read as the first text wanted and the second written (for twins, the
// place where name merged them: "a `\"` in a key left unescaped"), so
// that one bug's collisions are one bucket whatever else their cases hold.
// When the reference rejected one of them, it is the cause of name's
// deviation on the first case it deviated on. When name's first deviation
// on both cases is one structural cause (KindStructure: a member dropped,
// a byte where an object belongs), it is that cause: past a structural
// deviation the texts no longer line up, so where the reference's two
// texts differ says nothing of the bug, and an implementation that writes
// every object wrong one way would make a bucket of each place two cases
// may differ. A character-level deviation on both (a shared context that
// holds raw non-ASCII, say) keeps the texts in line, and the place of
// the reference's difference names the collision. ok is false when name
// deviates on neither, which a collision rules out.
func CollisionSignature(name string, ra, rb Outcome, first, second []Signature) (Signature, bool) {
	s := Signature{Kind: KindCollision, Deviants: []string{name}}
	a, b := deviationOf(name, first), deviationOf(name, second)
	switch {
	case a != nil && b != nil && a.Kind == KindStructure && a.Bucket() == b.Bucket():
		s.Cause = a.Cause
	case ra.Canonical != nil && rb.Canonical != nil && !bytes.Equal(ra.Canonical, rb.Canonical):
		_, s.Cause = Cause(ra.Canonical, rb.Canonical, FirstDiff(ra.Canonical, rb.Canonical))
	case a != nil:
		s.Cause = a.Cause
	case b != nil:
		s.Cause = b.Cause
	default:
		return Signature{}, false
	}
	return s, true
}

// deviationOf is the first of sigs that name deviates in, or nil.
func deviationOf(name string, sigs []Signature) *Signature {
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
