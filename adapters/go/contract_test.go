package canonjson

import (
	"math"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/difffuzz/difffuzz/contract"
)

// teamContract is a team's contract as a file states it: this project's,
// but DEL written raw.
const teamContract = `
name = "our-sdk"

[strings]
del = "raw"
`

func mustEncoding(t testing.TB, c contract.Contract) *Encoding {
	t.Helper()
	enc, err := For(c)
	if err != nil {
		t.Fatalf("For(%s): %v", c.Name, err)
	}
	return enc
}

// contractEncodings are the encodings of the contract tests: the two
// built-ins and the team's.
func contractEncodings(t testing.TB) (difffuzz, rfc, team *Encoding) {
	t.Helper()
	tc, err := contract.Parse([]byte(teamContract), "team")
	if err != nil {
		t.Fatalf("contract.Parse: %v", err)
	}
	return mustEncoding(t, contract.Default), mustEncoding(t, contract.RFC8785), mustEncoding(t, tc)
}

// outcome is a value's text, or the error code that rejects it.
type outcome struct {
	text string
	code Code
}

func text(s string) outcome { return outcome{text: s} }
func reject(c Code) outcome { return outcome{code: c} }
func (o outcome) String() string {
	if o.code != "" {
		return "error " + string(o.code)
	}
	return o.text
}

func outcomeOf(t testing.TB, b []byte, err error) outcome {
	t.Helper()
	if err != nil {
		return reject(codeOf(t, err))
	}
	return text(string(b))
}

// TestContractValues checks each choice of a contract on values
// (AppendCanonicalValue, no top-level check) under the built-ins and the
// team's contract, whose only change is DEL.
func TestContractValues(t *testing.T) {
	difffuzz, rfc, team := contractEncodings(t)
	big2to70 := bigInt("1180591620717411303424")
	for _, tc := range []struct {
		name                string
		v                   any
		difffuzz, rfc, team outcome
	}{
		// strings.non_ascii, .del, .c1, .line_separators
		{"non-ASCII", "é€", text(`"\u00e9\u20ac"`), text(`"é€"`), text(`"\u00e9\u20ac"`)},
		{"astral", "😂", text(`"\ud83d\ude02"`), text(`"😂"`), text(`"\ud83d\ude02"`)},
		{"DEL", "a\x7fb", text(`"a\u007fb"`), text("\"a\x7fb\""), text("\"a\x7fb\"")},
		{"C1", "\u0080\u0085\u009f", text(`"\u0080\u0085\u009f"`), text("\"\u0080\u0085\u009f\""), text(`"\u0080\u0085\u009f"`)},
		{"U+00A0 after C1", "\u00a0", text(`"\u00a0"`), text("\"\u00a0\""), text(`"\u00a0"`)},
		{"line separators", "\u2028\u2029", text(`"\u2028\u2029"`), text("\"\u2028\u2029\""), text(`"\u2028\u2029"`)},
		{"shared escapes", "\"\\\b\f\n\r\t\x00\x0f\x1f/", text(`"\"\\\b\f\n\r\t\u0000\u000f\u001f/"`),
			text(`"\"\\\b\f\n\r\t\u0000\u000f\u001f/"`), text(`"\"\\\b\f\n\r\t\u0000\u000f\u001f/"`)},
		{"lone surrogate", "a\xed\xa0\x80", reject(CodeLoneSurrogate), reject(CodeLoneSurrogate), reject(CodeLoneSurrogate)},
		// key_order: U+FB33 (one UTF-16 unit) against U+1F602 (high
		// surrogate D83D first).
		{"keys by order", Object{{Key: "😂", Value: int64(1)}, {Key: "\ufb33", Value: int64(2)}, {Key: "a", Value: int64(3)}},
			text(`{"a":3,"\ufb33":2,"\ud83d\ude02":1}`), text("{\"a\":3,\"😂\":1,\"\ufb33\":2}"), text(`{"a":3,"\ufb33":2,"\ud83d\ude02":1}`)},
		{"map keys by order", map[string]any{"\uffff": true, "\U00010000": false},
			text(`{"\uffff":true,"\ud800\udc00":false}`), text("{\"\U00010000\":false,\"\uffff\":true}"), text(`{"\uffff":true,"\ud800\udc00":false}`)},
		{"raw keys by order", RawObject{{Key: "\ue000", Value: nil}, {Key: "\U0010ffff", Value: nil}, {Key: "\ud7ff", Value: nil}},
			text(`{"\ud7ff":null,"\ue000":null,"\udbff\udfff":null}`), text("{\"\ud7ff\":null,\"\U0010ffff\":null,\"\ue000\":null}"),
			text(`{"\ud7ff":null,"\ue000":null,"\udbff\udfff":null}`)},
		{"duplicate key", Object{{Key: "a", Value: int64(1)}, {Key: "a", Value: math.NaN()}},
			reject(CodeDuplicateKey), reject(CodeDuplicateKey), reject(CodeDuplicateKey)},
		// numbers.big_ints: past ±2^53, rfc8785 writes the double that
		// holds the integer (RFC 8785 §3.2.2.3), and rejects one no
		// double holds.
		{"2^53", int64(1 << 53), text("9007199254740992"), text("9007199254740992"), text("9007199254740992")},
		{"-2^53", int64(-1 << 53), text("-9007199254740992"), text("-9007199254740992"), text("-9007199254740992")},
		{"2^53+1", int64(1<<53 + 1), text("9007199254740993"), reject(CodeUnsupported), text("9007199254740993")},
		{"-(2^53+1)", int64(-(1<<53 + 1)), text("-9007199254740993"), reject(CodeUnsupported), text("-9007199254740993")},
		{"2^53+2", int64(1<<53 + 2), text("9007199254740994"), text("9007199254740994"), text("9007199254740994")},
		{"2^60", int64(1 << 60), text("1152921504606846976"), text("1152921504606847000"), text("1152921504606846976")},
		{"int64 min", int64(math.MinInt64), text("-9223372036854775808"), text("-9223372036854776000"), text("-9223372036854775808")},
		{"int64 max", int64(math.MaxInt64), text("9223372036854775807"), reject(CodeUnsupported), text("9223372036854775807")},
		{"uint64 max", uint64(math.MaxUint64), text("18446744073709551615"), reject(CodeUnsupported), text("18446744073709551615")},
		{"uint max", uint(math.MaxUint), text("18446744073709551615"), reject(CodeUnsupported), text("18446744073709551615")},
		{"2^64-2^11", uint64(1<<64 - 1<<11), text("18446744073709549568"), text("18446744073709550000"), text("18446744073709549568")},
		{"2^70", big2to70, text("1180591620717411303424"), text("1.1805916207174113e+21"), text("1180591620717411303424")},
		{"2^70+1", bigInt("1180591620717411303425"), text("1180591620717411303425"), reject(CodeUnsupported), text("1180591620717411303425")},
		{"10^400", bigInt("1" + strings.Repeat("0", 400)), text("1" + strings.Repeat("0", 400)), reject(CodeUnsupported), text("1" + strings.Repeat("0", 400))},
		{"small big.Int", bigInt("-42"), text("-42"), text("-42"), text("-42")},
		{"big int after lone surrogate", []any{"\xed\xa0\x80", int64(1<<53 + 1)},
			reject(CodeLoneSurrogate), reject(CodeLoneSurrogate), reject(CodeLoneSurrogate)},
		{"big int before lone surrogate", []any{int64(1<<53 + 1), "\xed\xa0\x80"},
			reject(CodeLoneSurrogate), reject(CodeUnsupported), reject(CodeLoneSurrogate)},
		// numbers.non_finite
		{"NaN", math.NaN(), text("NaN"), reject(CodeUnsupported), text("NaN")},
		{"+Infinity", math.Inf(1), text("Infinity"), reject(CodeUnsupported), text("Infinity")},
		{"-Infinity", []any{math.Inf(-1)}, text("[-Infinity]"), reject(CodeUnsupported), text("[-Infinity]")},
		{"float32 Infinity", float32(math.Inf(1)), text("Infinity"), reject(CodeUnsupported), text("Infinity")},
		{"finite floats", []any{-0.0, 1e21, 5e-324, 1.5}, text("[0,1e+21,5e-324,1.5]"), text("[0,1e+21,5e-324,1.5]"), text("[0,1e+21,5e-324,1.5]")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range []struct {
				enc  *Encoding
				want outcome
			}{{difffuzz, tc.difffuzz}, {rfc, tc.rfc}, {team, tc.team}} {
				b, err := c.enc.AppendCanonicalValue(nil, tc.v)
				got := outcomeOf(t, b, err)
				if got != c.want {
					t.Errorf("%s: got %s, want %s", c.enc.Contract().Name, got, c.want)
				}
			}
		})
	}
}

// TestContractTopLevel checks top_level through Canonical and Signature.
func TestContractTopLevel(t *testing.T) {
	difffuzz, rfc, team := contractEncodings(t)
	for _, tc := range []struct {
		name                string
		v                   any
		difffuzz, rfc, team outcome
	}{
		{"envelope", env(Object{{Key: "k", Value: "\x7f"}}),
			text(`{"args":{"k":"\u007f"},"tool_name":"t"}`), text("{\"args\":{\"k\":\"\x7f\"},\"tool_name\":\"t\"}"),
			text("{\"args\":{\"k\":\"\x7f\"},\"tool_name\":\"t\"}")},
		{"array", []any{int64(1)}, reject(CodeBadEnvelope), text("[1]"), reject(CodeBadEnvelope)},
		{"string", "x", reject(CodeBadEnvelope), text(`"x"`), reject(CodeBadEnvelope)},
		{"null", nil, reject(CodeBadEnvelope), text("null"), reject(CodeBadEnvelope)},
		{"three members", Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: Object{}}, {Key: "x", Value: nil}},
			reject(CodeBadEnvelope), text(`{"args":{},"tool_name":"t","x":null}`), reject(CodeBadEnvelope)},
		{"walk before envelope", []any{math.NaN()}, reject(CodeBadEnvelope), reject(CodeUnsupported), reject(CodeBadEnvelope)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range []struct {
				enc  *Encoding
				want outcome
			}{{difffuzz, tc.difffuzz}, {rfc, tc.rfc}, {team, tc.team}} {
				b, err := c.enc.Canonical(tc.v)
				got := outcomeOf(t, b, err)
				if got != c.want {
					t.Errorf("%s: Canonical: got %s, want %s", c.enc.Contract().Name, got, c.want)
				}
				sig, err := c.enc.Signature(tc.v)
				if (err == nil) != (c.want.code == "") {
					t.Fatalf("%s: Signature error %v, Canonical %s", c.enc.Contract().Name, err, got)
				}
				if err == nil && sig != hexDigest(b) {
					t.Errorf("%s: Signature %s, want BLAKE3 of the text %s", c.enc.Contract().Name, sig, hexDigest(b))
				}
			}
		})
	}
}

func hexDigest(b []byte) string {
	const hexDigits = "0123456789abcdef"
	d := Digest(b)
	var h strings.Builder
	for _, c := range d {
		h.WriteByte(hexDigits[c>>4])
		h.WriteByte(hexDigits[c&0xf])
	}
	return h.String()
}

// TestContractClasses checks that a class's choice (C1, line separators)
// wins over non_ascii's, either way round.
func TestContractClasses(t *testing.T) {
	const s = "é\u0085\u2028\x7f"
	for _, tc := range []struct {
		name    string
		strings contract.Strings
		want    string
	}{
		{"raw but C1 escaped", contract.Strings{NonASCII: contract.EscapeRaw, DEL: contract.EscapeU, C1: contract.EscapeU, LineSeparators: contract.EscapeRaw},
			"\"é\\u0085\u2028\\u007f\""},
		{"raw but line separators escaped", contract.Strings{NonASCII: contract.EscapeRaw, DEL: contract.EscapeRaw, C1: contract.EscapeRaw, LineSeparators: contract.EscapeU},
			"\"é\u0085\\u2028\x7f\""},
		{"escaped but C1 raw", contract.Strings{NonASCII: contract.EscapeU, DEL: contract.EscapeU, C1: contract.EscapeRaw, LineSeparators: contract.EscapeU},
			"\"\\u00e9\u0085\\u2028\\u007f\""},
		{"escaped but line separators raw", contract.Strings{NonASCII: contract.EscapeU, DEL: contract.EscapeU, C1: contract.EscapeU, LineSeparators: contract.EscapeRaw},
			"\"\\u00e9\\u0085\u2028\\u007f\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := contract.Default
			c.Name, c.Strings = "classes", tc.strings
			got, err := mustEncoding(t, c).AppendCanonicalValue(nil, s)
			if err != nil || string(got) != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestContractDepth checks max_depth, with its message.
func TestContractDepth(t *testing.T) {
	c := contract.RFC8785
	c.Name, c.MaxDepth = "shallow", 3
	enc := mustEncoding(t, c)
	if got, err := enc.Canonical(nestEmpty(3)); err != nil || string(got) != "[[[]]]" {
		t.Errorf("depth 3: got %q, %v; want [[[]]]", got, err)
	}
	_, err := enc.Canonical(nestEmpty(4))
	if codeOf(t, err) != CodeTooDeep || !strings.Contains(err.Error(), "deeper than 3 levels") {
		t.Errorf("depth 4: got %v, want too_deep deeper than 3 levels", err)
	}
	for _, enc := range []*Encoding{Default, mustEncoding(t, contract.RFC8785)} {
		if _, err := enc.AppendCanonicalValue(nil, nestEmpty(MaxDepth)); err != nil {
			t.Errorf("%s: depth %d: %v", enc.Contract().Name, MaxDepth, err)
		}
		if _, err := enc.AppendCanonicalValue(nil, nestEmpty(MaxDepth+1)); codeOf(t, err) != CodeTooDeep {
			t.Errorf("%s: depth %d: got %v, want too_deep", enc.Contract().Name, MaxDepth+1, err)
		}
	}
}

// TestContractMessages checks that a rejection by a contract's choice says
// which choice it was.
func TestContractMessages(t *testing.T) {
	rfc := mustEncoding(t, contract.RFC8785)
	for _, tc := range []struct {
		v    any
		want string
	}{
		{env(Object{{Key: "n", Value: int64(1<<53 + 1)}}), `the integer 9007199254740993 is past ±2^53 and no double holds it exactly, under contract rfc8785 (numbers.big_ints = error) at $["args"]["n"]`},
		{[]any{math.Inf(-1)}, `-Infinity is not a number under contract rfc8785 (numbers.non_finite = error) at $[0]`},
	} {
		_, err := rfc.Canonical(tc.v)
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("got %v, want it to end %q", err, tc.want)
		}
	}
}

// TestForChecks checks that For refuses a contract that fails its Check.
func TestForChecks(t *testing.T) {
	c := contract.Default
	c.KeyOrder = "alphabetical"
	if _, err := For(c); err == nil || !strings.Contains(err.Error(), "key_order") {
		t.Errorf("For(bad key_order) = %v, want an error naming key_order", err)
	}
	if Default.Contract().Name != contract.Default.Name {
		t.Errorf("Default follows %q, want %q", Default.Contract().Name, contract.Default.Name)
	}
}

// TestCompareUTF16 checks the key order against sorting the keys' UTF-16
// code units.
func TestCompareUTF16(t *testing.T) {
	keys := []string{"", "a", "ab", "\u007f", "\u0080", "\u07ff", "\u0800", "\ud7ff", "\ue000", "\ufb33", "\uffff",
		"\U00010000", "\U0001f602", "\U0010ffff", "a\U00010000", "a\uffff", "\uffffa", "\U00010000a"}
	for _, a := range keys {
		for _, b := range keys {
			got, want := sign(compareUTF16(a, b)), sign(compareUnits(a, b))
			if got != want {
				t.Errorf("compareUTF16(%+q, %+q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func compareUnits(a, b string) int {
	ua, ub := utf16Units(a), utf16Units(b)
	for i := range min(len(ua), len(ub)) {
		if ua[i] != ub[i] {
			return int(ua[i]) - int(ub[i])
		}
	}
	return len(ua) - len(ub)
}

func utf16Units(s string) []uint16 { return utf16.Encode([]rune(s)) }

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}
