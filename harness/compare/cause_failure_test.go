package compare

import (
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Each message, whatever input it quotes, normalizes to one cause: the
// messages of one row are what real parsers and encoders say of different
// inputs failing one way.
func TestNormalize(t *testing.T) {
	tests := []struct {
		name string
		msgs []string
		want string
	}{
		// Go
		{"a surrogate named by its escape, hex letters and all", []string{
			`Invalid high surrogate: \udcee`, `Invalid high surrogate: \ud83d`, `Invalid high surrogate: \uDBFF`,
		}, `Invalid high surrogate: \uXXXX`},
		{"encoding/json quoting the character", []string{
			`json: error calling MarshalJSON for type X: invalid character 'N' looking for beginning of value`,
			`json: error calling MarshalJSON for type X: invalid character '}' looking for beginning of value`,
			`json: error calling MarshalJSON for type X: invalid character '\'' looking for beginning of value`,
		}, `json: error calling MarshalJSON for type X: invalid character … looking for beginning of value`},
		{"an offset", []string{
			`invalid character '}' after object key:value pair at offset 17`,
			`invalid character 'x' after object key:value pair at offset 3`,
		}, `invalid character … after object key:value pair at offset N`},
		{"strconv", []string{
			`strconv.ParseFloat: parsing "1e999": value out of range`,
			`strconv.ParseFloat: parsing "-2e400": value out of range`,
		}, `strconv.ParseFloat: parsing …: value out of range`},
		{"whitespace keeps its word", []string{
			`invalid character ' ' after top-level value`,
			`invalid character '\n' after top-level value`,
			`invalid character '\t' after top-level value`,
		}, `invalid character whitespace after top-level value`},
		{"whitespace is not other garbage", []string{`invalid character 'x' after top-level value`}, `invalid character … after top-level value`},
		// Python
		{"an apostrophe is no quote", []string{
			`'utf-8' codec can't encode character '\udcee' in position 3: surrogates not allowed`,
			`'utf-8' codec can't encode character '\ud83d' in position 12: surrogates not allowed`,
			`'utf-8' codec can't encode characters in position 3-4: surrogates not allowed`,
		}, `… codec can't encode character … in position N: surrogates not allowed`},
		{"a codec's byte or bytes", []string{
			`'utf-8' codec can't decode byte 0xed in position 3: invalid continuation byte`,
			`'utf-8' codec can't decode bytes in position 0-1: invalid continuation byte`,
		}, `… codec can't decode byte … in position N: invalid continuation byte`},
		{"a number's shape", []string{`value 1.5e+300 is too large`, `value 7 is too large`, `value 0.25 is too large`}, `value N is too large`},
		{"which special float", []string{
			`Out of range float values are not JSON compliant: nan`,
			`Out of range float values are not JSON compliant: inf`,
			`Out of range float values are not JSON compliant: -inf`,
		}, `Out of range float values are not JSON compliant: NaN/Infinity`},
		{"a type name stays", []string{`Object of type bytes is not JSON serializable`}, `Object of type bytes is not JSON serializable`},
		{"one RecursionError", []string{
			`maximum recursion depth exceeded while calling a Python object`,
			`maximum recursion depth exceeded in comparison`,
			`RecursionError: maximum recursion depth exceeded while encoding a JSON object`,
		}, `RecursionError: maximum recursion depth exceeded`},
		{"a recursion limit that says its depth", []string{
			`RecursionError: maximum recursion depth exceeded at depth 1001`, `maximum recursion depth exceeded at depth 12`,
		}, `RecursionError: maximum recursion depth exceeded at depth N`},
		// V8
		{"V8 quoting the input", []string{
			`Unexpected token 'N', "{"a":NaN}" is not valid JSON`,
			`Unexpected token 'I', "[Infinity]" is not valid JSON`,
			`Unexpected token 'N', "NaN" is not valid JSON`,
			`Unexpected token 'N', ..."a":NaN,"b"... is not valid JSON`,
			`Unexpected token 'N', "{"a":NaN,"b"... is not valid JSON`,
			`Unexpected token 'N', ..."b":1,"a":NaN}" is not valid JSON`,
		}, `Unexpected token …, … is not valid JSON`},
		{"V8 before 10.9", []string{
			`Unexpected token N in JSON at position 5`,
			`Unexpected token I in JSON at position 1`,
			`Unexpected token } in JSON at position 12`,
		}, `Unexpected token … in JSON at position N`},
		{"V8 quoting a short input", []string{`"[NaN]" is not valid JSON`, `"{"a":1}x" is not valid JSON`}, `… is not valid JSON`},
		{"V8 after the text", []string{`Unexpected non-whitespace character after JSON at position 4`, `Unexpected non-whitespace character after JSON at position 40`},
			`Unexpected non-whitespace character after JSON at position N`},
		{"V8 control character", []string{`Bad control character in string literal in JSON at position 3`}, `Bad control character in string literal in JSON at position N`},
		// Rust
		{"serde_json's error keeps its own message", []string{
			"called `Result::unwrap()` on an `Err` value: Error(\"lone leading surrogate in hex escape\", line: 1, column: 9)",
			"called `Result::unwrap()` on an `Err` value: Error(\"lone leading surrogate in hex escape\", line: 3, column: 120)",
		}, "called `Result::unwrap()` on an `Err` value: Error(\"lone leading surrogate in hex escape\", line: N, column: N)"},
		{"serde_json's message quoting the input", []string{
			`Error("invalid type: string \"abc\", expected u32", line: 1, column: 5)`,
			`Error("invalid type: string \"x y\", expected u32", line: 1, column: 7)`,
		}, `Error("invalid type: string …, expected uN", line: N, column: N)`},
		{"a panic's place", []string{`thread 'main' panicked at src/lib.rs:41:9:`, `thread '<unnamed>' panicked at src/lib.rs:41:9:`},
			`thread … panicked at src/lib.rs:N:N:`},
		{"an open quote", []string{`bad input '{"a`, `bad input 'x`}, `bad input …`},
	}
	for _, tt := range tests {
		for _, m := range tt.msgs {
			if got := normalize(m); got != tt.want {
				t.Errorf("%s: normalize(%q) = %q, want %q", tt.name, m, got, tt.want)
			}
		}
	}
}

// A failure's cause keeps its type and message and drops what is particular
// to one input, and says whether the input was valid; a worker that says
// what failed and where is keyed by that alone.
func TestFailureCause(t *testing.T) {
	valid := Outcome{Canonical: []byte(`[1]`)}
	frames := []wire.Frame{
		{File: "sdk/canon.py", Function: "_escape", Line: 41},
		{File: "sdk/canon.py", Function: "canonicalize", Line: 88},
		{File: "/home/u/sdk/api.py", Function: "sign", Line: 12},
		{File: "worker.py", Function: "main", Line: 3},
	}
	tests := []struct {
		name string
		a, b Outcome
		want string
	}{
		{"recursion on valid input", valid, Outcome{Error: "internal", Detail: "RecursionError: maximum recursion depth exceeded while calling a Python object"},
			"RecursionError: maximum recursion depth exceeded"},
		{"a deliberate rejection", Outcome{Error: "too_deep"}, Outcome{Error: "internal", Detail: "ValueError: depth 1001 is more than 1000"},
			"ValueError: depth N is more than N"},
		{"quoted text", valid, Outcome{Error: "internal", Detail: "TypeError: keys must be str, not 'tuple'\nmore"},
			"TypeError: keys must be str, not …"},
		{"crash", valid, Outcome{Failure: FailCrash, Detail: "worker exited: exit status 101\nthread 'main' panicked at src/lib.rs:12:5\nattempt to subtract with overflow"},
			"worker exited: exit status N (attempt to subtract with overflow)"},
		{"a panic's message on the next line", valid, Outcome{Error: "internal", Detail: "thread 'main' panicked at src/lib.rs:41:9:\nattempt to subtract with overflow"},
			"thread … panicked at src/lib.rs:N:N: attempt to subtract with overflow"},
		{"which special float", valid, Outcome{Error: "internal", Detail: "json: unsupported value: -Inf"},
			"json: unsupported value: NaN/Infinity"},
		{"which special float, spelled out", valid, Outcome{Error: "internal", Detail: "Error: Infinity is not allowed"},
			"Error: NaN/Infinity is not allowed"},
		{"a message that quotes the input", valid, Outcome{Error: "internal", Detail: `SyntaxError: Unexpected token 'N', "{"args":{"a":NaN}}" is not valid JSON`},
			"SyntaxError: Unexpected token …, … is not valid JSON"},
		{"raw newline in a message", valid, Outcome{Error: "internal", Detail: "Error: bad\u007f char"},
			"Error: bad⟨U+007F⟩ char"},
		// Protocol 4: the type and the raise site, never the message, nor
		// the input's validity (the place tells a crash from a rejection).
		{"crash state", valid, Outcome{Error: "internal", Detail: "'utf-8' codec can't encode character '\\udcee'", ErrorType: "UnicodeEncodeError", Frames: frames},
			"UnicodeEncodeError in _escape (canon.py)"},
		{"crash state, out of domain", Outcome{Error: "lone_surrogate"}, Outcome{Error: "internal", Detail: "other words", ErrorType: "UnicodeEncodeError", Frames: frames},
			"UnicodeEncodeError in _escape (canon.py)"},
		{"a type alone", valid, Outcome{Error: "internal", Detail: "x", ErrorType: "*json.UnsupportedValueError"},
			"*json.UnsupportedValueError"},
		{"frames alone, a host entry point, a Go import path", valid, Outcome{Error: "internal", Frames: []wire.Frame{
			{Function: "JSON.parse"}, {File: `C:\src\sdk\canon.go`, Function: "example.com/sdk/canon.(*enc).escape", Line: 9}, {File: "api.go", Function: "sign"}}},
			"an error in JSON.parse < canon.(*enc).escape (canon.go)"},
		{"an anonymous place: a Rust panic's Location", valid, Outcome{Error: "internal", ErrorType: "panic", Frames: []wire.Frame{{File: "src/lib.rs", Line: 41}}},
			"panic in lib.rs:41"},
		{"the reference failed", Outcome{Error: "internal", ErrorType: "panic", Frames: frames[:1]}, valid,
			"answers where the reference failed: panic in _escape (canon.py)"},
	}
	for _, tt := range tests {
		if got := failureCause(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The crash state is keyed by type and raise site alone: another message,
// other line numbers, other callers (a recursion one level deeper, an
// anonymous callback, the top-level call) and the input's validity are the
// same cause, as a real library's one throw reached four ways showed.
func TestCrashStateIgnoresMessageAndCallers(t *testing.T) {
	throw := func(callers ...wire.Frame) Outcome {
		return Outcome{Error: "internal", ErrorType: "Error", Frames: append([]wire.Frame{{File: "canonicalize.js", Function: "canonicalize", Line: 12}}, callers...)}
	}
	valid, invalid := Outcome{Canonical: []byte(`1`)}, Outcome{Error: "lone_surrogate"}
	want := "Error in canonicalize (canonicalize.js)"
	for _, tc := range []struct {
		ref Outcome
		b   Outcome
	}{
		{valid, throw(wire.Frame{File: "canonicalize.js", Function: "canonicalize", Line: 30}, wire.Frame{File: "canonicalize.js", Function: "canonicalize", Line: 30})},
		{valid, throw(wire.Frame{File: "canonicalize.js", Line: 22}, wire.Frame{Function: "Array.map"})},
		{invalid, throw(wire.Frame{File: "canonicalize.js", Line: 22}, wire.Frame{File: "worker.js", Function: "serve.name", Line: 3})},
		{invalid, throw()},
	} {
		if got := failureCause(tc.ref, tc.b); got != want {
			t.Errorf("%+v: %q, want %q", tc.b.Frames, got, want)
		}
	}
}

func TestCrashStateIgnoresMessageAndLines(t *testing.T) {
	f := func(line int, msg string, extra string) Outcome {
		return Outcome{Error: "internal", Detail: msg, ErrorType: "UnicodeEncodeError", Frames: []wire.Frame{
			{File: "a/canon.py", Function: "_escape", Line: line}, {File: "a/canon.py", Function: "canonicalize", Line: line + 1},
			{File: "a/api.py", Function: "sign", Line: line + 2}, {File: "a/x.py", Function: extra, Line: 1}}}
	}
	valid := Outcome{Canonical: []byte(`1`)}
	one := failureCause(valid, f(41, "can't encode '\\udcee'", "main"))
	if two := failureCause(valid, f(97, "something else", "other")); two != one {
		t.Errorf("%q and %q: one cause expected", one, two)
	}
}

// A cause never passes MaxCause bytes: a long crash state or message
// is cut with "…".
func TestCauseFits(t *testing.T) {
	long := strings.Repeat("verylongfunctionname", 8)
	b := Outcome{Error: "internal", ErrorType: "SomeError", Frames: []wire.Frame{{File: "x.py", Function: long}, {File: "y.py", Function: long}}}
	got := failureCause(Outcome{Canonical: []byte(`1`)}, b)
	if len(got) > MaxCause || !strings.HasSuffix(got, "…") {
		t.Errorf("%d bytes: %q", len(got), got)
	}
	msg := failureCause(Outcome{Canonical: []byte(`1`)}, Outcome{Error: "internal", Detail: strings.Repeat("é word ", 40)})
	if len(msg) > MaxCause || !strings.HasSuffix(msg, "…") {
		t.Errorf("%d bytes: %q", len(msg), msg)
	}
	for in, want := range map[string]string{
		"a; b # c\nd":         "a, b #c⟨U+000A⟩d",
		"; # ":                ", #",
		"ends with; and more": "ends with, and more",
	} {
		if c := FitCause(in); c != want {
			t.Errorf("FitCause(%q) = %q, want %q", in, c, want)
		}
	}
}

// A worker's internal error keeps its type and frames on the way to the
// comparison; a spec error code drops them, as the protocol says.
func TestOutcomeOf(t *testing.T) {
	frames := []wire.Frame{{File: "canon.py", Function: "_escape", Line: 4}}
	in := OutcomeOf(wire.Result{Error: wire.ErrorInternal, Message: "m", ErrorType: "ValueError", Frames: frames})
	if in.ErrorType != "ValueError" || len(in.Frames) != 1 || in.Detail != "m" {
		t.Errorf("internal: %+v", in)
	}
	if code := OutcomeOf(wire.Result{Error: "too_deep", ErrorType: "ValueError", Frames: frames}); code.ErrorType != "" || code.Frames != nil {
		t.Errorf("spec code: %+v", code)
	}
	if got := failureCause(Outcome{Canonical: []byte(`1`)}, in); got != "ValueError in _escape (canon.py)" {
		t.Errorf("cause: %q", got)
	}
	if ok := OutcomeOf(wire.Result{Canonical: []byte(`1`), Digest: []byte{1}}); string(ok.Canonical) != "1" || ok.Error != "" {
		t.Errorf("output: %+v", ok)
	}
	if x := OutcomeOf(wire.Result{Inexpressible: "bin", Message: "m"}); !x.Absent() {
		t.Errorf("inexpressible: %+v", x)
	}
}
