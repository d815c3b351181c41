// Package value is the harness's model of canonical JSON values and what the
// spec (docs/canonical-json.md) says about them, apart from any
// implementation under test: the generator, the minimizer, the corpus and
// triage know the spec through this package, so that a bug in one of the
// implementations cannot bend the harness's own judgement.
//
// Values are plain Go values, so that the generator can build millions of
// cases cheaply:
//
//	nil, bool, int64, *big.Int, float64, string, []any, Object
//
// and RawObject for an object whose keys are not all strings (other integer
// widths, float32, map[string]any and []string are accepted too). A lone
// surrogate inside a string is carried in WTF-8, the 3-byte generalized
// UTF-8 form (ED A0 80 .. ED BF BF) of U+D800..U+DFFF, so that the
// out-of-domain inputs the spec names stay expressible. A surrogate pair must
// be the 4-byte UTF-8 of its astral character; two 3-byte surrogate sequences
// in a row are two lone surrogates.
//
// Check and CheckSigned are the spec's domain checks (section 3), with its
// error codes; Parse and AppendText are its extended JSON text (section 6),
// used by corpus files, fixtures and bug reports; Equal is the deep equality
// round trips must keep. The package computes no canonical text: that is
// the implementations' job.
package value
