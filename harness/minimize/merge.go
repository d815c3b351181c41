package minimize

import (
	"cmp"
	"slices"
	"strings"

	"github.com/difffuzz/difffuzz/value"
)

// Merging: a round often finds many failing candidates that change
// different parts of the value (drop this chunk, shorten that string,
// simplify those numbers). Taking only the smallest would spend one round
// per step; instead the next round also tries all of them at once, as far
// as they are compatible. When the divergence depends on one part only,
// the merge usually fails too and the value shrinks by all the steps in a
// single round; when it does not, one batch slot was spent.

// Per-node state of a merge.
const (
	opNone uint8 = iota
	opReplaced
	opDeleted
	opString // a string value with patches
)

type merger struct {
	t      *tree
	op     []uint8
	dirty  []bool // a descendant (or the node's child list) changes
	val    []any  // opReplaced: the new value
	keySet []bool
	array  []bool // an object to rebuild as the array of its values
	// String steps on one string combine when their byte ranges do not
	// overlap: patches of value strings (opString) and of keys (keySet).
	strs, keys map[int32][]patch
}

// patch replaces bytes [lo, hi) of a string by r, or by nothing if !put.
type patch struct {
	lo, hi int32
	r      rune
	rep    int32 // how many r to put (0 means 1)
	put    bool
}

// merge applies, greedily in the given order, every failing candidate that
// is compatible with those applied before it, and returns the result, or
// nil when fewer than two combine.
func (t *tree) merge(cs []*cand) any {
	if len(cs) < 2 {
		return nil
	}
	m := t.newMerger()
	applied := 0
	for _, c := range cs {
		if m.add(c) {
			applied++
		}
	}
	if applied < 2 {
		return nil
	}
	return m.rebuild(0)
}

func (t *tree) newMerger() *merger {
	n := len(t.nodes)
	return &merger{t: t, op: make([]uint8, n), dirty: make([]bool, n), val: make([]any, n),
		keySet: make([]bool, n), array: make([]bool, n),
		strs: make(map[int32][]patch), keys: make(map[int32][]patch)}
}

// applyGroup builds a group string step: the same edit on every copy of
// the string, as the patches of a merge.
func (t *tree) applyGroup(c *cand) any {
	m := t.newMerger()
	for _, o := range t.groups[c.grp-1].copies {
		one := *c
		one.node, one.key, one.grp = o.id, o.key, 0
		m.add(&one)
	}
	return m.rebuild(0)
}

// blocked reports whether id or an ancestor is replaced or deleted.
func (m *merger) blocked(id int32) bool {
	for a := id; a >= 0; a = m.t.nodes[a].parent {
		if m.op[a] != opNone {
			return true
		}
	}
	return false
}

func (m *merger) markDirty(id int32) {
	for a := id; a >= 0 && !m.dirty[a]; a = m.t.nodes[a].parent {
		m.dirty[a] = true
	}
}

// add applies c if it is compatible with the steps applied so far.
func (m *merger) add(c *cand) bool {
	t := m.t
	switch {
	case c.grp > 0:
		return false // its copies would have to be checked one by one: taken alone only
	case c.kind == kDrop || c.kind == kKeep:
		if m.blocked(c.node) {
			return false
		}
		n := &t.nodes[c.node]
		gone := func(j int32) bool { return (j >= c.a && j < c.b) != (c.kind == kKeep) }
		for j := range n.n {
			ch := n.first + j
			if gone(j) && (m.op[ch] == opReplaced || m.op[ch] == opString || m.dirty[ch] || m.keySet[ch]) {
				return false // it would discard steps applied inside
			}
		}
		for j := range n.n {
			if gone(j) {
				m.op[n.first+j] = opDeleted
			}
		}
		m.markDirty(c.node)
	case c.kind == kToArray:
		// A flag rather than a replacement, so that steps inside the
		// object, and object-to-array steps on a whole chain of nested
		// objects, combine.
		if m.blocked(c.node) || m.array[c.node] {
			return false
		}
		m.array[c.node] = true
		m.markDirty(c.node)
	case c.key:
		n := &t.nodes[c.node]
		if m.op[c.node] == opDeleted || m.blocked(n.parent) || !addPatches(m.keys, c, t.keyOf(c.node)) {
			return false
		}
		m.keySet[c.node] = true
		m.markDirty(n.parent)
	case c.kind == kStrDrop || c.kind == kStrKeep || c.kind == kStrChar:
		p := t.nodes[c.node].parent
		if (m.op[c.node] != opNone && m.op[c.node] != opString) || (p >= 0 && m.blocked(p)) ||
			!addPatches(m.strs, c, t.nodes[c.node].v.(string)) {
			return false
		}
		m.op[c.node] = opString
		if p >= 0 {
			m.markDirty(p)
		}
	default:
		if m.blocked(c.node) || m.dirty[c.node] {
			return false
		}
		m.op[c.node] = opReplaced
		m.val[c.node] = t.newValue(c)
		if p := t.nodes[c.node].parent; p >= 0 {
			m.markDirty(p)
		}
	}
	return true
}

// rebuild returns node id's value with the applied steps. It recurses
// only into changed containers, no deeper than the value's nesting.
func (m *merger) rebuild(id int32) any {
	switch m.op[id] {
	case opReplaced:
		return m.val[id]
	case opString:
		return applyPatches(m.t.nodes[id].v.(string), m.strs[id])
	}
	n := &m.t.nodes[id]
	if !m.dirty[id] || n.n == 0 && !isContainer(n.v) {
		return n.v
	}
	if raw, ok := n.v.(value.RawObject); ok && !m.array[id] {
		out := make(value.RawObject, 0, n.n)
		for j := range n.n {
			if ch := n.first + j; m.op[ch] != opDeleted {
				out = append(out, value.RawMember{Key: raw[j].Key, Value: m.rebuild(ch)})
			}
		}
		return out
	}
	o, isObject := n.v.(value.Object)
	if !isObject || m.array[id] {
		out := make([]any, 0, n.n)
		for j := range n.n {
			if ch := n.first + j; m.op[ch] != opDeleted {
				out = append(out, m.rebuild(ch))
			}
		}
		return out
	}
	out := make(value.Object, 0, n.n)
	for j := range n.n {
		ch := n.first + j
		if m.op[ch] == opDeleted {
			continue
		}
		k := o[j].Key
		if m.keySet[ch] {
			k = applyPatches(k, m.keys[ch])
		}
		out = append(out, value.Member{Key: k, Value: m.rebuild(ch)})
	}
	return out
}

// addPatches adds string step c on s (node c.node's value or key) to the
// node's patches, unless it overlaps them or would make a high and a low
// lone surrogate meet.
func addPatches(all map[int32][]patch, c *cand, s string) bool {
	ps := all[c.node]
	var add [2]patch
	n := 0
	switch c.kind {
	case kStrDrop:
		add[0], n = patch{lo: c.a, hi: c.b}, 1
	case kStrChar:
		add[0], n = patch{lo: c.a, hi: c.b, r: c.r, rep: c.rep, put: true}, 1
	case kStrKeep:
		for _, p := range []patch{{lo: 0, hi: c.a}, {lo: c.b, hi: int32(len(s))}} {
			if p.lo < p.hi {
				add[n] = p
				n++
			}
		}
	}
	for _, p := range add[:n] {
		for _, q := range ps {
			if p.lo < q.hi && q.lo < p.hi {
				return false
			}
		}
	}
	grown := append(slices.Clip(ps), add[:n]...)
	if strings.IndexByte(s, 0xED) >= 0 && joinsSurrogates(applyPatches(s, grown)) {
		return false
	}
	all[c.node] = grown
	return true
}

// joinsSurrogates reports whether s has a high surrogate right before a
// low one, both in their 3-byte forms.
func joinsSurrogates(s string) bool {
	for i := 0; i+6 <= len(s); i++ {
		if s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xAF && s[i+3] == 0xED && s[i+4] >= 0xB0 && s[i+4] <= 0xBF {
			return true
		}
	}
	return false
}

// applyPatches returns s with non-overlapping patches applied.
func applyPatches(s string, ps []patch) string {
	ps = slices.SortedFunc(slices.Values(ps), func(x, y patch) int { return cmp.Compare(x.lo, y.lo) })
	var b strings.Builder
	at := int32(0)
	for _, p := range ps {
		b.WriteString(s[at:p.lo])
		if p.put {
			b.WriteString(strings.Repeat(string(p.r), max(1, int(p.rep))))
		}
		at = p.hi
	}
	b.WriteString(s[at:])
	return b.String()
}

// editString applies a string step to s.
func editString(s string, c *cand) string {
	switch c.kind {
	case kStrDrop:
		return s[:c.a] + s[c.b:]
	case kStrKeep:
		return s[c.a:c.b]
	case kStrChar:
		return s[:c.a] + strings.Repeat(string(c.r), max(1, int(c.rep))) + s[c.b:]
	}
	return s
}
