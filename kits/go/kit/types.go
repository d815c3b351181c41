package kit

import "github.com/difffuzz/difffuzz/kits/go/wire"

// The exact model's types, so that a worker imports only the kit. They are
// aliases of the wire package's, which decodes cases into them: a
// kit.Object is a wire.Object (and, in the driver, a value.Object).
type (
	// Object is an object of the exact model: members in input order,
	// duplicates kept.
	Object = wire.Object
	// Member is one key/value pair of an Object.
	Member = wire.Member
	// RawObject is an object with a key that is not a string (the spec's
	// non_string_key), in place.
	RawObject = wire.RawObject
	// RawMember is one key/value pair of a RawObject.
	RawMember = wire.RawMember
	// Unsupported stands for a wire value outside the model (bin data, an
	// unknown ext, a str that is not UTF-8); Reason says which.
	Unsupported = wire.Unsupported
	// Inexpressible is a Model's answer that it cannot hold a case, and why.
	Inexpressible = wire.Inexpressible
	// Coder is an error that carries one of the spec's error codes, such as
	// "duplicate_key": SpecError, or an SDK's own error type with an
	// ErrorCode method (canonjson.Error).
	Coder = wire.Coder
)

// MaxDepth is the deepest nesting the spec accepts (docs/canonical-json.md,
// section 3): a container entered at a level above it is too_deep. The
// driver's value.MaxDepth is the same.
const MaxDepth = 512

// PanicType is the ErrorType of a panic's internal result, whatever its
// value: "panic", as in the Rust kit.
const PanicType = wire.PanicType
