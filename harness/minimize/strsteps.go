package minimize

import "github.com/difffuzz/difffuzz/value"

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

// maxFillLevel is the finest chunking fillSteps offers (1/32 of the
// string) but at its ends: finer fills cost a round trip each on a huge
// string and gain little over the per-character steps.
const maxFillLevel = 5

// fillSteps offers, for each chunk of a string, to write it plainly: every
// character of it becomes 'a', once per code point (so the positions of
// what follows, counted in characters, stay) and once per byte of its
// UTF-8 (so they stay counted in bytes). A bug that needs a character at a
// chunk edge or past a length keeps showing, while the text shrinks from
// escapes to letters: a string too long for one step per character gets
// its characters simplified too.
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
