package canonjson

import (
	"errors"
	"math/big"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/value"
)

// env wraps args in the signed envelope with tool name "t".
func env(args any) Object {
	return Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: args}}
}

// nest returns n nested arrays around inner (n = 0 returns inner itself).
func nest(n int, inner any) any {
	v := inner
	for range n {
		v = []any{v}
	}
	return v
}

// nestEmpty returns a value of depth n: n nested arrays, the innermost empty.
func nestEmpty(n int) any {
	return nest(n-1, []any{})
}

func bigInt(s string) *big.Int {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("bad big int " + s)
	}
	return n
}

func mustParse(t testing.TB, text string) any {
	t.Helper()
	v, err := value.Parse([]byte(text))
	if err != nil {
		t.Fatalf("value.Parse(%.80q): %v", text, err)
	}
	return v
}

// codeOf returns the spec code of an error from this package, "" for nil.
func codeOf(t testing.TB, err error) Code {
	t.Helper()
	if err == nil {
		return ""
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is %T, want *canonjson.Error", err, err)
	}
	if !strings.HasPrefix(err.Error(), "canonjson: "+string(e.Code)+": ") {
		t.Errorf("error text %q does not start with its code", err.Error())
	}
	return e.Code
}

// firstDiff describes where got and want first differ, for failure messages.
func firstDiff(got, want string) string {
	return "first difference at " + diffAt(got, want)
}

// window is s's bytes lo to hi, cut to its length: a failure shows the
// implementation's output at a byte offset, which need not be UTF-8 (so
// not internal/clip's cut, which keeps characters whole).
func window(s string, lo, hi int) string {
	return s[min(lo, len(s)):min(hi, len(s))]
}

func itoa(i int) string {
	return big.NewInt(int64(i)).String()
}

// appendWTF8 appends a code point, writing surrogates in their 3-byte
// generalized UTF-8 form instead of U+FFFD.
func appendWTF8(dst []byte, r rune) []byte {
	if utf16.IsSurrogate(r) {
		return append(dst, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	}
	return utf8.AppendRune(dst, r)
}
