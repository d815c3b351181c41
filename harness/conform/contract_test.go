package conform

import (
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// TestUnderContract checks answers judged by rfc8785: what it leaves open
// passes and is counted for the PASS line, the rest fails.
func TestUnderContract(t *testing.T) {
	u, err := newUnderContract(contract.RFC8785)
	if err != nil {
		t.Fatal(err)
	}
	deep := any([]any{})
	for range 199 {
		deep = []any{deep}
	}
	lone := value.Object{{Key: "s", Value: "\xed\xa0\x80"}}
	for _, tc := range []struct {
		name string
		v    any
		got  wire.Result
		want string // "" to pass
	}{
		{"its own exception on a lone surrogate", lone, wire.Result{Error: wire.ErrorInternal, Message: "ValueError"}, ""},
		{"its own nesting limit", deep, wire.Result{Error: "too_deep"}, ""},
		{"an exception on valid input", value.Object{{Key: "a", Value: int64(1)}}, wire.Result{Error: wire.ErrorInternal}, "want `{\"a\":1}`"},
		{"accepts a lone surrogate", lone, wire.Result{Canonical: []byte(`{"s":"?"}`)}, "want error lone_surrogate"},
	} {
		if got := u.mismatch(tc.got, tc.v); tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if note := u.note(); note != "allowed by rfc8785: depth_limit 1, own_exceptions 1" {
		t.Errorf("note %q", note)
	}
	if u.note() != "" {
		t.Error("the note does not start afresh")
	}
	if d, _ := newUnderContract(contract.Default); d != nil {
		t.Error("this project's contract is judged by its own answers, not by underContract")
	}
}

// A dict cannot hold a repeated key, whatever non-string key comes first.
func TestHoldsRepeatAfterNonStringKey(t *testing.T) {
	o := value.RawObject{{Key: int64(1), Value: nil}, {Key: "a", Value: nil}, {Key: "a", Value: nil}}
	if !holds(o, wire.ReasonDuplicateKey) || !holds(o, wire.ReasonNonStringKey) {
		t.Error("a repeated key after a non-string key is not held inexpressible")
	}
	if holds(value.RawObject{{Key: int64(1), Value: nil}, {Key: "a", Value: nil}}, wire.ReasonDuplicateKey) {
		t.Error("no repeat, yet duplicate_key")
	}
}
