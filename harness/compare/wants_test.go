package compare

import (
	"testing"

	"github.com/difffuzz/difffuzz/contract"
)

// A cause says what the reference's contract wants. Each row is a
// reference's text under a built-in and a deviant's; the default's causes
// keep the text signatures have always had.
func TestCauseUnderContract(t *testing.T) {
	for _, tc := range []struct {
		contract contract.Contract
		ref, dev string
		kind     Kind
		cause    string
	}{
		// difffuzz: non-ASCII, DEL and astral escaped, keys by code points,
		// integers exact.
		{contract.Default, `{"a":"\u00e9"}`, `{"a":"é"}`, KindString, `non-ASCII written raw (want \uXXXX)`},
		{contract.Default, `"a\u007fb"`, "\"a\x7fb\"", KindString, `U+007F written raw (want \u007f)`},
		{contract.Default, `"\ud83d\ude00"`, `"\u1f600"`, KindString, `an astral character written as \u and its code point (want \uXXXX\uXXXX)`},
		{contract.Default, `{"\ue000":1,"\ud83d\ude00":2}`, `{"\ud83d\ude00":2,"\ue000":1}`, KindKeyOrder, "keys in UTF-16 order"},
		{contract.Default, `[1152921504606846977]`, `[1152921504606847000]`, KindNumber, "an integer past 2^53 rounded through a double"},
		{contract.Default, `{"a":1,"b":2}`, `{"b":2,"a":1}`, KindKeyOrder, "keys in reverse order"},
		// rfc8785: everything raw but the controls, " and \, keys by UTF-16
		// units, integers past 2^53 as doubles.
		{contract.RFC8785, `{"a":"é"}`, `{"a":"\u00e9"}`, KindString, `non-ASCII written as \uXXXX (want raw)`},
		{contract.RFC8785, "\"a\x7fb\"", `"a\u007fb"`, KindString, `U+007F written as \uXXXX (want raw)`},
		{contract.RFC8785, "\"\u0085\"", `"\u0085"`, KindString, `non-ASCII written as \uXXXX (want raw)`},
		{contract.RFC8785, "\"\u2028\"", `"\u2028"`, KindString, `non-ASCII written as \uXXXX (want raw)`},
		{contract.RFC8785, `"😀"`, `"\ud83d\ude00"`, KindString, `non-ASCII written as \uXXXX (want raw)`},
		{contract.RFC8785, `"😀"`, `"\u1f600"`, KindString, `an astral character written as \u and its code point (want raw)`},
		{contract.RFC8785, "{\"😀\":2,\"\ue000\":1}", "{\"\ue000\":1,\"😀\":2}", KindKeyOrder, "keys in code-point order (want UTF-16 order)"},
		{contract.RFC8785, "{\"a\":0,\"😀\":2,\"\ue000\":1}", "{\"a\":0,\"\ue000\":1,\"😀\":2}", KindKeyOrder, "keys in code-point order (want UTF-16 order)"},
		{contract.RFC8785, `[1152921504606847000]`, `[1152921504606846976]`, KindNumber, "an integer past 2^53 written in full (want its double's shortest digits)"},
		{contract.RFC8785, `[1e+21]`, `[1000000000000000000000]`, KindNumber, "a number of 1e21 or more printed in full (want exponent form)"},
		{contract.RFC8785, `{"a":1,"b":2}`, `{"b":2,"a":1}`, KindKeyOrder, "keys in reverse order"},
	} {
		a, b := []byte(tc.ref), []byte(tc.dev)
		kind, cause := CauseUnder(tc.contract, a, b, FirstDiff(a, b))
		if kind != tc.kind || cause != tc.cause {
			t.Errorf("under %s, %s against %s: %s: %q, want %s: %q", tc.contract.Name, tc.dev, tc.ref, kind, cause, tc.kind, tc.cause)
		}
	}
}

// A Comparator made for a contract labels by it; New's is the default's.
func TestComparatorContract(t *testing.T) {
	names := []string{"ref", "x"}
	outs := func(ref, dev string) []Outcome {
		return []Outcome{out(ref), out(dev)}
	}
	jcs := NewFor(names, contract.RFC8785)
	v := jcs.Compare(outs("{\"😀\":2,\"\ue000\":1}", "{\"\ue000\":1,\"😀\":2}"))
	if got := v.Deviations[0].Cause; got != "keys in code-point order (want UTF-16 order)" {
		t.Errorf("NewFor(rfc8785): %q", got)
	}
	def := New(names)
	v = def.Compare(outs(`{"\ue000":1,"\ud83d\ude00":2}`, `{"\ud83d\ude00":2,"\ue000":1}`))
	if got := v.Deviations[0].Cause; got != "keys in UTF-16 order" {
		t.Errorf("New: %q", got)
	}
}
