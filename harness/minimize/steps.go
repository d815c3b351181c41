package minimize

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/difffuzz/difffuzz/value"
)

// Limits of the step set (see the package documentation for the steps).
const (
	// maxChunks bounds the chunks per container or string per round; longer
	// sequences get finer chunks once coarse steps have shortened them.
	maxChunks = 1024
	// maxCharSteps bounds the strings whose characters are simplified one
	// by one; a longer string gets those steps only once at most
	// maxLongCharSteps of its characters are not yet 'a' or '0' (the fill
	// steps see to the rest), since each candidate is the whole long value.
	maxCharSteps     = 1024
	maxLongCharSteps = 16
	// maxKeepChunks is the finest granularity of "keep only this chunk":
	// finer ones rarely work where coarser ones failed, and would double
	// the steps the last round must rule out.
	maxKeepChunks = 64
	// charLevel puts single-character steps after every chunk step.
	charLevel = 64
)

// kind is what a step does to its node.
type kind uint8

const (
	kReplace kind = iota // node := val
	kDrop                // container node: remove children [a, b)
	kKeep                // container node: keep only children [a, b)
	kStrDrop             // string of node (its key when key): remove bytes [a, b)
	kStrKeep             // string of node: keep only bytes [a, b)
	kStrChar             // string of node: bytes [a, b) become r, rep times (at least once)
	kToArray             // object node: becomes the array of its values
)

// cand is one candidate, described rather than built: a round builds only
// the candidates it passes to fails.
type cand struct {
	size, weight int // the candidate's measure, computed without building it
	seq          int32
	node         int32
	a, b         int32
	r            rune
	rep          int32 // kStrChar: how many r replace the bytes (0 means 1)
	src          int32 // hoists: the node whose value replaces node (never the root); else 0
	kind         kind
	list         list
	level        uint8 // coarse steps first: ddmin granularity (1 = halves, 2 = quarters, ...)
	key          bool
	grp          int32 // string steps on a group (see groupSteps): its number + 1; else 0
	val          any
}

// list groups candidates for batching. Each batch takes from every list
// (see compose): sorting all candidates by size alone would fill whole
// batches with one kind of cut (say, removing each of the 500 levels of a
// deep value, all of which lose the divergence) while the kind that works
// (hoisting a deep subtree) waits rounds for its turn.
type list uint8

const (
	listScalar list = iota // replace a value by a simple value or a hoisted scalar
	listRange              // drop or keep chunks of a container
	listHoist              // replace a container by a descendant container
	listEdit               // string, key, number and object-to-array steps
	listLast               // steps that wait for all others: atoms, fresh keys (see ready)
	lists
)

// Passes, as Stats counts them: one per list, then the merged candidates.
const (
	passMerge = int(lists)
	passes    = passMerge + 1
)

// passNames are the passes' names in Stats (see Pass.Name).
var passNames = [passes]string{
	listScalar: "replace",
	listRange:  "chunks",
	listHoist:  "hoist",
	listEdit:   "edit",
	listLast:   "last",
	passMerge:  "merge",
}

// simple is a replacement value shared by every candidate that uses it,
// with its measure.
type simple struct {
	v            any
	size, weight int
}

// Simple replacement values, in the domain.
var simples = []simple{
	{int64(0), 1, 0},
	{"", 2, 0},
	{value.Object{}, 2, 0},
	{[]any{}, 2, 0},
	{nil, 4, 0},
}

// atoms are the out-of-domain replacement values, smallest first: a map
// with a key that is not a string, {0:0}, and U+DC00 alone (in the value
// model's WTF-8). A divergence in which implementations disagree on which
// error a case has (a duplicate key reported before an earlier member's bad
// value, say) survives any bad value in that place; the one the generator
// drew may be a 512-level chain whose every level its error needs, and an
// atom in its place is 5 or 8 bytes. Both are offered, since a bug may be
// about one kind of bad value only.
var atoms = []simple{
	measured(value.RawObject{{Key: int64(0), Value: int64(0)}}),
	measured("\xed\xb0\x80"),
}

// measured is v with its measure as a tree computes it.
func measured(v any) simple {
	var t tree
	t.build(v, false)
	return simple{v, t.size(), t.weight()}
}

// hasSibling reports whether node id shares its container with another value.
func (t *tree) hasSibling(id int32) bool {
	p := t.nodes[id].parent
	return p >= 0 && t.nodes[p].n > 1
}

// candidates enumerates every step on the current tree that makes the
// value smaller into t.lists, each list sorted coarsest and smallest
// first, and returns their number.
func (t *tree) candidates() int {
	t.cands = t.cands[:0]
	if t.seen == nil {
		t.seen = make(map[uint64]struct{})
	}
	clear(t.seen)
	t.seenCall = 0
	for id := range int32(len(t.nodes)) {
		n := &t.nodes[id]
		for _, s := range simples {
			if t.allowed(id, s.v) {
				t.add(cand{kind: kReplace, list: listScalar, node: id, val: s.v}, n.size, n.weight, s.size, s.weight)
			}
		}
		// One bad value for another, and only beside another value, where
		// an order of errors can matter: the links of a chain of only
		// children (a too-deep value) would each lose the depth.
		if n.bad && t.hasSibling(id) {
			for _, a := range atoms {
				if t.allowed(id, a.v) {
					t.add(cand{kind: kReplace, list: listLast, node: id, val: a.v}, n.size, n.weight, a.size, a.weight)
				}
			}
		}
		t.hoists(id)
		switch v := n.v.(type) {
		case []any, value.Object, value.RawObject:
			if !t.env || id != 0 {
				t.ranges(id)
			}
			if o, ok := v.(value.Object); ok && (!t.env || id != 0) {
				t.freshKeys(id, o)
			}
			if o, ok := v.(value.Object); ok && len(o) > 0 && t.allowed(id, []any{}) {
				keys, keyWeights := 0, 0
				for _, c := range t.nodes[n.first : n.first+n.n] {
					keys, keyWeights = keys+c.keySize+1, keyWeights+c.keyWeight
				}
				t.add(cand{kind: kToArray, list: listEdit, node: id}, keys, keyWeights, 0, 0)
			}
		case string:
			if t.allowed(id, "") {
				t.stringSteps(id, v, false, 1)
			}
		default:
			if t.allowed(id, v) {
				t.numberSteps(id, v)
			}
		}
		if n.keySize > 0 && !n.rawKey && (!t.env || n.parent != 0) {
			t.stringSteps(id, t.keyOf(id), true, 1)
		}
	}
	t.groupSteps()
	// Sort compact pointer-free keys rather than the candidates themselves:
	// moving thousands of structs holding interfaces is most of a round's
	// time otherwise.
	keys := t.keys[:0]
	for i := range t.cands {
		c := &t.cands[i]
		keys = append(keys, sortKey{
			uint64(c.list)<<56 | uint64(c.level)<<48 | uint64(min(c.size, 1<<48-1)),
			uint64(min(c.weight, 1<<32-1))<<32 | uint64(i),
		})
	}
	slices.SortFunc(keys, func(x, y sortKey) int {
		if c := cmp.Compare(x.a, y.a); c != 0 {
			return c
		}
		return cmp.Compare(x.b, y.b)
	})
	t.keys = keys
	t.sorted = t.sorted[:0]
	for _, k := range keys {
		t.sorted = append(t.sorted, t.cands[uint32(k.b)])
	}
	start := 0
	for l := range lists {
		end := start
		for end < len(t.sorted) && t.sorted[end].list == l {
			end++
		}
		t.lists[l] = t.sorted[start:end]
		if l == listScalar || l == listHoist {
			t.lists[l] = t.dedupe(t.lists[l])
			t.stratify(t.lists[l])
		}
		start = end
	}
	total := 0
	for _, cs := range t.lists {
		total += len(cs)
	}
	return total
}

// stratify reorders a list sorted by (level, size) so that it takes one
// candidate of each level in turn, the biggest cuts first, where a level
// is the order of magnitude of the bytes a replacement removes. Sorting
// by size alone would, in a value 500 levels deep whose depth is the
// point, try hundreds of replacements of the path (all losing the
// divergence) before the small ones at the bottom that still work.
func (t *tree) stratify(cs []cand) {
	var start [66]int
	for i := range cs {
		start[cs[i].level+1] = i + 1
	}
	for lv := 1; lv < len(start); lv++ {
		start[lv] = max(start[lv], start[lv-1])
	}
	next := start
	out := t.strata[:0]
	for len(out) < len(cs) {
		for lv := len(start) - 2; lv >= 0; lv-- {
			if next[lv] < start[lv+1] {
				out = append(out, cs[next[lv]])
				next[lv]++
			}
		}
	}
	copy(cs, out)
	t.strata = out
}

// sortKey packs (list, level, size) and (weight, index) of a candidate.
type sortKey struct{ a, b uint64 }

// compareCands orders candidates by measure: size, then weight, then
// enumeration order, so that the order is total and deterministic.
func compareCands(x, y *cand) int {
	if c := cmp.Compare(x.size, y.size); c != 0 {
		return c
	}
	if c := cmp.Compare(x.weight, y.weight); c != 0 {
		return c
	}
	return cmp.Compare(x.seq, y.seq)
}

// add records c if it replaces a part of measure (oldSize, oldWeight) by
// one of (newSize, newWeight) and so makes the whole value smaller.
func (t *tree) add(c cand, oldSize, oldWeight, newSize, newWeight int) {
	c.size = t.size() - oldSize + newSize
	c.weight = t.weight() - oldWeight + newWeight
	if c.size > t.size() || (c.size == t.size() && c.weight >= t.weight()) {
		return
	}
	if c.list == listScalar || c.list == listHoist {
		c.level = uint8(bits.Len(uint(t.size() - c.size))) // see stratify
	}
	c.seq = int32(len(t.cands))
	t.cands = append(t.cands, c)
}

// hoists offers the value of node id in place of its ancestors 1, 2, 4,
// ... levels up.
func (t *tree) hoists(id int32) {
	n := &t.nodes[id]
	a, dist := n.parent, 1
	for next := 1; a >= 0; dist++ {
		if dist == next {
			next *= 2
			if t.allowed(a, n.v) {
				an := &t.nodes[a]
				l := listScalar // with the simple values it may equal
				if n.n > 0 {
					l = listHoist
				}
				t.add(cand{kind: kReplace, list: l, node: a, val: n.v, src: id}, an.size, an.weight, n.size, n.weight)
			}
		}
		a = t.nodes[a].parent
	}
}
