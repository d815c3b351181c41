package compare

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
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

// CollisionSignature names the collision implementation name shows between
// two judged cases, the lower-indexed first: its kind is KindCollision, its
// cause the root cause of the first of the two cases on which name
// deviates from the reference (the bug that merged them: "a \"\\\"\" in a
// key left unescaped"), so that one bug's collisions are one bucket. ok is
// false when name deviates on neither, which a collision rules out.
func CollisionSignature(name string, first, second []Signature) (Signature, bool) {
	for _, sigs := range [][]Signature{first, second} {
		if i := slices.IndexFunc(sigs, func(s Signature) bool { return s.Deviates(name) }); i >= 0 {
			return Signature{Kind: KindCollision, Cause: sigs[i].Cause, Deviants: []string{name}}, true
		}
	}
	return Signature{}, false
}

// RenderCollision shows a collision for people: each case's reference
// outcome and implementation x's, and the digest x gave both.
func (c *Comparator) RenderCollision(x int, a, b []Outcome) string {
	var sb strings.Builder
	for i, outs := range [][]Outcome{a, b} {
		fmt.Fprintf(&sb, "  case %c %-10s %s\n", 'A'+i, c.names[0], Visible(clip(Describe(outs[0]), 400)))
		fmt.Fprintf(&sb, "         %-10s %s\n", c.names[x], Visible(clip(Describe(outs[x]), 400)))
	}
	fmt.Fprintf(&sb, "  %s gives both the digest %s: two calls the reference tells apart are one\n", c.names[x], hex.EncodeToString(a[x].Digest))
	return sb.String()
}
