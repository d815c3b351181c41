package compare

import (
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/kits/go/wire"
	model "github.com/difffuzz/difffuzz/value"
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
// to one input, and says what the reference made of the input; a worker
// that says what failed and where is keyed by that and the reference's
// verdict alone.
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
			"RecursionError: maximum recursion depth exceeded on valid input"},
		{"a deliberate rejection", Outcome{Error: "too_deep"}, Outcome{Error: "internal", Detail: "ValueError: depth 1001 is more than 1000"},
			"ValueError: depth N is more than N on nesting too deep"},
		{"quoted text", valid, Outcome{Error: "internal", Detail: "TypeError: keys must be str, not 'tuple'\nmore"},
			"TypeError: keys must be str, not … on valid input"},
		{"crash", valid, Outcome{Failure: FailCrash, Detail: "worker exited: exit status 101\nthread 'main' panicked at src/lib.rs:12:5\nattempt to subtract with overflow"},
			"worker exited: exit status N (attempt to subtract with overflow) on valid input"},
		{"a panic's message on the next line", valid, Outcome{Error: "internal", Detail: "thread 'main' panicked at src/lib.rs:41:9:\nattempt to subtract with overflow"},
			"thread … panicked at src/lib.rs:N:N: attempt to subtract with overflow on valid input"},
		{"which special float", valid, Outcome{Error: "internal", Detail: "json: unsupported value: -Inf"},
			"json: unsupported value: NaN/Infinity on valid input"},
		{"which special float, spelled out", valid, Outcome{Error: "internal", Detail: "Error: Infinity is not allowed"},
			"Error: NaN/Infinity is not allowed on valid input"},
		{"a message that quotes the input", valid, Outcome{Error: "internal", Detail: `SyntaxError: Unexpected token 'N', "{"args":{"a":NaN}}" is not valid JSON`},
			"SyntaxError: Unexpected token …, … is not valid JSON on valid input"},
		{"raw newline in a message", valid, Outcome{Error: "internal", Detail: "Error: bad\u007f char"},
			"Error: bad⟨U+007F⟩ char on valid input"},
		// Protocol 4: the type and the raise site, never the message; and
		// what the reference made of the case, its trigger.
		{"crash state", valid, Outcome{Error: "internal", Detail: "'utf-8' codec can't encode character '\\udcee'", ErrorType: "UnicodeEncodeError", Frames: frames},
			"UnicodeEncodeError in _escape (canon.py) on valid input"},
		{"crash state, out of domain", Outcome{Error: "lone_surrogate"}, Outcome{Error: "internal", Detail: "other words", ErrorType: "UnicodeEncodeError", Frames: frames},
			"UnicodeEncodeError in _escape (canon.py) on a lone surrogate"},
		{"a type alone", valid, Outcome{Error: "internal", Detail: "x", ErrorType: "*json.UnsupportedValueError"},
			"*json.UnsupportedValueError: x on valid input"},
		{"frames alone, a host entry point, a Go import path", valid, Outcome{Error: "internal", Frames: []wire.Frame{
			{Function: "JSON.parse"}, {File: `C:\src\sdk\canon.go`, Function: "example.com/sdk/canon.(*enc).escape", Line: 9}, {File: "api.go", Function: "sign"}}},
			"an error in JSON.parse < canon.(*enc).escape (canon.go) on valid input"},
		{"an anonymous place: a Rust panic's Location", valid, Outcome{Error: "internal", ErrorType: "panic", Frames: []wire.Frame{{File: "src/lib.rs", Line: 41}}},
			"panic in lib.rs:41 on valid input"},
		{"the reference failed", Outcome{Error: "internal", ErrorType: "panic", Frames: frames[:1]}, valid,
			"answers where the reference failed: panic in _escape (canon.py)"},
	}
	for _, tt := range tests {
		if got := failureCause(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The crash state is keyed by type and raise site and the reference's
// verdict: another message, other line numbers and other callers (a
// recursion one level deeper, an anonymous callback, the top-level call)
// are the same cause, as a real library's one throw reached four ways
// showed; what the reference made of the input is its trigger.
func TestCrashStateIgnoresMessageAndCallers(t *testing.T) {
	throw := func(callers ...wire.Frame) Outcome {
		return Outcome{Error: "internal", ErrorType: "Error", Frames: append([]wire.Frame{{File: "canonicalize.js", Function: "canonicalize", Line: 12}}, callers...)}
	}
	valid, invalid := Outcome{Canonical: []byte(`1`)}, Outcome{Error: "lone_surrogate"}
	const place = "Error in canonicalize (canonicalize.js)"
	for _, tc := range []struct {
		ref  Outcome
		b    Outcome
		want string
	}{
		{valid, throw(wire.Frame{File: "canonicalize.js", Function: "canonicalize", Line: 30}, wire.Frame{File: "canonicalize.js", Function: "canonicalize", Line: 30}), place + " on valid input"},
		{valid, throw(wire.Frame{File: "canonicalize.js", Line: 22}, wire.Frame{Function: "Array.map"}), place + " on valid input"},
		{invalid, throw(wire.Frame{File: "canonicalize.js", Line: 22}, wire.Frame{File: "worker.js", Function: "serve.name", Line: 3}), place + " on a lone surrogate"},
		{invalid, throw(), place + " on a lone surrogate"},
	} {
		if got := failureCause(tc.ref, tc.b); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.b.Frames, got, tc.want)
		}
	}
}

// One raise site that serves two causes is two buckets, told apart by the
// reference's verdict: Python's json.dumps raises one TypeError at one
// place for bytes (unsupported_value) and for keys of mixed types
// (non_string_key); a serde_json::Error, a type without a place, holds
// NaN, lone surrogates and the recursion limit on valid input.
func TestOnePlaceTwoCauses(t *testing.T) {
	dumps := Outcome{Error: "internal", ErrorType: "TypeError", Frames: []wire.Frame{{Function: "json.dumps"}, {File: "canon.py", Function: "canonical", Line: 9}}}
	bytes := failureCause(Outcome{Error: "unsupported_value"}, dumps)
	keys := failureCause(Outcome{Error: "non_string_key"}, dumps)
	if bytes == keys {
		t.Errorf("one cause %q for two reference verdicts", bytes)
	}
	if want := "TypeError in json.dumps < canonical (canon.py) on an unsupported value"; bytes != want {
		t.Errorf("bytes: %q, want %q", bytes, want)
	}
	serde := func(msg string) Outcome {
		return Outcome{Error: "internal", ErrorType: "serde_json::error::Error", Detail: msg}
	}
	causes := map[string]bool{}
	for _, tc := range []struct {
		ref Outcome
		msg string
	}{
		{Outcome{Error: "unsupported_value"}, "expected value at line 1 column 7"},
		{Outcome{Error: "lone_surrogate"}, "lone leading surrogate in hex escape at line 1 column 9"},
		{Outcome{Canonical: []byte(`1`)}, "recursion limit exceeded at line 1 column 129"},
		{Outcome{Canonical: []byte(`1`)}, "number out of range at line 1 column 30"},
	} {
		causes[failureCause(tc.ref, serde(tc.msg))] = true
	}
	if len(causes) != 4 {
		t.Errorf("%d causes, want 4: %v", len(causes), causes)
	}
}

// A Go error without a type that names its input bare (a JCS library's
// "Duplicate key: KEY") is one cause whatever the key, once the lane has
// masked the input's strings (WithTemplate); words of the message that an
// input string happens to hold inside a longer word stay.
func TestTemplateMasksTheInput(t *testing.T) {
	valid := Outcome{Canonical: []byte(`1`)}
	fail := func(msg string, input any) Outcome {
		return Outcome{Error: "internal", Detail: msg}.WithTemplate(input)
	}
	obj := func(keys ...string) model.Object {
		var o model.Object
		for _, k := range keys {
			o = append(o, model.Member{Key: k, Value: []any{"port", int64(1)}})
		}
		return o
	}
	want := "Duplicate key: … on a duplicate key"
	ref := Outcome{Error: "duplicate_key"}
	for _, tc := range []struct {
		msg   string
		input any
	}{
		{"Duplicate key: ab c", obj("ab c", "ab c")},
		{"Duplicate key: é", obj("é", "é")},
		{"Duplicate key: key two", obj("x", "key two", "key two")},
		{"Duplicate key: a", []any{obj("a", "a")}},
		{"Duplicate key: 144", obj("144", "144")},
		{"Duplicate key:  ", obj(" ", " ")},
		{"Duplicate key: -7", obj("-7", "-7")},
		{"Duplicate key: __proto__", obj("__proto__", "__proto__")},
		{"Duplicate key: key", obj("key", "key")}, // its own word "key" stays
		{"Duplicate key: a", obj("key", "Duplicate", "a", "a")},
		{"Duplicate key: Duplicate key", obj("Duplicate key", "Duplicate key")},
		{"Duplicate key: ", obj("", "")},
	} {
		if got := failureCause(ref, fail(tc.msg, tc.input)); got != want {
			t.Errorf("%q: %q, want %q", tc.msg, got, want)
		}
	}
	for _, tc := range []struct {
		msg, key, want string
	}{
		{"unsupported value at port8", "port8", "unsupported value at … on valid input"},
		{"bad key x_9 in object", "x_9", "bad key … in object on valid input"},
		// Letters alone are the message's own words but after a colon.
		{"invalid character 'N' looking for beginning of value", "value", "invalid character … looking for beginning of value on valid input"},
		{"unsupported value at port", "port", "unsupported value at port on valid input"},
		// A number is normalize's, whether the input holds it or not.
		{"invalid character at offset 144", "144", "invalid character at offset N on valid input"},
		// A decoder names a lone surrogate of its input as U+FFFD.
		{"Duplicate key: a\uFFFDb", "a\xed\xb3\xaeb", "Duplicate key: … on valid input"},
		// A special float is normalize's, though the input holds its name.
		{"json: unsupported value: NaN", "NaN", "json: unsupported value: NaN/Infinity on valid input"},
		{"json: unsupported value: -Inf", "Inf", "json: unsupported value: NaN/Infinity on valid input"},
	} {
		if got := failureCause(valid, fail(tc.msg, obj(tc.key))); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.msg, got, tc.want)
		}
	}
	if got := failureCause(valid, fail("unsupported value", obj("port", "a"))); got != "unsupported value on valid input" {
		t.Errorf("inside a longer word, or short and not last: %q", got)
	}
	if got := failureCause(valid, fail("thread 'main' panicked at src/lib.rs:41:9:\nattempt to subtract with overflow", obj(""))); got != "thread … panicked at src/lib.rs:N:N: attempt to subtract with overflow on valid input" {
		t.Errorf("a bare colon names no empty string: %q", got)
	}
	if got := (Outcome{Error: "internal", Detail: "x", Frames: []wire.Frame{{Function: "f"}}}).WithTemplate(obj("x")); got.Template != "" {
		t.Errorf("a failure with a place needs no template: %+v", got)
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
	if len(got) > MaxCause || !strings.HasSuffix(got, "… on valid input") {
		t.Errorf("%d bytes: %q", len(got), got)
	}
	msg := failureCause(Outcome{Canonical: []byte(`1`)}, Outcome{Error: "internal", Detail: strings.Repeat("é word ", 40)})
	if len(msg) > MaxCause || !strings.HasSuffix(msg, "… on valid input") {
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
	if got := failureCause(Outcome{Canonical: []byte(`1`)}, in); got != "ValueError in _escape (canon.py) on valid input" {
		t.Errorf("cause: %q", got)
	}
	if ok := OutcomeOf(wire.Result{Canonical: []byte(`1`), Digest: []byte{1}}); string(ok.Canonical) != "1" || ok.Error != "" {
		t.Errorf("output: %+v", ok)
	}
	if x := OutcomeOf(wire.Result{Inexpressible: "bin", Message: "m"}); !x.Absent() {
		t.Errorf("inexpressible: %+v", x)
	}
}

// Every error code of the spec names its trigger in words, so that a new
// code does not fall back to "on input rejected with CODE" unseen; a bad
// envelope is valid input.
func TestEveryCodeHasATrigger(t *testing.T) {
	for _, code := range model.Codes {
		if got := trigger(Outcome{Error: string(code)}); !strings.HasPrefix(got, " on ") || strings.Contains(got, string(code)) {
			t.Errorf("%s: trigger %q", code, got)
		}
	}
	// The envelope is no trigger: the content inside it is valid.
	if got := trigger(Outcome{Error: string(model.CodeBadEnvelope)}); got != " on valid input" {
		t.Errorf("a bad envelope: trigger %q", got)
	}
	if got := trigger(Outcome{Error: "internal"}); got != "" {
		t.Errorf("the reference failed too: trigger %q", got)
	}
}
