// Package canonjson is the Go implementation of canonical JSON for tool-call
// signatures (docs/canonical-json.md): one of the implementations difffuzz
// tests, like the Python, TypeScript and Rust ones.
//
// The package knows nothing of the protocol or of the harness. Only its worker
// (package worker, run by cmd/canonjson-worker and by the driver's in-process
// adapter) imports it; the harness judges it through package value, never
// through it.
//
// Values are plain Go values, in the model of package value (the harness's,
// so that a decoded case reaches this package unconverted):
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
// Canonical and Signature implement the spec; Digest is its hash. They are
// the Default Encoding; For gives the Encoding of another contract of the
// family (package contract, docs/canonical-json.md §7), such as RFC 8785:
// raw UTF-8 strings, keys by UTF-16 units, numbers as doubles, any top-level
// value.
package canonjson
