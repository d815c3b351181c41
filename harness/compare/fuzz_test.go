package compare

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Cause reads a deviant's text, which may be anything: it must name every
// difference without panicking, in a cause a signature can hold.
func FuzzCause(f *testing.F) {
	for _, seed := range [][2]string{
		{`{"a":[1,"\u0001"]}`, "{\"a\":[1,\"\x01\"]}"},
		{`[-Infinity]`, `[-Inf]`},
		{`[0.123456789]`, `[1.23457e+999999]`},
		{`{"A":1,"__proto__":2}`, `{"A":1}`},
		{`["\ud83d\ude00"]`, `["\ud83d\u`},
		{`"\\x"`, `"\x`},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		off := FirstDiff([]byte(a), []byte(b))
		if off < 0 {
			return
		}
		kind, cause := Cause([]byte(a), []byte(b), off)
		if kind == "" || !validCause(cause) {
			t.Errorf("Cause(%q, %q) = %s: %q", a, b, kind, cause)
		}
	})
}

// normalize takes any message to a cause a signature can hold.
func FuzzNormalize(f *testing.F) {
	for _, seed := range []string{
		`'utf-8' codec can't encode character '\udcee' in position 3: surrogates not allowed`,
		`Unexpected token 'N', ..."a":NaN,"b"... is not valid JSON`,
		`Error("invalid type: string \"abc\", expected u32", line: 1, column: 5)`,
		`a 'b "c' d" e`, `'''`, `"{"`, `Error("`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		if c := normalize(msg); !validCause(c) && c != "" {
			t.Errorf("normalize(%q) = %q", msg, c)
		}
	})
}

// validCause reports whether c fits a signature: visible UTF-8 on one
// line, at most MaxCause bytes, without a separator.
func validCause(c string) bool {
	return c != "" && len(c) <= MaxCause && utf8.ValidString(c) && !strings.ContainsAny(c, "\n\r") &&
		!strings.Contains(c, signatureSep) && !strings.Contains(c, " # ") && Visible(c) == c
}
