package minimize

import (
	canonjson "difffuzz/adapters/go"
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
)

type merger struct {
	t      *tree
	op     []uint8
	dirty  []bool // a descendant (or the node's child list) changes
	val    []any  // opReplaced: the new value
	keySet []bool
	key    []string
	array  []bool // an object to rebuild as the array of its values
}

// merge applies, greedily in the given order, every failing candidate that
// is compatible with those applied before it, and returns the result, or
// nil when fewer than two combine.
func (t *tree) merge(cs []*cand) any {
	if len(cs) < 2 {
		return nil
	}
	n := len(t.nodes)
	m := &merger{t: t, op: make([]uint8, n), dirty: make([]bool, n), val: make([]any, n),
		keySet: make([]bool, n), key: make([]string, n), array: make([]bool, n)}
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
	case c.kind == kDrop || c.kind == kKeep:
		if m.blocked(c.node) {
			return false
		}
		n := &t.nodes[c.node]
		gone := func(j int32) bool { return (j >= c.a && j < c.b) != (c.kind == kKeep) }
		for j := range n.n {
			ch := n.first + j
			if gone(j) && (m.op[ch] == opReplaced || m.dirty[ch] || m.keySet[ch]) {
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
		if m.keySet[c.node] || m.op[c.node] == opDeleted || m.blocked(n.parent) {
			return false
		}
		m.keySet[c.node], m.key[c.node] = true, editString(t.keyOf(c.node), c)
		m.markDirty(n.parent)
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
	if m.op[id] == opReplaced {
		return m.val[id]
	}
	n := &m.t.nodes[id]
	if !m.dirty[id] || n.n == 0 && !isContainer(n.v) {
		return n.v
	}
	o, isObject := n.v.(canonjson.Object)
	if !isObject || m.array[id] {
		out := make([]any, 0, n.n)
		for j := range n.n {
			if ch := n.first + j; m.op[ch] != opDeleted {
				out = append(out, m.rebuild(ch))
			}
		}
		return out
	}
	out := make(canonjson.Object, 0, n.n)
	for j := range n.n {
		ch := n.first + j
		if m.op[ch] == opDeleted {
			continue
		}
		k := o[j].Key
		if m.keySet[ch] {
			k = m.key[ch]
		}
		out = append(out, canonjson.Member{Key: k, Value: m.rebuild(ch)})
	}
	return out
}

// editString applies a string step to s.
func editString(s string, c *cand) string {
	switch c.kind {
	case kStrDrop:
		return s[:c.a] + s[c.b:]
	case kStrKeep:
		return s[c.a:c.b]
	case kStrChar:
		return s[:c.a] + string(c.r) + s[c.b:]
	}
	return s
}
