package minimize

import (
	"bytes"
	"hash/maphash"

	"github.com/difffuzz/difffuzz/value"
)

// dedupe drops replacements whose result is the same value as an earlier
// one in cs (sorted by measure, so equal results are in one run of equal
// measure). In a deep chain of alike containers, hoisting by 2^k levels
// gives one value from hundreds of places, and the pass that proves the
// result minimal would otherwise test them all. Two replacements can only
// give the same text if their targets are nested (or equal); those are
// grouped by a hash of their result's text, then compared exactly. The
// work is bounded per round.
func (t *tree) dedupe(cs []cand) []cand {
	t.text = value.AppendText(t.text[:0], t.nodes[0].v)
	if len(t.text) != t.size() {
		return cs // the size model and the text disagree: do not guess
	}
	if t.hashes == nil {
		t.hashes = make(map[uint64]int32)
		t.seed = maphash.MakeSeed()
	}
	if len(t.mark) < len(t.nodes) || t.stamp > 1<<31 {
		t.mark, t.below, t.twice = make([]uint32, len(t.nodes)), make([]uint32, len(t.nodes)), make([]uint32, len(t.nodes))
		t.stamp = 0
	}
	budget := 64 << 20 // bytes hashed or compared per list per round
	out := cs[:0]      // only ever written at or before the position read
	for i := 0; i < len(cs); {
		j := i + 1
		for j < len(cs) && cs[j].size == cs[i].size && cs[j].weight == cs[i].weight {
			j++
		}
		run := cs[i:j]
		i = j
		if len(run) == 1 || budget < 0 {
			out = append(out, run...)
			continue
		}
		t.stamp++
		st := t.stamp
		for k := range run {
			n := run[k].node
			if t.mark[n] == st {
				t.twice[n] = st
			}
			t.mark[n] = st
			for a := t.nodes[n].parent; a >= 0 && t.below[a] != st; a = t.nodes[a].parent {
				t.below[a] = st
			}
		}
		clear(t.hashes)
		for k := range run {
			c := run[k]
			if !t.nested(c.node, st) {
				out = append(out, c)
				continue
			}
			budget -= 2 * len(t.text)
			h := t.resultHash(&c)
			idx, seen := t.hashes[h]
			if seen && t.sameResult(&out[idx], &c) {
				continue
			}
			if !seen { // on a (never seen) collision, keep the first: still deterministic
				t.hashes[h] = int32(len(out))
			}
			out = append(out, c)
		}
	}
	return out
}

// nested reports whether another candidate of the run stamped st targets
// node n, one of its ancestors or one of its descendants.
func (t *tree) nested(n int32, st uint32) bool {
	if t.twice[n] == st || t.below[n] == st {
		return true
	}
	for a := t.nodes[n].parent; a >= 0; a = t.nodes[a].parent {
		if t.mark[a] == st {
			return true
		}
	}
	return false
}

// result returns the text of a replacement's result as three pieces.
func (t *tree) result(c *cand, slot int) [3][]byte {
	n := &t.nodes[c.node]
	var r []byte
	if c.src > 0 {
		s := &t.nodes[c.src]
		r = t.text[s.start : s.start+s.size]
	} else {
		t.rtext[slot] = value.AppendText(t.rtext[slot][:0], c.val)
		r = t.rtext[slot]
	}
	return [3][]byte{t.text[:n.start], r, t.text[n.start+n.size:]}
}

func (t *tree) resultHash(c *cand) uint64 {
	var h maphash.Hash
	h.SetSeed(t.seed)
	for _, p := range t.result(c, 0) {
		h.Write(p)
	}
	return h.Sum64()
}

// sameResult compares two replacements' result texts without building
// them.
func (t *tree) sameResult(a, b *cand) bool {
	x, y := t.result(a, 0), t.result(b, 1)
	xi, yi := 0, 0
	for {
		for xi < 3 && len(x[xi]) == 0 {
			xi++
		}
		for yi < 3 && len(y[yi]) == 0 {
			yi++
		}
		if xi == 3 || yi == 3 {
			return xi == 3 && yi == 3
		}
		n := min(len(x[xi]), len(y[yi]))
		if !bytes.Equal(x[xi][:n], y[yi][:n]) {
			return false
		}
		x[xi], y[yi] = x[xi][n:], y[yi][n:]
	}
}
