package value

// Object is an object as the spec models it: members in input order, so that
// the error precedence of spec section 3 can be followed and repeated keys
// can be represented at all (an implementation rejects them; Parse and
// AppendText keep them so that a bug report can carry one).
type Object []Member

// Member is one key/value pair of an Object; a struct rather than a map
// entry so that order and duplicates survive.
type Member struct {
	Key   string
	Value any
}

// RawObject is an object whose keys may be any value, not only strings. It
// exists so that a decoder (the wire's) can represent a map with a non-string
// key in place, and the spec's walk can report non_string_key at the position
// it reaches it rather than for the whole case. A string key in a RawObject
// behaves exactly like an Object key.
type RawObject []RawMember

// RawMember is one key/value pair of a RawObject.
type RawMember struct {
	Key   any
	Value any
}

// MaxDepth is the deepest nesting the spec accepts: a container entered at a
// level above it is too_deep.
const MaxDepth = 512
