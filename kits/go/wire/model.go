package wire

// The exact model's types: what a case decodes into, lossless (docs/your-sdk.md,
// "The exact model"). They are the kit module's own, so that a worker needs
// nothing of the driver's module; the driver's value package aliases them
// (value.Object is a wire.Object), so a case travels from the generator to a
// worker and back with no conversion.
type (
	// Object is an object as the spec models it: members in input order,
	// repeated keys kept, so that the error precedence of the spec can be
	// followed and a repeated key can be represented at all.
	Object []Member

	// Member is one key/value pair of an Object; a struct rather than a
	// map entry so that order and duplicates survive.
	Member struct {
		Key   string
		Value any
	}

	// RawObject is an object whose keys may be any value, not only
	// strings: a map with a non-string key, decoded in place, so that the
	// spec's walk can report non_string_key at the place it reaches it. A
	// string key in a RawObject behaves exactly like an Object key.
	RawObject []RawMember

	// RawMember is one key/value pair of a RawObject.
	RawMember struct {
		Key   any
		Value any
	}
)

// SpecCodes are the spec's error codes (docs/canonical-json.md, section 3),
// in the order of its table: the codes of a result's "error" for a case the
// implementation rejects. The driver's value.Codes are the same (a test of
// the driver's module holds them together).
var SpecCodes = []string{"too_deep", "non_string_key", "lone_surrogate", "duplicate_key", "unsupported_value", "bad_envelope"}
