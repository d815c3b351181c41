// Package canonjson is the Go implementation of canonical JSON for tool-call
// signatures (docs/canonical-json.md) and the value model the difffuzz driver
// generates, prints and compares cases with.
//
// The package is deliberately a leaf: the fuzzer's driver and the Go worker
// both import it, and it must be testable against the shared fixtures without
// either of them.
//
// Values are plain Go values so that the driver can build millions of cases
// cheaply:
//
//	nil, bool, int64, *big.Int, float64, string, []any, Object
//
// plus conveniences for SDK callers (other integer widths, float32,
// map[string]any, []string) and RawObject for objects whose keys are not all
// strings. A lone surrogate inside a string is carried in WTF-8, the 3-byte
// generalized UTF-8 form (ED A0 80 .. ED BF BF) of U+D800..U+DFFF, so that the
// out-of-domain inputs the spec names stay expressible. A surrogate pair must
// be the 4-byte UTF-8 of its astral character; two 3-byte surrogate sequences
// in a row are two lone surrogates.
//
// Canonical and Signature implement the spec; Parse and AppendText implement
// its extended JSON text (section 6), used by corpus files, fixtures and bug
// reports; Equal is the deep equality the driver needs to check round trips.
package canonjson
