package value_test

import (
	"math/big"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

// nestEmpty is n nested arrays, the innermost empty.
func nestEmpty(n int) any {
	var v any = []any{}
	for range n - 1 {
		v = []any{v}
	}
	return v
}

func bigInt(s string) *big.Int {
	b, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("bad big int " + s)
	}
	return b
}

func mustParse(t testing.TB, text string) any {
	t.Helper()
	v, err := value.Parse([]byte(text))
	if err != nil {
		t.Fatalf("Parse(%.80q): %v", text, err)
	}
	return v
}
