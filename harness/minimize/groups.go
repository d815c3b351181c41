package minimize

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/value"
)

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
