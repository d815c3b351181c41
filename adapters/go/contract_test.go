package canonjson

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/difffuzz/difffuzz/contract"
)

// contractTable is the table both implementations are held to (the Python
// one in adapters/python/tests/test_contract.py): one line a value, its
// input in extended JSON, and its text or error code under each contract.
var contractTable = filepath.Join("..", "..", "tests", "fixtures", "contracts.jsonl")

// contractRow is one line of contractTable. An outcome is a text, or
// {"error": code}.
type contractRow struct {
	Name  string `json:"name"`
	Call  string `json:"call"` // "value": AppendCanonicalValue; "signed": Canonical, where top_level decides
	Input string `json:"input"`
	Want  map[string]outcome
}

func (r *contractRow) UnmarshalJSON(b []byte) error {
	type plain contractRow
	if err := json.Unmarshal(b, (*plain)(r)); err != nil {
		return err
	}
	return json.Unmarshal(b, &r.Want) // the other keys are contracts' names; the rest are ignored by lookups
}

func mustEncoding(t testing.TB, c contract.Contract) *Encoding {
	t.Helper()
	enc, err := For(c)
	if err != nil {
		t.Fatalf("For(%s): %v", c.Name, err)
	}
	return enc
}

// contractEncodings are the encodings of the contract tests: the two
// built-ins and a team's (contract/testdata/del-raw.toml: this project's,
// DEL written raw; named "our-sdk").
func contractEncodings(t testing.TB) (difffuzz, rfc, team *Encoding) {
	t.Helper()
	tc, err := contract.Load(filepath.Join("..", "..", "contract", "testdata", "del-raw.toml"))
	if err != nil {
		t.Fatal(err)
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

// UnmarshalJSON reads the table's form: a string, or {"error": code}; any
// other JSON (a row's name, its input) reads as an empty outcome.
func (o *outcome) UnmarshalJSON(b []byte) error {
	var e struct{ Error Code }
	if json.Unmarshal(b, &o.text) != nil && json.Unmarshal(b, &e) == nil {
		o.code = e.Error
	}
	return nil
}

func outcomeOf(t testing.TB, b []byte, err error) outcome {
	t.Helper()
	if err != nil {
		return reject(codeOf(t, err))
	}
	return text(string(b))
}

func readContractTable(t *testing.T) []contractRow {
	t.Helper()
	data, err := os.ReadFile(contractTable)
	if err != nil {
		t.Fatal(err)
	}
	var rows []contractRow
	for i, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var r contractRow
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("%s:%d: %v", contractTable, i+1, err)
		}
		rows = append(rows, r)
	}
	return rows
}

// TestContractTable checks each choice of a contract on the shared table,
// under the built-ins and the team's contract, whose only change is DEL.
func TestContractTable(t *testing.T) {
	difffuzz, rfc, team := contractEncodings(t)
	for _, row := range readContractTable(t) {
		t.Run(row.Name, func(t *testing.T) {
			v := mustParse(t, row.Input)
			for _, enc := range []*Encoding{difffuzz, rfc, team} {
				name := enc.Contract().Name
				want, ok := row.Want[name]
				if !ok || row.Call != "value" && row.Call != "signed" {
					t.Fatalf("the row has no outcome for %s, or its call %q is neither value nor signed", name, row.Call)
				}
				var got outcome
				if row.Call == "value" {
					b, err := enc.AppendCanonicalValue(nil, v)
					got = outcomeOf(t, b, err)
				} else {
					got = signed(t, enc, v)
				}
				if got != want {
					t.Errorf("%s: got %s, want %s", name, got, want)
				}
			}
		})
	}
}

// signed is Canonical's outcome, checked against Signature's.
func signed(t *testing.T, enc *Encoding, v any) outcome {
	t.Helper()
	b, err := enc.Canonical(v)
	got := outcomeOf(t, b, err)
	sig, serr := enc.Signature(v)
	if (serr == nil) != (err == nil) {
		t.Fatalf("%s: Signature error %v, Canonical %s", enc.Contract().Name, serr, got)
	}
	if err == nil && sig != hexDigest(b) {
		t.Errorf("%s: Signature %s, want BLAKE3 of the text %s", enc.Contract().Name, sig, hexDigest(b))
	}
	return got
}

// TestContractGoTypes checks the Go types beyond the table's model (the
// conveniences, and the model's own *big.Int and RawObject).
func TestContractGoTypes(t *testing.T) {
	difffuzz, rfc, _ := contractEncodings(t)
	for _, tc := range []struct {
		name          string
		v             any
		difffuzz, rfc outcome
	}{
		{"map keys by order", map[string]any{"\uffff": true, "\U00010000": false},
			text(`{"\uffff":true,"\ud800\udc00":false}`), text("{\"\U00010000\":false,\"\uffff\":true}")},
		{"raw keys by order", RawObject{{Key: "\ue000", Value: nil}, {Key: "\U0010ffff", Value: nil}},
			text(`{"\ue000":null,"\udbff\udfff":null}`), text("{\"\U0010ffff\":null,\"\ue000\":null}")},
		{"uint64 max", uint64(math.MaxUint64), text("18446744073709551615"), reject(CodeUnsupported)},
		{"uint max", uint(math.MaxUint), text("18446744073709551615"), reject(CodeUnsupported)},
		{"2^64-2^11", uint64(1<<64 - 1<<11), text("18446744073709549568"), text("18446744073709550000")},
		{"int64 2^60", int64(1 << 60), text("1152921504606846976"), text("1152921504606847000")},
		{"int 2^53+1", 1<<53 + 1, text("9007199254740993"), reject(CodeUnsupported)},
		{"small big.Int", bigInt("-42"), text("-42"), text("-42")},
		{"big.Int 2^70", bigInt("1180591620717411303424"), text("1180591620717411303424"), text("1.1805916207174113e+21")},
		{"float32 Infinity", float32(math.Inf(1)), text("Infinity"), reject(CodeUnsupported)},
		{"[]string", []string{"\u2028"}, text(`["\u2028"]`), text("[\"\u2028\"]")},
	} {
		for _, c := range []struct {
			enc  *Encoding
			want outcome
		}{{difffuzz, tc.difffuzz}, {rfc, tc.rfc}} {
			b, err := c.enc.AppendCanonicalValue(nil, tc.v)
			if got := outcomeOf(t, b, err); got != c.want {
				t.Errorf("%s: %s: got %s, want %s", tc.name, c.enc.Contract().Name, got, c.want)
			}
		}
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
