package compare

import (
	"slices"

	"github.com/difffuzz/difffuzz/contract"
)

// wants are the choices of the reference's contract that a cause's text
// depends on. Most causes need none: "(want ...)" says how the reference
// spelled the unit at hand ("non-ASCII written as \uXXXX (want raw)" under
// RFC 8785, "non-ASCII written raw (want \uXXXX)" under this project's
// contract), so the contract is read from the text. What the text cannot
// tell is which of two orders of keys, or of two writings of a large
// integer, the reference wanted: a deviant in the other is told here.
//
// Under this project's contract the causes keep the text signatures have
// always had ("keys in UTF-16 order", "an integer past 2^53 rounded through
// a double"), which known-divergence lists and corpora hold; under another
// contract they say what it wants ("keys in code-point order (want UTF-16
// order)").
type wants struct {
	keyOrder contract.KeyOrder
	bigInts  contract.BigInts
}

func wantsOf(c contract.Contract) wants {
	return wants{keyOrder: c.KeyOrder, bigInts: c.Numbers.BigInts}
}

// orderNames name the key orders in causes.
var orderNames = map[contract.KeyOrder]string{
	contract.KeyOrderCodePoints: "code-point",
	contract.KeyOrderUTF16:      "UTF-16",
}

// otherOrders are the reference's keys ka, in the order the contract
// wants, in each key order of the family other than that one, named as a
// deviant's keys in it are.
func (w wants) otherOrders(ka []string) []keyOrder {
	var out []keyOrder
	for _, o := range []contract.KeyOrder{contract.KeyOrderUTF16, contract.KeyOrderCodePoints} {
		if o == w.keyOrder {
			continue
		}
		cause := "keys in " + orderNames[o] + " order"
		if w.keyOrder != contract.Default.KeyOrder {
			cause += " (want " + orderNames[w.keyOrder] + " order)"
		}
		out = append(out, keyOrder{cause, keysIn(o, ka)})
	}
	return out
}

// keysIn is keys sorted in order o.
func keysIn(o contract.KeyOrder, keys []string) []string {
	if o == contract.KeyOrderUTF16 {
		return utf16Order(keys)
	}
	return slices.Sorted(slices.Values(keys)) // Go compares strings by UTF-8 bytes: code points
}

// bigIntCause names an integer past 2^53 that the deviant wrote as other
// digits of the same double: rounded through the double, where the
// contract wants the exact digits; the exact digits, where it wants the
// double's (RFC 8785 §3.2.2.3: 2^60 as 1152921504606847000).
func (w wants) bigIntCause() string {
	if w.bigInts != contract.BigIntsExact {
		return "an integer past 2^53 written in full (want its double's shortest digits)"
	}
	return "an integer past 2^53 rounded through a double"
}

// pairOrRaw is how the reference wrote an astral character, for "(want
// ...)": raw, or as a surrogate pair of \uXXXX escapes.
func pairOrRaw(f form) string {
	if f == formRaw {
		return "raw"
	}
	return `\uXXXX\uXXXX`
}
