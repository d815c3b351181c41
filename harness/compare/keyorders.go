package compare

import (
	"slices"

	"github.com/difffuzz/difffuzz/contract"
)

// This file lets another package weigh the key orders a key_order
// difference may be named by, all of them rather than the first that
// fits, as keysCause picks: a pair of keys, where minimizing leaves a
// difference, is in several orders at once, and the key-order family's
// probes (harness/probe) tell which of them an implementation follows.

// KeyOrderCauses are the key_order causes, under contract c, of every
// order of the keys the deviant's text b is in, where it first differs
// from the reference's text a in the order of an object's keys: the causes
// keysCause chooses among, in its order, or "keys out of order" alone when
// b is in none of them. Nil when a and b do not first differ in the order
// of an object's keys.
func KeyOrderCauses(c contract.Contract, a, b []byte) []string {
	off := FirstDiff(a, b)
	if off < 0 {
		return nil
	}
	st := scan(a[:off])
	if len(st.objects) == 0 || !st.inString && !st.inObject {
		return nil
	}
	obj := st.objects[len(st.objects)-1]
	ka, kb := objectKeys(a, obj), objectKeys(b, obj)
	if slices.Equal(ka, kb) || !slices.Equal(slices.Sorted(slices.Values(ka)), slices.Sorted(slices.Values(kb))) {
		return nil
	}
	var causes []string
	for _, o := range keyOrders(wantsOf(c), ka, keyTokens(a, obj)) {
		if slices.Equal(kb, o.keys) {
			causes = append(causes, o.cause)
		}
	}
	if len(causes) == 0 {
		return []string{KeysOutOfOrder}
	}
	return causes
}

// KeyOrdersDiffering are the key_order causes, under contract c, of the
// orders that would write the keys of the object whose brace is at
// text[start], the reference's text, otherwise than it did: the orders
// an implementation that writes them as the reference did does not follow.
func KeyOrdersDiffering(c contract.Contract, text []byte, start int) []string {
	ka := objectKeys(text, start)
	var causes []string
	for _, o := range keyOrders(wantsOf(c), ka, keyTokens(text, start)) {
		if !slices.Equal(ka, o.keys) {
			causes = append(causes, o.cause)
		}
	}
	return causes
}

// Contract is the contract the reference of c's comparisons follows, whose
// wants its causes say.
func (c *Comparator) Contract() contract.Contract { return c.want }
