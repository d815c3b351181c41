package value

import "github.com/difffuzz/difffuzz/kits/go/wire"

// The model's types are the Go kit's (package wire decodes cases into them),
// aliased: a value.Object is a wire.Object and a kit.Object, so that a case
// travels from the generator to the wire, a worker and back with no
// conversion. The kit is a module of its own that imports nothing of the
// driver's, so the types are defined there; what the spec says of them is
// here.
type (
	// Object is an object as the spec models it: members in input order, so
	// that the error precedence of spec section 3 can be followed and
	// repeated keys can be represented at all (an implementation rejects
	// them; Parse and AppendText keep them so that a bug report can carry
	// one).
	Object = wire.Object

	// Member is one key/value pair of an Object; a struct rather than a map
	// entry so that order and duplicates survive.
	Member = wire.Member

	// RawObject is an object whose keys may be any value, not only strings.
	// It exists so that a decoder (the wire's) can represent a map with a
	// non-string key in place, and the spec's walk can report
	// non_string_key at the position it reaches it rather than for the
	// whole case. A string key in a RawObject behaves exactly like an
	// Object key.
	RawObject = wire.RawObject

	// RawMember is one key/value pair of a RawObject.
	RawMember = wire.RawMember
)

// MaxDepth is the deepest nesting the spec accepts: a container entered at a
// level above it is too_deep.
const MaxDepth = 512
