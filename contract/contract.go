// Package contract holds canonical JSON's settled choices as data: how
// strings are escaped, how keys are ordered, how numbers are written, what
// the top level may be, the limits and what is rejected. Canonical JSON is
// not one format but a family: this project's contract (docs/canonical-json.md)
// escapes every non-ASCII character and signs a {"tool_name","args"}
// envelope, RFC 8785 (JCS) writes non-ASCII raw and orders keys by UTF-16
// units, and a team may settle a point or two its own way (DEL written raw).
// A library is judged by the contract it claims, and a departure from that
// contract, not from ours, is a bug.
//
// A contract is a built-in (Builtins) or a TOML file naming a built-in as its
// base and the choices it changes (Load). It is a leaf: it knows nothing of
// the judge that follows it.
package contract

import (
	"fmt"
	"slices"
)

// Escape says how a class of characters is written in a string.
type Escape string

const (
	EscapeU   Escape = "escape" // as \uXXXX (lower-case hex; a surrogate pair for astral)
	EscapeRaw Escape = "raw"    // as its UTF-8 bytes
)

// KeyOrder is how an object's members are sorted.
type KeyOrder string

const (
	KeyOrderCodePoints KeyOrder = "code_points" // Python's sorted(), UTF-8 bytes
	KeyOrderUTF16      KeyOrder = "utf16_units" // JavaScript's sort, RFC 8785 §3.2.3
)

// BigInts is what becomes of an integer past ±2^53.
type BigInts string

const (
	BigIntsExact BigInts = "exact" // its exact decimal digits
	// BigIntsError: a number is a double (RFC 8785 §3.2.2.3, I-JSON RFC
	// 7493 §2.2), so an integer past ±2^53 that a double holds exactly is
	// written as that double (2^60 as 1152921504606847000), and one that no
	// double holds, which rounding would change, is unsupported_value.
	BigIntsError BigInts = "error"
	// BigIntsDouble: a number is the double its text denotes, as
	// JSON.parse reads it (RFC 8785 §3.2.2: a JCS library parses every
	// number into a double), so an integer no double holds is rounded to
	// the nearest (2^53+1 is written 9007199254740992), and one past the
	// largest double (10^400) is unsupported_value.
	BigIntsDouble BigInts = "double"
)

// NonFinite is what becomes of NaN and the infinities.
type NonFinite string

const (
	NonFiniteTokens NonFinite = "tokens" // the bare tokens NaN, Infinity, -Infinity
	NonFiniteError  NonFinite = "error"  // rejected: unsupported_value
)

// TopLevel is what the signed value may be.
type TopLevel string

const (
	TopLevelEnvelope TopLevel = "envelope" // {"tool_name": string, "args": object}, else bad_envelope
	TopLevelAny      TopLevel = "any"      // any value
)

// Strings are the escaping choices beyond the ones every contract shares
// (\" \\ \b \f \n \r \t, \u00XX for the other C0 controls, printable ASCII
// as itself).
type Strings struct {
	// NonASCII is how U+0080 and up are written, unless one of the
	// classes below says otherwise for its characters.
	NonASCII Escape `toml:"non_ascii"`
	// DEL is U+007F.
	DEL Escape `toml:"del"`
	// C1 are the controls U+0080..U+009F.
	C1 Escape `toml:"c1"`
	// LineSeparators are U+2028 and U+2029, which JavaScript before ES2019
	// could not hold raw in a string literal.
	LineSeparators Escape `toml:"line_separators"`
}

// Numbers are the number choices. Floats are always ECMAScript's
// Number::toString (ES6 shortest digits), which every contract of the
// family shares; what differs is the integers and the non-finite floats.
type Numbers struct {
	BigInts   BigInts   `toml:"big_ints"`
	NonFinite NonFinite `toml:"non_finite"`
}

// Contract is every settled choice of one canonical JSON.
type Contract struct {
	// Name names the contract in flags, reports, corpus entries and
	// fixtures: a replay under another contract is refused.
	Name string `toml:"name"`
	// Base is the built-in a file's contract starts from ("" for a
	// built-in).
	Base string `toml:"base"`
	// Source is the absolute path of the file Load read the contract
	// from ("" for a built-in), so that a finding judged by it can say
	// how to judge it again: its name alone names no file.
	Source   string   `toml:"-"`
	Strings  Strings  `toml:"strings"`
	KeyOrder KeyOrder `toml:"key_order"`
	Numbers  Numbers  `toml:"numbers"`
	TopLevel TopLevel `toml:"top_level"`
	// MaxDepth is the deepest nesting accepted (too_deep past it); the
	// wire carries at most 1000 levels.
	MaxDepth int `toml:"max_depth"`
	// Allows is what the contract leaves open (allows.go): the differences
	// from its reference that are a library's profile, not a bug.
	Allows Allows `toml:"allows"`
	// Lone surrogates and duplicate keys are rejected by every contract of
	// the family (lone_surrogate, duplicate_key): no choice to make.
}

// MaxWireDepth is the deepest nesting the adapter protocol carries, so the
// largest MaxDepth a contract may set.
const MaxWireDepth = 1000

// Default is this project's contract, docs/canonical-json.md.
var Default = Contract{
	Name:     "difffuzz",
	Strings:  Strings{NonASCII: EscapeU, DEL: EscapeU, C1: EscapeU, LineSeparators: EscapeU},
	KeyOrder: KeyOrderCodePoints,
	Numbers:  Numbers{BigInts: BigIntsExact, NonFinite: NonFiniteTokens},
	TopLevel: TopLevelEnvelope,
	MaxDepth: 512,
	Allows:   Allows{ErrorCodes: ErrorCodesExact}, // nothing open
}

// RFC8785 is JSON Canonicalization Scheme (RFC 8785): strings as ES6
// JSON.stringify writes them (§3.2.2.2: only the controls, " and \
// escaped), keys by UTF-16 units (§3.2.3), numbers as I-JSON doubles
// (§3.2.2.3; RFC 7493 §2.2), any value at the top.
var RFC8785 = Contract{
	Name:     "rfc8785",
	Strings:  Strings{NonASCII: EscapeRaw, DEL: EscapeRaw, C1: EscapeRaw, LineSeparators: EscapeRaw},
	KeyOrder: KeyOrderUTF16,
	Numbers:  Numbers{BigInts: BigIntsError, NonFinite: NonFiniteError},
	TopLevel: TopLevelAny,
	MaxDepth: 512,
	Allows: Allows{
		// RFC 8785 names no error codes: §3.2.2 and §3.2.3 say only that
		// invalid data "MUST cause" an error, so any refusal is one.
		ErrorCodes: ErrorCodesAny,
		// It sets no nesting limit, and RFC 8259 §9 lets a parser set
		// one: any limit of its own, or none. The floor is this
		// contract's: a refusal of valid input shallower than it is
		// reported, since the judge cannot tell a limit from a bug in
		// one case, and 64 is the shallowest limit of a common parser
		// (.NET's System.Text.Json; serde_json's is 128).
		DepthFloor: 64,
		// Appendix B advises against integers past ±(2^53−1) (I-JSON,
		// RFC 7493 §2.2): a library may refuse them.
		RefuseUnsafeInts: true,
		// §3.2.2 parses every number into a double, so that a library
		// reading 2^53+1 as 2^53 does what JSON.parse does; refusing it
		// (BigIntsError, no silent repair) is the reference's choice.
		BigInts: BigIntsDouble,
	},
}

// Builtins are the contracts known by name, the default first.
var Builtins = []Contract{Default, RFC8785}

// Builtin is the built-in contract named name.
func Builtin(name string) (Contract, bool) {
	i := slices.IndexFunc(Builtins, func(c Contract) bool { return c.Name == name })
	if i < 0 {
		return Contract{}, false
	}
	return Builtins[i], true
}

// Names are the built-ins' names, for messages.
func Names() []string {
	names := make([]string, len(Builtins))
	for i, c := range Builtins {
		names[i] = c.Name
	}
	return names
}

// Check reports the first choice of c that is not one of its field's
// values, or that contradicts another.
func (c Contract) Check() error {
	for _, f := range []struct {
		key string
		got string
		ok  []string
	}{
		{"strings.non_ascii", string(c.Strings.NonASCII), []string{string(EscapeU), string(EscapeRaw)}},
		{"strings.del", string(c.Strings.DEL), []string{string(EscapeU), string(EscapeRaw)}},
		{"strings.c1", string(c.Strings.C1), []string{string(EscapeU), string(EscapeRaw)}},
		{"strings.line_separators", string(c.Strings.LineSeparators), []string{string(EscapeU), string(EscapeRaw)}},
		{"key_order", string(c.KeyOrder), []string{string(KeyOrderCodePoints), string(KeyOrderUTF16)}},
		{"numbers.big_ints", string(c.Numbers.BigInts), []string{string(BigIntsExact), string(BigIntsError), string(BigIntsDouble)}},
		{"numbers.non_finite", string(c.Numbers.NonFinite), []string{string(NonFiniteTokens), string(NonFiniteError)}},
		{"top_level", string(c.TopLevel), []string{string(TopLevelEnvelope), string(TopLevelAny)}},
	} {
		if !slices.Contains(f.ok, f.got) {
			return fmt.Errorf("%s = %q: want one of %q", f.key, f.got, f.ok)
		}
	}
	if c.MaxDepth < 1 || c.MaxDepth > MaxWireDepth {
		return fmt.Errorf("max_depth = %d: want 1 to %d (the protocol carries at most %d levels)", c.MaxDepth, MaxWireDepth, MaxWireDepth)
	}
	if c.TopLevel == TopLevelEnvelope && c.MaxDepth < 2 {
		return fmt.Errorf("max_depth = %d: the envelope {\"tool_name\",\"args\":{}} is 2 levels deep already", c.MaxDepth)
	}
	return c.Allows.check(c)
}
