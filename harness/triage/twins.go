package triage

import "github.com/difffuzz/difffuzz/harness/compare"

// Twins is the collision-twin step of a run's regrouping and of a corpus
// merge, defined once so that the two bucket alike (docs/triage.md,
// "Minimized, relabelled, merged"): into[i] is the index of the bucket
// that bucket i goes into, or -1 when it stays. A plain bucket goes into
// the first minimized collision bucket of its cause in the same
// implementations (compare.Signature.SameCause): one bug, seen as a wrong
// text and as the two calls that text makes one. Only a minimized
// collision takes a twin, so that its label is proven by replaying its
// pair; a collision never goes into another.
func Twins(sigs []compare.Signature, minimized []bool) (into []int) {
	into = make([]int, len(sigs))
	for i, s := range sigs {
		into[i] = -1
		if s.Kind == compare.KindCollision {
			continue
		}
		for j, o := range sigs {
			if o.Kind == compare.KindCollision && minimized[j] && o.SameCause(s) {
				into[i] = j
				break
			}
		}
	}
	return into
}
