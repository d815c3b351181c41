package minimize

import "github.com/difffuzz/difffuzz/value"

// isContainer reports whether v is an array or an object (of either kind).
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
