package compare

import (
	"slices"
	"testing"

	"github.com/difffuzz/difffuzz/contract"
)

const (
	utf16Cause   = "keys in UTF-16 order"
	escapedCause = "keys sorted by their escaped text"
	jsCause      = "integer-like keys first (JavaScript property order)"
	reverseCause = "keys in reverse order"
)

// KeyOrderCauses lists every order a deviant's keys are in, where
// keysCause names the first.
func TestKeyOrderCauses(t *testing.T) {
	for _, tt := range []struct {
		contract contract.Contract
		ref, dev string
		want     []string
	}{
		// The minimized pair of a JavaScript writer: three orders fit.
		{contract.Default, `{"\b":0,"0":0}`, `{"0":0,"\b":0}`, []string{escapedCause, jsCause, reverseCause}},
		{contract.Default, `{"\uf8ff":0,"\ud83d\udca9":0}`, `{"\ud83d\udca9":0,"\uf8ff":0}`, []string{utf16Cause, escapedCause, reverseCause}},
		{contract.RFC8785, "{\"\U0001F4A9\":0,\"\uf8ff\":0}", "{\"\uf8ff\":0,\"\U0001F4A9\":0}",
			[]string{"keys in code-point order (want UTF-16 order)", escapedCause, reverseCause}},
		{contract.Default, `{"a":0,"b":0,"c":0}`, `{"c":0,"b":0,"a":0}`, []string{reverseCause}},
		{contract.Default, `{"a":0,"b":0,"c":0}`, `{"b":0,"c":0,"a":0}`, []string{"keys out of order"}},
		{contract.Default, `{"x":{"a":0,"b":0}}`, `{"x":{"b":0,"a":0}}`, []string{reverseCause}},
		// Not an order of the same keys.
		{contract.Default, `{"a":0,"b":0}`, `{"a":0,"c":0}`, nil},
		{contract.Default, `{"a":0}`, `{"a":1}`, nil},
		{contract.Default, `{"a":0}`, `{"a":0}`, nil},
	} {
		got := KeyOrderCauses(tt.contract, []byte(tt.ref), []byte(tt.dev))
		if !slices.Equal(got, tt.want) {
			t.Errorf("under %s, %s against %s: %q, want %q", tt.contract.Name, tt.dev, tt.ref, got, tt.want)
		}
		if len(tt.want) > 0 {
			a, b := []byte(tt.ref), []byte(tt.dev)
			if k, cause := CauseUnder(tt.contract, a, b, FirstDiff(a, b)); k != KindKeyOrder || cause != tt.want[0] {
				t.Errorf("under %s, %s against %s: the cause is %s: %q, not the first that fits", tt.contract.Name, tt.dev, tt.ref, k, cause)
			}
		}
	}
}

// KeyOrdersDiffering lists the orders that would change the reference's.
func TestKeyOrdersDiffering(t *testing.T) {
	for _, tt := range []struct {
		ref  string
		want []string
	}{
		{`{"args":{"\b":0,"A":0}}`, []string{escapedCause, reverseCause}},
		{`{"args":{"10":0,"9":0}}`, []string{jsCause, reverseCause}},
		{`{"args":{"a":0}}`, nil},
	} {
		if got := KeyOrdersDiffering(contract.Default, []byte(tt.ref), len(`{"args":`)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.ref, got, tt.want)
		}
	}
}
