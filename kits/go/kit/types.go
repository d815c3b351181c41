package kit

import (
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// The exact model's types, so that a worker imports only the kit. They are
// aliases: a kit.Object is a value.Object.
type (
	// Object is an object of the exact model: members in input order,
	// duplicates kept.
	Object = value.Object
	// Member is one key/value pair of an Object.
	Member = value.Member
	// RawObject is an object with a key that is not a string (the spec's
	// non_string_key), in place.
	RawObject = value.RawObject
	// RawMember is one key/value pair of a RawObject.
	RawMember = value.RawMember
	// Unsupported stands for a wire value outside the model (bin data, an
	// unknown ext, a str that is not UTF-8); Reason says which.
	Unsupported = wire.Unsupported
)

// MaxDepth is the deepest nesting the spec accepts (value.MaxDepth).
const MaxDepth = value.MaxDepth
