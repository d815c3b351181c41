package probe

import (
	"slices"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/compare"
)

// The causes of key_order, as compare names them under this project's
// contract.
const (
	utf16Order   = "keys in UTF-16 order"
	escapedOrder = "keys sorted by their escaped text"
	jsOrder      = "integer-like keys first (JavaScript property order)"
	reverseOrder = "keys in reverse order"
)

// refKeys are the keys of each key-order probe as the reference writes
// them, by contract: code points, or UTF-16 units (RFC 8785).
var refKeys = map[string]map[string][]string{
	contract.Default.Name: {
		"U+F8FF U+1F4A9": {"\uf8ff", "\U0001F4A9"}, "U+0008 A": {"\b", "A"}, "`\"` A": {`"`, "A"},
		"10 9": {"10", "9"}, "! 0": {"!", "0"}, "b c a": {"a", "b", "c"},
	},
	contract.RFC8785.Name: {
		"U+F8FF U+1F4A9": {"\U0001F4A9", "\uf8ff"}, "U+0008 A": {"\b", "A"}, "`\"` A": {`"`, "A"},
		"10 9": {"10", "9"}, "! 0": {"!", "0"}, "b c a": {"a", "b", "c"},
	},
}

// keysText is the canonical text of an object of keys, each holding 0, in
// their order, as the reference of contract c spells a key.
func keysText(c contract.Contract, keys []string) string {
	escaped := strings.NewReplacer("\b", `\b`, `"`, `\"`)
	if c.Name == contract.Default.Name { // non-ASCII as \uXXXX
		escaped = strings.NewReplacer("\b", `\b`, `"`, `\"`, "\uf8ff", `\uf8ff`, "\U0001F4A9", `\ud83d\udca9`)
	}
	members := make([]string, len(keys))
	for i, k := range keys {
		members[i] = `"` + escaped.Replace(k) + `":0`
	}
	return "{" + strings.Join(members, ",") + "}"
}

// swapped is a pair of keys the other way round.
func swapped(keys []string) []string { return []string{keys[1], keys[0]} }

// keyOutcomes are the reference's outcomes of the key-order probes under
// contract c, and an implementation's that writes the keys of the probes
// in wrong (by name) in the order wrong gives them the reference's keys.
func keyOutcomes(t *testing.T, c contract.Contract, wrong map[string]func([]string) []string) (ref, got []compare.Outcome) {
	t.Helper()
	for _, p := range Cases(KeyOrder) {
		keys, ok := refKeys[c.Name][p.Name]
		if !ok {
			t.Fatalf("no reference keys of probe %s", p.Name)
		}
		ref = append(ref, text(p, keysText(c, keys)))
		if order, ok := wrong[p.Name]; ok {
			keys = order(keys)
		}
		got = append(got, text(p, keysText(c, keys)))
	}
	return ref, got
}

// The fake implementations' orders of the probes' keys.
var (
	utf16Writer   = map[string]func([]string) []string{"U+F8FF U+1F4A9": swapped}
	escapedWriter = map[string]func([]string) []string{"U+F8FF U+1F4A9": swapped, "U+0008 A": swapped, "`\"` A": swapped}
	jsWriter      = map[string]func([]string) []string{"10 9": swapped, "! 0": swapped}
	// ts-stringify: JSON.parse into an object, its keys sorted by
	// JavaScript's default sort, JSON.stringify.
	jsObjectWriter = map[string]func([]string) []string{"U+F8FF U+1F4A9": swapped, "10 9": swapped, "! 0": swapped}
	reverseWriter  = map[string]func([]string) []string{"U+F8FF U+1F4A9": swapped, "U+0008 A": swapped, "`\"` A": swapped,
		"10 9": swapped, "! 0": swapped, "b c a": func(k []string) []string { return []string{"c", "b", "a"} }}
	inputOrderWriter = map[string]func([]string) []string{"b c a": func(k []string) []string { return []string{"b", "c", "a"} }}
)

func TestKeyOrderProfile(t *testing.T) {
	for _, tt := range []struct {
		name     string
		contract contract.Contract
		wrong    map[string]func([]string) []string
		want     []string
	}{
		{"right", contract.Default, nil, nil},
		{"UTF-16 only", contract.Default, utf16Writer, []string{utf16Order}},
		// In UTF-16 order on the first probe too, but one order accounts
		// for all three.
		{"escaped text only", contract.Default, escapedWriter, []string{escapedOrder}},
		{"integer-like first only", contract.Default, jsWriter, []string{jsOrder}},
		{"UTF-16 and integer-like first", contract.Default, jsObjectWriter, []string{utf16Order, jsOrder}},
		{"reverse", contract.Default, reverseWriter, []string{reverseOrder}},
		{"the input's order", contract.Default, inputOrderWriter, []string{compare.KeysOutOfOrder}},
		// RFC 8785 wants UTF-16 order: code points are the other order, and
		// escaped text (raw non-ASCII) follows them on the first probe.
		{"code points under rfc8785", contract.RFC8785, utf16Writer, []string{"keys in code-point order (want UTF-16 order)"}},
		{"escaped text under rfc8785", contract.RFC8785, escapedWriter, []string{escapedOrder}},
		{"integer-like first under rfc8785", contract.RFC8785, jsWriter, []string{jsOrder}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ref, got := keyOutcomes(t, tt.contract, tt.wrong)
			p, err := Measure(tt.contract, KeyOrder, "sdk", ref, got)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Orders, tt.want) {
				t.Errorf("Orders = %q, want %q", p.Orders, tt.want)
			}
			if len(p.Wrong) != len(tt.wrong) {
				t.Errorf("%d probes wrong, want %d: %+v", len(p.Wrong), len(tt.wrong), p.Wrong)
			}
		})
	}
}

// A key_order bucket takes the one order of the profile its example is in.
func TestOrderCause(t *testing.T) {
	profile := func(wrong map[string]func([]string) []string) Profile {
		ref, got := keyOutcomes(t, contract.Default, wrong)
		p, err := Measure(contract.Default, KeyOrder, "sdk", ref, got)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	jsObject, escaped := profile(jsObjectWriter), profile(escapedWriter)
	for _, tt := range []struct {
		name     string
		p        Profile
		ref, got []string // the example's keys in the reference's order and the implementation's
		want     string   // "": the example keeps its label
	}{
		// Also in escaped-text and reverse order: the classifier's label
		// is the first, escaped text.
		{"integer-like first", jsObject, []string{"\b", "0"}, []string{"0", "\b"}, jsOrder},
		{"UTF-16", jsObject, []string{"\uf8ff", "\U0001F4A9"}, []string{"\U0001F4A9", "\uf8ff"}, utf16Order},
		{"in neither", jsObject, []string{"a", "b", "c"}, []string{"b", "c", "a"}, ""},
		// One order names every example, whatever it shows.
		{"one order", escaped, []string{"10", "9"}, []string{"9", "10"}, escapedOrder},
		{"no order", profile(nil), []string{"10", "9"}, []string{"9", "10"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ref := []byte(keysText(contract.Default, tt.ref))
			got := []byte(keysText(contract.Default, tt.got))
			cause, ok := tt.p.OrderCause(contract.Default, ref, got)
			if ok != (tt.want != "") || cause != tt.want {
				t.Errorf("OrderCause(%s, %s) = %q, %v; want %q", ref, got, cause, ok, tt.want)
			}
		})
	}
}
