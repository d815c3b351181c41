package gen

import (
	"fmt"
	"math/bits"
	"strings"
)

// Classes is a bit set of the spec's edge classes that one case exercised.
// Reports count findings and coverage per class, so every bit has a stable
// short name (see String and ParseClasses) that must never be renamed once
// it appears in a corpus or a report.
type Classes uint64

// The edge classes. A case may carry several; the out-of-domain ones are
// grouped in OutOfDomainClasses.
const (
	// ClassSpecialFloat: NaN (any payload, either sign), +Infinity, -Infinity or -0.0.
	ClassSpecialFloat Classes = 1 << iota
	// ClassFloatFormat: a float at an ECMAScript layout boundary: powers of
	// ten and their neighbours around 1e21 and 1e-6/1e-7, integer-valued
	// floats, 2^53 neighbours, subnormals, the largest double.
	ClassFloatFormat
	// ClassFloatBits: a float made from a uniformly random 64-bit pattern.
	ClassFloatBits
	// ClassInt53: an integer within a few units of +-2^53.
	ClassInt53
	// ClassInt64: an integer within a few units of +-2^63 or +-2^64, so on
	// both sides of the int64/uint64 limits.
	ClassInt64
	// ClassBigInt: an integer well beyond 2^64 in magnitude.
	ClassBigInt
	// ClassEscape: a string or key holding a control character, DEL, a
	// quote or a backslash.
	ClassEscape
	// ClassBMP: a string or key holding a non-ASCII character of the Basic
	// Multilingual Plane (U+0080..U+FFFF).
	ClassBMP
	// ClassAstral: a string or key holding a character U+10000..U+10FFFF.
	ClassAstral
	// ClassKeyOrder: an object mixing astral keys with U+E000..U+FFFF keys,
	// whose code-point and UTF-16 orders differ.
	ClassKeyOrder
	// ClassProtoKey: keys that JavaScript objects treat specially or that
	// look like array indices: __proto__, constructor, "1", "01", ...
	ClassProtoKey
	// ClassEmpty: an empty array or object (args itself included).
	ClassEmpty
	// ClassDeep: nesting depth 32..499 (spec depth of the whole case).
	ClassDeep
	// ClassNearLimit: nesting depth 500..512, the last accepted depths.
	ClassNearLimit
	// ClassWide: a container with far more members than MaxWidth.
	ClassWide
	// ClassLongString: a string of at least 1,000 code points.
	ClassLongString
	// ClassArgsFirst: the envelope's members are written args first.
	ClassArgsFirst
	// ClassLoneSurrogate (out of domain): a string value or key holding a
	// lone surrogate.
	ClassLoneSurrogate
	// ClassDuplicateKey (out of domain): an object with two equal keys.
	ClassDuplicateKey
	// ClassTooDeep (out of domain): nesting depth 513..600.
	ClassTooDeep
	// ClassBadEnvelope (out of domain): the top level is not exactly
	// {"tool_name": string, "args": object}.
	ClassBadEnvelope
	// ClassNonStringKey (out of domain): a map with a key that is not a
	// string (an integer, a float, a bool, null), as msgpack can send.
	ClassNonStringKey
	// ClassUnsupported (out of domain): a value outside the model, bin data.
	ClassUnsupported

	classEnd
)

// OutOfDomainClasses is the union of the classes whose cases the spec
// rejects; a case carrying any of them must get an error from every
// implementation.
const OutOfDomainClasses = ClassLoneSurrogate | ClassDuplicateKey | ClassTooDeep | ClassBadEnvelope | ClassNonStringKey | ClassUnsupported

// ValidUTF8 reports whether every string and key of a case with classes c
// is valid UTF-8. The generator writes a surrogate code point only as a
// lone surrogate, so only ClassLoneSurrogate cases hold WTF-8; the wire
// encoder then need not check each string of the others.
func (c Classes) ValidUTF8() bool { return c&ClassLoneSurrogate == 0 }

// AllClasses is the union of every defined class.
const AllClasses = classEnd - 1

var classNames = [...]string{
	"special-float",
	"float-format",
	"float-bits",
	"int-2^53",
	"int-2^64",
	"int-big",
	"escape",
	"bmp",
	"astral",
	"key-order",
	"proto-key",
	"empty",
	"deep",
	"near-limit",
	"wide",
	"long-string",
	"args-first",
	"lone-surrogate",
	"duplicate-key",
	"too-deep",
	"bad-envelope",
	"non-string-key",
	"unsupported",
}

// List returns every class as a single-bit value, in the stable order
// reports print them.
func List() []Classes {
	out := make([]Classes, 0, len(classNames))
	for c := Classes(1); c < classEnd; c <<= 1 {
		out = append(out, c)
	}
	return out
}

// Has reports whether c includes every class of x.
func (c Classes) Has(x Classes) bool { return c&x == x }

// OutOfDomain reports whether a case with these classes is one the spec
// rejects.
func (c Classes) OutOfDomain() bool { return c&OutOfDomainClasses != 0 }

// String returns the short names of the classes joined by "+" (for
// example "escape+bmp"), "none" for the empty set, so that a report line
// can be parsed back with ParseClasses.
func (c Classes) String() string {
	if c == 0 {
		return "none"
	}
	var b strings.Builder
	for rest := c; rest != 0; rest &= rest - 1 {
		i := bits.TrailingZeros64(uint64(rest))
		if b.Len() > 0 {
			b.WriteByte('+')
		}
		if i < len(classNames) {
			b.WriteString(classNames[i])
		} else {
			fmt.Fprintf(&b, "bit%d", i)
		}
	}
	return b.String()
}

// ParseClasses reads a set written by String, also accepting "," as a
// separator, so command lines can restrict or filter by class names.
func ParseClasses(s string) (Classes, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return 0, nil
	}
	var c Classes
	for _, name := range strings.FieldsFunc(s, func(r rune) bool { return r == '+' || r == ',' }) {
		name = strings.TrimSpace(name)
		found := false
		for i, n := range classNames {
			if n == name {
				c |= 1 << i
				found = true
				break
			}
		}
		if !found {
			return 0, fmt.Errorf("gen: unknown class %q", name)
		}
	}
	return c, nil
}
