package probe

import (
	"bytes"
	"math/bits"
	"slices"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/value"
)

// The key-order family. A key_order bucket is labelled by the first order
// (compare's keyOrders) its minimized example is in, and a pair of keys,
// where minimizing leaves it, is in several: {"\b":0,"0":0} written "0"
// first is in escaped-text order, integer-like-first order and reverse
// order at once. So one sorter makes several buckets, and a writer that
// follows two orders (a JavaScript object's integer-like keys first, its
// other keys sorted by UTF-16 units) gets the wrong one. The probes below
// tell each order from the others; the implementation's profile is the
// fewest orders that account for every probe it writes otherwise, and a
// bucket's label is the one of them its example is in.

// keyOrderCases probe a key writer's order. Each holds a few keys in
// code-point order (but the last), and each tells some orders from the
// others, under either contract:
//   - U+F8FF, U+1F4A9: UTF-16 units put the astral key first (a high
//     surrogate sorts before U+F8FF), code points put it last: the
//     contract's order against the other one. Escaped text follows UTF-16
//     here under this project's contract (\ud83d before \uf8ff) and code
//     points under RFC 8785 (raw UTF-8): it is told by the next two.
//   - U+0008, A: escaped text puts A first (`\b` is 5C 62, after 41); every
//     order of the characters puts U+0008 first.
//   - `"`, A: the same with the escape every writer makes.
//   - 10, 9: a JavaScript object puts integer-like keys first, by value:
//     9 before 10, where every order of text puts 10 first.
//   - !, 0: and an integer-like key before the others: 0 before !, where
//     every order of text puts ! first.
//   - b, c, a: the reverse order writes c b a, where every sort writes a b
//     c and a writer that keeps the input's order b c a (in no named
//     order, "keys out of order"). On a pair of keys every wrong order is
//     the reverse: this is the one probe that tells the reverse order.
var keyOrderCases = []Case{
	{Name: "U+F8FF U+1F4A9", probed: []string{"\uf8ff", "\U0001F4A9"}},
	{Name: "U+0008 A", probed: []string{"\b", "A"}},
	{Name: "`\"` A", probed: []string{`"`, "A"}},
	{Name: "10 9", probed: []string{"10", "9"}},
	{Name: "! 0", probed: []string{"!", "0"}},
	{Name: "b c a", probed: []string{"b", "c", "a"}},
}

func isKeys(v any) bool { _, ok := v.([]string); return ok }

// zeros is an object of keys, each holding 0, in their order.
func zeros(keys []string) value.Object {
	o := make(value.Object, len(keys))
	for i, k := range keys {
		o[i] = value.Member{Key: k, Value: int64(0)}
	}
	return o
}

// keyOrders are the key orders an implementation follows, read under
// contract want from its key-order probes (ref and got, in the order of
// keyOrderCases), wrong being those the comparison found in another
// order. They are the fewest orders that account for every probe in
// wrong, each of which is in one or more orders, leaving out any order
// that a probe written as the reference did rules out (the order would
// have written it otherwise). The fewest, since a sorter by escaped text
// is in UTF-16 order too on the first probe, under this project's
// contract, but escaped text alone accounts for all three probes it gets
// wrong. Where several choices are as few, all are kept: the probes do not
// tell them apart, and an example in more than one keeps its label (see
// OrderCause). A probe in no order left is "keys out of order".
func keyOrders(want contract.Contract, wrong []Answer, ref, got []compare.Outcome) []string {
	ruled := map[string]bool{}
	var fits [][]string
	for i, c := range keyOrderCases {
		if slices.ContainsFunc(wrong, func(w Answer) bool { return w.Name == c.Name }) {
			fits = append(fits, compare.KeyOrderCauses(want, ref[i].Canonical, got[i].Canonical))
			continue
		}
		if ref[i].Canonical != nil && bytes.Equal(ref[i].Canonical, got[i].Canonical) {
			prefix, _ := c.wrapping()
			for _, o := range compare.KeyOrdersDiffering(want, ref[i].Canonical, len(prefix)) {
				ruled[o] = true
			}
		}
	}
	var orders []string // every order a probe in wrong may be in, in their first order
	for i, f := range fits {
		f = slices.DeleteFunc(slices.Clone(f), func(o string) bool { return ruled[o] })
		if len(f) == 0 {
			f = []string{compare.KeysOutOfOrder}
		}
		fits[i] = f
		for _, o := range f {
			if !slices.Contains(orders, o) {
				orders = append(orders, o)
			}
		}
	}
	return fewest(orders, fits)
}

// fewest are the candidates in the smallest sets of them that hold one of
// each of fits, all such sets together, in the candidates' order.
func fewest(candidates []string, fits [][]string) []string {
	if len(fits) == 0 {
		return nil
	}
	size, in := len(candidates)+1, 0 // in: the smallest sets' union, a bit a candidate
	for set := 1; set < 1<<len(candidates); set++ {
		n := bits.OnesCount(uint(set))
		if n > size || !coversAll(set, candidates, fits) {
			continue
		}
		if n < size {
			size, in = n, 0
		}
		in |= set
	}
	var out []string
	for i, c := range candidates {
		if in&(1<<i) != 0 {
			out = append(out, c)
		}
	}
	return out
}

// coversAll reports whether the candidates in set hold one of each of fits.
func coversAll(set int, candidates []string, fits [][]string) bool {
	for _, f := range fits {
		if !slices.ContainsFunc(f, func(o string) bool { return set&(1<<slices.Index(candidates, o)) != 0 }) {
			return false
		}
	}
	return true
}

// OrderCause is the cause of a key_order difference, by key order's
// profile p of the implementation, in an example where the reference
// wrote ref and the implementation got: the one order of the profile that
// example is in, under contract want (for ts-stringify, whose profile is
// UTF-16 order and integer-like keys first, {"\b":0,"0":0} written "0"
// first is the second); when the profile is one order, that order
// whatever the example, which is then not read (ref and got may be nil).
// ok is false when the profile has no order, or the example is in none of
// its orders or in several: the example's own label stands.
func (p Profile) OrderCause(want contract.Contract, ref, got []byte) (cause string, ok bool) {
	switch len(p.Orders) {
	case 0:
		return "", false
	case 1:
		return p.Orders[0], true
	}
	var in []string
	for _, o := range compare.KeyOrderCauses(want, ref, got) {
		if slices.Contains(p.Orders, o) {
			in = append(in, o)
		}
	}
	if len(in) != 1 {
		return "", false
	}
	return in[0], true
}
