package minimize

import (
	"bytes"
	"cmp"
	"hash/maphash"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"

	"difffuzz/value"
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

// edgeChunks emits, for a sequence too long for single-item chunks, the
// chunks of 1, 2, 4, ... items at each end and all but those: what a bug at
// the end of a long sequence needs (the one character past 65,536 that must
// stay, the elements past a length) and what its uniform chunks, each
// holding that end and more, cannot give. They come after the uniform
// chunks, at the level past the finest of those.
func (t *tree) edgeChunks(k int, emit func(lo, hi int, keep bool)) {
	for n := 1; n < k; n *= 2 {
		emit(k-n, k, false)
		emit(0, k-n, false)
		emit(0, n, false)
		emit(n, k, false)
	}
}

// chunks calls fn for the ddmin chunks of a sequence of k items: for
// n = 2, 4, 8, ... and finally k pieces, drop each piece (keep=false) and
// keep only each piece (keep=true), skipping repeats, dropping everything
// (unless all is set) and keeping everything.
func (t *tree) chunks(k int, all bool, fn func(lo, hi int, keep bool, level uint8)) {
	// t.seen holds this round's chunks of every sequence, told apart by a
	// call number: clearing a map per sequence costs its whole capacity.
	t.seenCall++
	call := uint64(t.seenCall) << 42
	level := uint8(0)
	emit := func(lo, hi int, keep bool) {
		if keep && lo == 0 {
			lo, hi, keep = hi, k, false // keeping a prefix drops the rest
		} else if keep && hi == k {
			lo, hi, keep = 0, lo, false
		}
		if lo >= hi || (!all && lo == 0 && hi == k) {
			return
		}
		if k < 1<<21 {
			key := call | uint64(lo)<<22 | uint64(hi)<<1
			if keep {
				key |= 1
			}
			if _, dup := t.seen[key]; dup {
				return
			}
			t.seen[key] = struct{}{}
		}
		fn(lo, hi, keep, level)
	}
	for n := 2; ; n *= 2 {
		level++
		n = min(n, k)
		if n > maxChunks {
			t.edgeChunks(k, emit)
			return
		}
		for j := range n {
			lo, hi := j*k/n, (j+1)*k/n
			emit(lo, hi, false)
			if n <= maxKeepChunks {
				emit(lo, hi, true)
			}
		}
		if n == k {
			return
		}
	}
}

// ranges offers dropping and keeping chunks of a container's members.
func (t *tree) ranges(id int32) {
	n := &t.nodes[id]
	k := int(n.n)
	if k == 0 {
		return
	}
	// Prefix sums of member text lengths and weights.
	pre := append(t.pre[:0], 0)
	for _, c := range t.nodes[n.first : n.first+n.n] {
		pre = append(pre, pre[len(pre)-1]+c.size+memberExtra(c))
	}
	wpre := append(t.wpre[:0], 0)
	for _, c := range t.nodes[n.first : n.first+n.n] {
		wpre = append(wpre, wpre[len(wpre)-1]+c.weight+c.keyWeight)
	}
	t.pre, t.wpre = pre, wpre
	t.chunks(k, false, func(lo, hi int, keep bool, level uint8) {
		c := cand{kind: kDrop, list: listRange, level: level, node: id, a: int32(lo), b: int32(hi)}
		gone, goneSize, goneWeight := hi-lo, pre[hi]-pre[lo], wpre[hi]-wpre[lo]
		if keep {
			c.kind = kKeep
			gone, goneSize, goneWeight = k-gone, pre[k]-goneSize, wpre[k]-goneWeight
		}
		commas := (k - 1) - max(0, k-gone-1)
		t.add(c, goneSize+commas, goneWeight, 0, 0)
	})
}

// stringSteps offers chunk and character steps on node id's string s,
// its value or (key) the key of its member; with copies > 1, on all the
// copies of s in t.groups[t.grp] at once.
func (t *tree) stringSteps(id int32, s string, key bool, copies int) {
	if s == "" {
		return
	}
	var grp int32
	if copies > 1 {
		grp, key = t.grp+1, true // key: may become "" (values get it from the simple replacements)
	}
	x := t.index(s)
	k := len(x.cps)
	size, weight := t.nodes[id].size, t.nodes[id].weight
	switch {
	case grp > 0:
		size, weight = stringMeasure(s)
	case key:
		size, weight = t.nodes[id].keySize, t.nodes[id].keyWeight
	}
	// Values get "" from the simple replacements; keys only from here.
	t.chunks(k, key, func(lo, hi int, keep bool, level uint8) {
		c := cand{kind: kStrDrop, list: listEdit, level: level, node: id, key: key, grp: grp, a: x.offs[lo], b: x.offs[hi]}
		if grp > 0 {
			c.level += groupLevel
		}
		inner := x.escPre[k] - (x.escPre[hi] - x.escPre[lo])
		w := x.wPre[k] - (x.wPre[hi] - x.wPre[lo])
		if keep {
			c.kind = kStrKeep
			inner, w = x.escPre[hi]-x.escPre[lo], x.wPre[hi]-x.wPre[lo]
		} else if lo > 0 && hi < k && isHighSurrogate(x.cps[lo-1]) && isLowSurrogate(x.cps[hi]) {
			return // the two lone surrogates would meet and read as a pair
		}
		t.add(c, copies*size, copies*weight, copies*(2+inner), copies*w)
	})
	t.fillSteps(id, x, key, grp, copies, size, weight)
	if left := x.wPre[k]; k > maxCharSteps && left > maxLongCharSteps { // left: not yet 'a' or '0'
		return
	}
	for i, cp := range x.cps {
		if cpWeight(cp) == 0 {
			continue
		}
		for _, r := range simplerChars(cp) {
			c := cand{kind: kStrChar, list: listEdit, level: charLevel, node: id, key: key, grp: grp, a: x.offs[i], b: x.offs[i+1], r: r}
			t.add(c, copies*size, copies*weight, copies*(size-escLen(cp)+escLen(r)), copies*(weight-1+cpWeight(r)))
		}
	}
}

// freshChars are the one-character keys freshKeys and freshGroupKey offer,
// simplest first.
const freshChars = "a0bcdefghijklmnopqrstuvwxyz123456789"

// freshKeys offers to rename each key of object id, but those that are
// one 'a' or '0' already, to a one-character key the object does not have
// yet, each its own, simplest first, so that all of them merge into one
// candidate. Keys that must stay distinct (a duplicate looked for past a
// window, a sort of many members) cannot shrink by their own characters
// alone, which would make them collide. Like the atoms, these wait until
// nothing else shrinks the value: taken earlier, their few bytes each win
// rounds that a bigger cut in the next batch would have won.
func (t *tree) freshKeys(id int32, o value.Object) {
	var used [128]bool
	markKeys(&used, o)
	next := 0
	n := &t.nodes[id]
	for i, m := range o {
		if len(m.Key) == 1 && cpWeight(rune(m.Key[0])) == 0 {
			continue
		}
		for next < len(freshChars) && used[freshChars[next]] {
			next++
		}
		if next == len(freshChars) {
			return
		}
		r := rune(freshChars[next])
		next++
		child := n.first + int32(i)
		c := &t.nodes[child]
		t.add(cand{kind: kStrChar, list: listLast, level: charLevel, node: child, key: true, b: int32(len(m.Key)), r: r}, c.keySize, c.keyWeight, 3, cpWeight(r))
	}
}

// freshGroupKey offers to rename every copy of a key repeated in its
// objects (a duplicate that must stay one, far from its first) to a
// one-character key none of those objects has yet.
func (t *tree) freshGroupKey(g group) {
	if len(g.s) == 1 && cpWeight(rune(g.s[0])) == 0 {
		return
	}
	var used [128]bool
	for _, c := range g.copies {
		if !c.key {
			return
		}
		markKeys(&used, t.nodes[t.nodes[c.id].parent].v.(value.Object))
	}
	for _, r := range freshChars {
		if !used[r] {
			size, weight := stringMeasure(g.s)
			k := len(g.copies)
			c := cand{kind: kStrChar, list: listLast, level: charLevel + groupLevel, node: g.copies[0].id, key: true, grp: t.grp + 1, b: int32(len(g.s)), r: r}
			t.add(c, k*size, k*weight, k*3, k*cpWeight(r))
			return
		}
	}
}

// markKeys marks the one-character ASCII keys of o as used.
func markKeys(used *[128]bool, o value.Object) {
	for _, m := range o {
		if len(m.Key) == 1 && m.Key[0] < 128 {
			used[m.Key[0]] = true
		}
	}
}

// simplerChars are what a character may become: 'a' (a digit '0'), and
// the shortest characters of its kind, which a bug about that kind keeps
// showing with: a character written escaped becomes a newline (\n, 2 bytes
// of text), a non-ASCII one also U+0080 (6 bytes; an astral one takes 12).
func simplerChars(cp rune) []rune {
	plain := 'a'
	if cp >= '1' && cp <= '9' {
		plain = '0'
	}
	switch {
	case cp >= 0x80 && !isHighSurrogate(cp) && !isLowSurrogate(cp):
		return []rune{plain, '\n', 0x80}
	case escLen(cp) == 6:
		return []rune{plain, '\n'}
	}
	return []rune{plain}
}

// fillSteps offers, for each chunk of a string, to write it plainly: every
// character of it becomes 'a', once per code point (so the positions of
// what follows, counted in characters, stay) and once per byte of its
// UTF-8 (so they stay counted in bytes). A bug that needs a character at a
// chunk edge or past a length keeps showing, while the text shrinks from
// escapes to letters: a string too long for one step per character gets
// its characters simplified too.
// maxFillLevel is the finest chunking fillSteps offers (1/32 of the
// string) but at its ends: finer fills cost a round trip each on a huge
// string and gain little over the per-character steps.
const maxFillLevel = 5

func (t *tree) fillSteps(id int32, x *strIndex, key bool, grp int32, copies, size, weight int) {
	k := len(x.cps)
	t.chunks(k, true, func(lo, hi int, keep bool, level uint8) {
		if keep || (level > maxFillLevel && lo > 0 && hi < k) {
			return
		}
		esc, w := x.escPre[hi]-x.escPre[lo], x.wPre[hi]-x.wPre[lo]
		if w == 0 {
			return // already plain
		}
		perCP, perByte := hi-lo, int(x.offs[hi]-x.offs[lo])
		counts := []int{perCP, perByte}
		if perCP == perByte { // ASCII only: one step serves both
			counts = counts[:1]
		}
		for _, n := range counts {
			if n > esc {
				continue // longer than it is (as long is simpler: letters become 'a')
			}
			c := cand{kind: kStrChar, list: listEdit, level: level, node: id, key: key, grp: grp, a: x.offs[lo], b: x.offs[hi], r: 'a', rep: int32(n)}
			if grp > 0 {
				c.level += groupLevel
			}
			t.add(c, copies*size, copies*weight, copies*(size-esc+n), copies*(weight-w))
		}
	})
}

func isContainer(v any) bool {
	switch v.(type) {
	case []any, value.Object, value.RawObject:
		return true
	}
	return false
}

// materialize builds the candidates' values.
func (t *tree) materialize(cs []cand) []any {
	out := make([]any, len(cs))
	for i := range cs {
		out[i] = t.apply(&cs[i])
	}
	return out
}

func (t *tree) apply(c *cand) any {
	if c.grp > 0 {
		return t.applyGroup(c)
	}
	n := &t.nodes[c.node]
	switch c.kind {
	case kReplace, kToArray:
		return t.replaceAt(c.node, t.newValue(c))
	case kDrop, kKeep:
		keep := c.kind == kKeep
		switch v := n.v.(type) {
		case []any:
			return t.replaceAt(c.node, cut(v, int(c.a), int(c.b), keep))
		case value.Object:
			return t.replaceAt(c.node, value.Object(cut(v, int(c.a), int(c.b), keep)))
		case value.RawObject:
			return t.replaceAt(c.node, value.RawObject(cut(v, int(c.a), int(c.b), keep)))
		}
	}
	if !c.key {
		return t.replaceAt(c.node, t.newValue(c))
	}
	o := append(value.Object(nil), t.nodes[n.parent].v.(value.Object)...)
	o[n.index].Key = editString(o[n.index].Key, c)
	return t.replaceAt(n.parent, o)
}

// newValue returns the new value of c.node for a step that replaces it
// (any step but chunks of a container and key steps).
func (t *tree) newValue(c *cand) any {
	switch c.kind {
	case kReplace:
		return c.val
	case kToArray:
		o := t.nodes[c.node].v.(value.Object)
		a := make([]any, len(o))
		for i := range o {
			a[i] = o[i].Value
		}
		return a
	}
	return editString(t.nodes[c.node].v.(string), c)
}

// cut returns a new slice: s without [lo, hi), or only [lo, hi) if keep.
func cut[T any](s []T, lo, hi int, keep bool) []T {
	if keep {
		return append([]T(nil), s[lo:hi]...)
	}
	out := make([]T, 0, len(s)-(hi-lo))
	return append(append(out, s[:lo]...), s[hi:]...)
}

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

// maxGroups bounds the groups of equal strings, and separately the pairs
// of keys with a common prefix, offered per round: each costs candidates
// that the last round must rule out.
const maxGroups = 16

// groupLevel puts a group's steps after the single-string steps of the
// same granularity: shrinking one copy is tried first, as before.
const groupLevel = 16

// group is a string that occurs more than once as a key or a string
// value: the copies of a repeated key (a duplicate_key finding), or a key
// equal to a value.
type group struct {
	s      string
	copies []copyOf
}

// copyOf is one copy of a group's string: node id's key, or its value.
type copyOf struct {
	id  int32
	key bool
}

// groupSteps offers the string steps of every repeated string applied to
// all its copies at once. A bug that needs two strings to stay equal (a
// repeated key) loses the divergence when either copy alone shrinks; these
// steps shrink them together, so that {"abcdefghij":0,"abcdefghij":0}
// becomes {"":0,"":0}. The biggest groups (copies times size) go first,
// then the order of first appearance, so that the steps are deterministic.
func (t *tree) groupSteps() {
	if t.groupOf == nil {
		t.groupOf = make(map[string]int32)
	}
	clear(t.groupOf)
	t.groups = t.groups[:0]
	note := func(s string, o copyOf) {
		g, ok := t.groupOf[s]
		if !ok {
			g = int32(len(t.groups))
			t.groupOf[s] = g
			t.groups = append(t.groups, group{s: s})
		}
		t.groups[g].copies = append(t.groups[g].copies, o)
	}
	for id := range int32(len(t.nodes)) {
		n := &t.nodes[id]
		if n.keySize > 2 && !n.rawKey && (!t.env || n.parent != 0) {
			note(t.keyOf(id), copyOf{id, true})
		}
		if s, ok := n.v.(string); ok && s != "" && t.allowed(id, "") {
			note(s, copyOf{id, false})
		}
	}
	groups := slices.DeleteFunc(t.groups, func(g group) bool { return len(g.copies) < 2 })
	slices.SortStableFunc(groups, func(x, y group) int {
		return cmp.Compare(len(y.copies)*len(y.s), len(x.copies)*len(x.s))
	})
	t.groups = groups[:min(len(groups), maxGroups)]
	for i, g := range t.groups {
		t.grp = int32(i)
		o := g.copies[0]
		t.stringSteps(o.id, g.s, o.key, len(g.copies))
		t.freshGroupKey(g)
	}
	t.prefixSteps()
}

// maxPrefixKeys bounds the objects whose keys are compared pairwise for a
// common prefix; bigger ones compare neighbours in key order only.
const maxPrefixKeys = 16

// prefixSteps offers dropping the common prefix of two keys of one object
// from both at once. A bug that needs two keys to compare a certain way
// (an order trap: "xy\ue000" and "xy\ud800\udc00") loses it when either
// key alone loses the prefix.
func (t *tree) prefixSteps() {
	for id := range int32(len(t.nodes)) {
		n := &t.nodes[id]
		o, ok := n.v.(value.Object)
		if !ok || len(o) < 2 || (t.env && id == 0) {
			continue
		}
		if len(o) > maxPrefixKeys {
			// Neighbours in key order: the keys that share the longest
			// prefixes are next to each other there.
			perm := make([]int32, len(o))
			for i := range perm {
				perm[i] = int32(i)
			}
			slices.SortFunc(perm, func(a, b int32) int { return strings.Compare(o[a].Key, o[b].Key) })
			for i := 1; i < len(perm) && len(t.groups) < 2*maxGroups; i++ {
				a, b := perm[i-1], perm[i]
				t.prefixStep(n.first+a, n.first+b, o[a].Key, o[b].Key)
			}
			continue
		}
		for i := 1; i < len(o) && len(t.groups) < 2*maxGroups; i++ {
			for j := range i {
				t.prefixStep(n.first+int32(j), n.first+int32(i), o[j].Key, o[i].Key)
			}
		}
	}
}

// prefixStep offers dropping the common prefix of keys a and b (of nodes
// x and y), cut at a code point boundary.
func (t *tree) prefixStep(x, y int32, a, b string) {
	l := 0
	for l < len(a) && l < len(b) && a[l] == b[l] {
		l++
	}
	for l > 0 && l < len(a) && !utf8.RuneStart(a[l]) {
		l--
	}
	for l > 0 && l < len(b) && !utf8.RuneStart(b[l]) {
		l--
	}
	if l == 0 {
		return
	}
	p := a[:l]
	t.grp = int32(len(t.groups))
	t.groups = append(t.groups, group{s: p, copies: []copyOf{{x, true}, {y, true}}})
	size, weight := stringMeasure(p)
	c := cand{kind: kStrDrop, list: listEdit, level: 1 + groupLevel, node: x, key: true, grp: t.grp + 1, a: 0, b: int32(l)}
	t.add(c, 2*(size-2), 2*weight, 0, 0)
}
