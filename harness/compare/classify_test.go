package compare

import (
	"fmt"
	"strings"
	"testing"
)

// TestCause covers every root cause the survey of other libraries and the
// SDKs tried so far show (docs/survey.md, docs/triage.md): each names what
// was written, not where, and a key that is spelled otherwise is an escaping
// difference, never an ordering one.
func TestCause(t *testing.T) {
	tests := []struct {
		name  string
		a, b  string // the reference's text, the other's
		kind  Kind
		cause string
	}{
		// Keys spelled otherwise: the same code points, the same causes as in values.
		{"raw line separator key", `{"\u2028":0}`, "{\"\u2028\":0}", KindString, `non-ASCII written raw (want \uXXXX)`},
		{"raw NUL", `["\u0000"]`, "[\"\x00\"]", KindString, `a control character written raw (want \uXXXX)`},
		{"raw BMP key", `{"args":{"\u00e9":1},"tool_name":"t"}`, `{"args":{"é":1},"tool_name":"t"}`, KindString, `non-ASCII written raw (want \uXXXX)`},
		{"raw astral key", `{"\ud83d\ude00":1}`, `{"😀":1}`, KindString, `non-ASCII written raw (want \uXXXX)`},
		{"raw astral key after a raw one", `{"é\ud83d\ude00":1}`, `{"é😀":1}`, KindString, `non-ASCII written raw (want \uXXXX)`},
		{"raw DEL key", `{"\u007f":1}`, "{\"\x7f\":1}", KindString, `U+007F written raw (want \u007f)`},
		{"upper-case hex key", `{"\u00e9":1}`, `{"\u00E9":1}`, KindString, `\uXXXX written in upper case (want lower case)`},
		// Upper-case hex is one bug whatever the character's class
		// (ts-handrolled's minimized strings); a short escape written as
		// \uXXXX in upper case is the short escape's rule first.
		{"upper-case hex, non-ASCII", `{"args":{"":"\u350c"},"tool_name":""}`, `{"args":{"":"\u350C"},"tool_name":""}`, KindString, `\uXXXX written in upper case (want lower case)`},
		{"upper-case hex, a control character", `{"args":{"":"\u001f"},"tool_name":""}`, `{"args":{"":"\u001F"},"tool_name":""}`, KindString, `\uXXXX written in upper case (want lower case)`},
		{"upper-case hex, an astral character", `["\ud83d\ude00"]`, `["\uD83D\uDE00"]`, KindString, `\uXXXX written in upper case (want lower case)`},
		{"upper-case hex for a short escape", `{"args":{"\n":0},"tool_name":""}`, `{"args":{"\u000A":0},"tool_name":""}`, KindString, `a control character with a short escape written as \uXXXX (want its short escape)`},
		{"escaped solidus key", `{"a/b":1}`, `{"a\/b":1}`, KindString, "a `/` written as a short escape (want raw)"},
		{"short escape key", `{"\n":1}`, `{"\u000a":1}`, KindString, `a control character with a short escape written as \uXXXX (want its short escape)`},
		{"html escape key", `{"<":1}`, `{"\u003c":1}`, KindString, `printable ASCII written as \uXXXX (want raw)`},
		{"raw surrogate (WTF-8) key", `{"\ud800":1}`, "{\"\xed\xa0\x80\":1}", KindString, `a lone surrogate written raw (want \uXXXX)`},
		{"unescaped quote in a key", `{"a\"b":1}`, `{"a"b":1}`, KindKeyEscape, "a `\"` in a key left unescaped"},
		{"unescaped backslash in a key", `{"a\\n":1}`, `{"a\n":1}`, KindKeyEscape, "a `\\` in a key left unescaped"},
		// A key written raw, backslashes and all: its backslashes pair up
		// with what follows them, but it is the one bug whatever follows
		// (go-17g's and py-handrolled's minimized keys, triagebench).
		{"raw backslashes read as one escaped", `{"args":{"\\\\a":0},"tool_name":""}`, `{"args":{"\\a":0},"tool_name":""}`, KindKeyEscape, "a `\\` in a key left unescaped"},
		{"raw backslashes then a newline", `{"args":{"\\\\a\n":0},"tool_name":""}`, "{\"args\":{\"\\\\a\n\":0},\"tool_name\":\"\"}", KindKeyEscape, "a `\\` in a key left unescaped"},
		{"raw backslashes at the key's end", `{"args":{"\\\\":0},"tool_name":""}`, `{"args":{"\\":0},"tool_name":""}`, KindKeyEscape, "a `\\` in a key left unescaped"},
		// A long key: its length bounds no reading (a minimized example
		// of 257 characters once kept the unit-by-unit cause).
		{"raw backslashes in a long key", `{"args":{"` + strings.Repeat("a", 300) + `\\\\a\"a":0},"tool_name":""}`,
			`{"args":{"` + strings.Repeat("a", 300) + `\\a"a":0},"tool_name":""}`, KindKeyEscape, "a `\\` in a key left unescaped"},
		{"raw backslashes then a control character", `{"args":{"\\\\\u0017":0},"tool_name":""}`, "{\"args\":{\"\\\\\x17\":0},\"tool_name\":\"\"}", KindKeyEscape, "a `\\` in a key left unescaped"},
		{"raw backslashes then a backspace", `{"args":{"\\\\\b":0},"tool_name":""}`, "{\"args\":{\"\\\\\b\":0},\"tool_name\":\"\"}", KindKeyEscape, "a `\\` in a key left unescaped"},
		{"raw backslashes then a raw quote", `{"args":{"\\\\a\"":0},"tool_name":""}`, `{"args":{"\\a"":0},"tool_name":""}`, KindKeyEscape, "a `\\` in a key left unescaped"},
		{"raw backslashes in a value", `["\\\\a"]`, `["\\a"]`, KindString, "a `\\` left unescaped"},
		{"a raw control character before a raw backslash", `{"\u0017\\\\":0}`, "{\"\x17\\\\\":0}", KindString, `a control character written raw (want \uXXXX)`},
		{"backslashes escaped, a control character raw", `{"\\\\\u0017":0}`, "{\"\\\\\\\\\x17\":0}", KindString, `a control character written raw (want \uXXXX)`},
		{"a backslash dropped is no raw one", `{"\\a":0}`, `{"a":0}`, KindString, "a `\\` dropped"},
		// An astral character escaped as \u and its code point: JSON reads
		// the first four digits, which name a character of any class, but
		// the spelling is the one bug (rust-unwrap's minimized strings).
		{"code point escape read as non-ASCII", `{"args":{"":"\ud91f\udfba"},"tool_name":""}`, `{"args":{"":"\u57fba"},"tool_name":""}`, KindString, `an astral character written as \u and its code point (want \uXXXX\uXXXX)`},
		{"code point escape read as a lone surrogate", `{"args":{"":"\udb36\udc69"},"tool_name":""}`, `{"args":{"":"\udd869"},"tool_name":""}`, KindString, `an astral character written as \u and its code point (want \uXXXX\uXXXX)`},
		{"code point escape read as U+2029 in a key", `{"args":{"\ud840\ude95":0},"tool_name":""}`, `{"args":{"\u20295":0},"tool_name":""}`, KindString, `an astral character written as \u and its code point (want \uXXXX\uXXXX)`},
		{"code point escape read as U+2028", `{"args":{"":"\ud840\ude8e"},"tool_name":""}`, `{"args":{"":"\u2028e"},"tool_name":""}`, KindString, `an astral character written as \u and its code point (want \uXXXX\uXXXX)`},
		{"code point escape read as U+FFFD", `{"args":{"\udbbf\udfdf":0},"tool_name":""}`, `{"args":{"\ufffdf":0},"tool_name":""}`, KindString, `an astral character written as \u and its code point (want \uXXXX\uXXXX)`},
		{"six-digit code point escape, hex digits after", `["\udbff\udfffa"]`, `["\u10ffffa"]`, KindString, `an astral character written as \u and its code point (want \uXXXX\uXXXX)`},
		{"a pair is not its high half", `{"\ud83d\ude00":1}`, `{"\ud83d":1}`, KindString, "an astral character written as a lone surrogate"},
		{"invalid byte is no code point", `{"\u00e9":1}`, "{\"\xe9\":1}", KindString, "non-ASCII written as a byte that is not UTF-8"},
		{"lone surrogate replaced", `{"\ud800":1}`, `{"\ufffd":1}`, KindString, "a lone surrogate written as U+FFFD"},
		{"a key cut short", `{"ab":1}`, `{"a":1}`, KindString, "a string cut short at printable ASCII"},
		// Keys that are other keys: the members come in another order.
		{"UTF-16 order, raw", `{"\uff61":1,"\ud83d\ude00":2}`, `{"😀":2,"｡":1}`, KindKeyOrder, "keys in UTF-16 order"},
		{"UTF-16 order, escaped", `{"\uff61":1,"\ud83d\ude00":2}`, `{"\ud83d\ude00":2,"\uff61":1}`, KindKeyOrder, "keys in UTF-16 order"},
		{"prefix key", `{"a":1,"ab":2,"b":3}`, `{"b":3,"ab":2,"a":1}`, KindKeyOrder, "keys in reverse order"},
		{"integer-like keys", `{"10":1,"2":2,"a":3}`, `{"2":2,"10":1,"a":3}`, KindKeyOrder, "integer-like keys first (JavaScript property order)"},
		{"shuffled", `{"a":1,"b":2,"c":3}`, `{"b":2,"a":1,"c":3}`, KindKeyOrder, "keys out of order"},
		// Keys sorted by their escaped text (serde_jcs's minimized objects):
		// one bug, whichever order the pair or triple shows by chance.
		{"escaped order, not out of order", `{"args":{"":0,"\f":0,"0":0},"tool_name":""}`, `{"args":{"":0,"0":0,"\f":0},"tool_name":""}`, KindKeyOrder, "keys sorted by their escaped text"},
		{"escaped order, not JavaScript's", `{"args":{"\b":0,"0":0},"tool_name":""}`, `{"args":{"0":0,"\b":0},"tool_name":""}`, KindKeyOrder, "keys sorted by their escaped text"},
		{"escaped order, not reversed", `{"args":{"\n":0,"D":0},"tool_name":""}`, `{"args":{"D":0,"\n":0},"tool_name":""}`, KindKeyOrder, "keys sorted by their escaped text"},
		{"escaped order of a quote", `{"\"":0,"A":0}`, `{"A":0,"\"":0}`, KindKeyOrder, "keys sorted by their escaped text"},
		{"__proto__ dropped", `{"__proto__":1,"a":2}`, `{"a":2}`, KindStructure, "a member `__proto__` dropped"},
		{"a member more", `{"a":"x"}`, `{"a":"x","b":2}`, KindStructure, "a member added"},
		// Values.
		{"raw BMP value", `{"s":"\u00e9"}`, `{"s":"é"}`, KindString, `non-ASCII written raw (want \uXXXX)`},
		{"html escape value", `{"s":"<"}`, `{"s":"\u003c"}`, KindString, `printable ASCII written as \uXXXX (want raw)`},
		{"raw DEL value", `{"s":"\u007f"}`, "{\"s\":\"\x7f\"}", KindString, `U+007F written raw (want \u007f)`},
		{"raw control value", `["\u0001"]`, "[\"\x01\"]", KindString, `a control character written raw (want \uXXXX)`},
		{"unescaped quote in a value", `["a\"b"]`, `["a"b"]`, KindString, "a `\"` left unescaped"},
		{"cut at NUL", `["a\u0000b"]`, `["a"]`, KindString, "a string cut short at U+0000"},
		{"lone surrogate replaced in a value", `["\ud800"]`, `["\ufffd"]`, KindString, "a lone surrogate written as U+FFFD"},
		// Numbers.
		{"exponent padding", `[1e-7]`, `[1e-07]`, KindNumber, "an exponent spelled otherwise (with leading zeros)"},
		{"exponent without plus", `[1e+21]`, `[1e21]`, KindNumber, "an exponent spelled otherwise (without its +)"},
		{"1e21 in full", `[1e+21]`, `[1000000000000000000000]`, KindNumber, "a number of 1e21 or more printed in full (want exponent form)"},
		{"1e-7 in full", `[1e-7]`, `[0.0000001]`, KindNumber, "a number below 1e-6 printed in full (want exponent form)"},
		{"python repr", `[10000000000000000]`, `[1e+16]`, KindNumber, "an integer past 2^53 written in exponent form"},
		{"negative zero", `[0]`, `[-0]`, KindNumber, "-0 written with its sign (want 0)"},
		{"float zero", `[1]`, `[1.0]`, KindNumber, "an integer written as a decimal"},
		{"NaN as null", `{"x":NaN}`, `{"x":null}`, KindNumber, "a non-finite number written as null"},
		{"Infinity as null", `[Infinity]`, `[null]`, KindNumber, "a non-finite number written as null"},
		{"2^53+1 rounded to 2^53", `[9007199254740993]`, `[9007199254740992]`, KindNumber, "an integer past 2^53 rounded through a double"},
		{"big integer rounded", `[18446744073709551616]`, `[18446744073709552000]`, KindNumber, "an integer past 2^53 rounded through a double"},
		{"another double", `[0.3]`, `[0.30000000000000004]`, KindNumber, "a number written with another value"},
		{"number as string", `[1]`, `["1"]`, KindNumber, "an integer written as a string"},
		// Structure.
		{"other literal", `[true]`, `[null]`, KindStructure, "null where want a boolean"},
		{"whitespace", `[1,2]`, `[1, 2]`, KindStructure, "whitespace where want a number"},
		{"an element more", `{"a":[[]]}`, `{"a":[[],2]}`, KindStructure, "a `,` where want the array's end"},
	}
	for _, tt := range tests {
		off := FirstDiff([]byte(tt.a), []byte(tt.b))
		if off < 0 {
			t.Fatalf("%s: the texts are equal", tt.name)
		}
		kind, cause := Cause([]byte(tt.a), []byte(tt.b), off)
		if kind != tt.kind || cause != tt.cause {
			t.Errorf("%s: Cause(%s, %s) = %s: %q, want %s: %q", tt.name, tt.a, tt.b, kind, cause, tt.kind, tt.cause)
		}
	}
}

// Each label describes what the implementation named did, proven on the
// small case a minimized example is: one value, the reference's text
// against a deviant's. Rows of one group must give one cause, whatever
// value or place the case holds.
func TestCauseSmallCases(t *testing.T) {
	tests := []struct {
		group string
		a, b  string // the reference's text, the deviant's
		kind  Kind
		cause string
	}{
		// A control character escaped wrongly: one cause in a key and in a
		// value, U+0000 among the other C0 controls.
		{"control, wrong escape", `{"\u0001":1}`, `{"\x01":1}`, KindString, `a control character written as an escape JSON lacks (want \uXXXX)`},
		{"control, wrong escape", `["\u0001"]`, `["\x01"]`, KindString, `a control character written as an escape JSON lacks (want \uXXXX)`},
		{"control, wrong escape", `["\u0000"]`, `["\0"]`, KindString, `a control character written as an escape JSON lacks (want \uXXXX)`},
		{"control, wrong escape", `{"\u0000":1}`, `{"\x00":1}`, KindString, `a control character written as an escape JSON lacks (want \uXXXX)`},
		{"control, wrong escape", `{"\u001f":1}`, `{"\v":1}`, KindString, `a control character written as an escape JSON lacks (want \uXXXX)`},
		{"control, decimal digits", `{"\u0001":1}`, `{"\u0031":1}`, KindString, "a control character written as printable ASCII"},
		{"control, decimal digits", `["\u0001"]`, `["\u0031"]`, KindString, "a control character written as printable ASCII"},
		{"control, decimal digits", `["\u0000"]`, `["\u0030"]`, KindString, "a control character written as printable ASCII"},
		{"one non-ASCII character for another", `["\u00e9"]`, `["\u00e8"]`, KindString, "a character replaced by another (non-ASCII)"},
		{"one letter for another", `["a"]`, `["b"]`, KindString, "a character replaced by another (printable ASCII)"},
		{"control, raw", "[\"\\u0000\"]", "[\"\x00\"]", KindString, `a control character written raw (want \uXXXX)`},
		{"control, raw", "{\"\\u001f\":1}", "{\"\x1f\":1}", KindString, `a control character written raw (want \uXXXX)`},
		{"printable, wrong escape", `["'"]`, `["\'"]`, KindString, `printable ASCII written as an escape JSON lacks (want raw)`},
		// A raw control byte added is an addition, not a character changed.
		{"control added", `["ab"]`, "[\"a\x01b\"]", KindString, "a control character added"},
		{"control added", `{"ab":1}`, "{\"a\x01b\":1}", KindString, "a control character added"},
		{"character dropped", `["a\u00e9b"]`, `["ab"]`, KindString, "non-ASCII dropped"},
		// Float formats: one cause per bug, whatever the number.
		{"%g", `[0.123456789]`, `[0.123457]`, KindNumber, "a number rounded to fewer digits"},
		{"%g", `[123.456789]`, `[123.457]`, KindNumber, "a number rounded to fewer digits"},
		{"%g", `[1234567.5]`, `[1.23457e+06]`, KindNumber, "a number rounded to fewer digits"},
		{"%g", `[1.2345678e-7]`, `[1.23457e-07]`, KindNumber, "a number rounded to fewer digits"},
		{"8 decimals", `[0.123456789]`, `[0.12345679]`, KindNumber, "a number rounded to fewer digits"},
		{"8 decimals", `[0.123456781]`, `[0.12345678]`, KindNumber, "a number rounded to fewer digits"},
		{"8 decimals", `[1e-9]`, `[0.00000000]`, KindNumber, "a number rounded to fewer digits"},
		{"8 decimals", `[1e-9]`, `[0]`, KindNumber, "a number rounded to fewer digits"},
		{"8 decimals", `{"x":2.0000000049}`, `{"x":2.00000000}`, KindNumber, "a number rounded to fewer digits"},
		{"float32", `[0.1]`, `[0.10000000149011612]`, KindNumber, "a number rounded through a 32-bit float"},
		{"non-finite as null", `[NaN]`, `[null]`, KindNumber, "a non-finite number written as null"},
		{"non-finite as null", `{"a":Infinity}`, `{"a":null}`, KindNumber, "a non-finite number written as null"},
		{"non-finite as null", `[-Infinity]`, `[null]`, KindNumber, "a non-finite number written as null"},
		// -Infinity spelled otherwise is never an integer.
		{"non-finite spelled otherwise", `[-Infinity]`, `[-Inf]`, KindNumber, "a non-finite number written as a number JSON lacks"},
		{"non-finite spelled otherwise", `[Infinity]`, `[+Inf]`, KindNumber, "a non-finite number written as a number JSON lacks"},
		{"non-finite spelled otherwise", `[NaN]`, `[nan]`, KindNumber, "a non-finite number written as a number JSON lacks"},
		{"non-finite as a string", `[-Infinity]`, `["-Infinity"]`, KindNumber, "a non-finite number written as a string"},
		// -0 against 0, either way, is never "other digits".
		{"-0 with its sign", `[0]`, `[-0]`, KindNumber, "-0 written with its sign (want 0)"},
		{"-0 with its sign", `{"x":0}`, `{"x":-0.0}`, KindNumber, "-0 written with its sign (want 0)"},
		{"-0 without its sign", `[-0]`, `[0]`, KindNumber, "-0 written without its sign (want -0)"},
		// A tie: digits as short that round-trip are not "not the shortest".
		{"tie", `[0.15651925473279124]`, `[0.15651925473279123]`, KindNumber, "other digits as short that round-trip (a tie broken otherwise)"},
		{"tie", `[5e-324]`, `[4e-324]`, KindNumber, "other digits as short that round-trip (a tie broken otherwise)"},
		{"longer", `[0.5]`, `[0.50000000]`, KindNumber, "not the shortest digits that round-trip"},
		{"longer", `[1e-7]`, `[1.0e-7]`, KindNumber, "not the shortest digits that round-trip"},
		// A dropped __proto__ is a member dropped, whatever value comes before.
		{"__proto__ dropped", `{"A":1,"__proto__":2}`, `{"A":1}`, KindStructure, "a member `__proto__` dropped"},
		{"__proto__ dropped", `{"A":"x","__proto__":2}`, `{"A":"x"}`, KindStructure, "a member `__proto__` dropped"},
		{"__proto__ dropped", `{"__proto__":{"a":1},"b":2}`, `{"b":2}`, KindStructure, "a member `__proto__` dropped"},
		{"__proto__ dropped", `{"__proto__":1}`, `{}`, KindStructure, "a member `__proto__` dropped"},
		// Whitespace around a top-level scalar keeps its word.
		{"whitespace after", `1`, `1 `, KindStructure, "whitespace where want the end of the text"},
		{"whitespace after", `"x"`, `"x" `, KindStructure, "whitespace where want the end of the text"},
		{"whitespace before", `1`, ` 1`, KindStructure, "whitespace where want a number"},
		// A raw control byte before a number is not the number written so.
		{"control byte before a number", `[1,2]`, "[1,\x012]", KindStructure, "the byte 0x01 where want a number"},
		{"a number cut off", `[12]`, `[1]`, KindNumber, "an integer with other digits"},
		{"a number written as null", `[12]`, `[null]`, KindNumber, "an integer written as null"},
	}
	names := []string{"ref", "x"}
	for _, tt := range tests {
		want := Signature{Kind: tt.kind, Cause: tt.cause, Deviants: []string{"x"}}
		got := SignatureOf(names, []Outcome{out(tt.a), out(tt.b)})
		if len(got) != 1 || !got[0].Equal(want) {
			t.Errorf("%s: %s against %s: %v, want %v", tt.group, tt.a, tt.b, got, want)
		}
	}
}

// A deviant's number with an exponent past any double's is judged at once:
// no exact arithmetic on 10^999999999.
func TestCauseHugeExponent(t *testing.T) {
	kind, cause := Cause([]byte(`[1.5]`), []byte(`[1e999999999]`), 1)
	if kind != KindNumber || cause != "a number written with another value" {
		t.Errorf("%s: %q", kind, cause)
	}
}

// One escaping bug is one cause for every control character without a
// short escape, U+0000 among them, in a key as in a value.
func TestControlCharacterIsOneCause(t *testing.T) {
	wrong := map[string]func(c int) string{
		"raw":        func(c int) string { return string(rune(c)) },
		"\\x":        func(c int) string { return fmt.Sprintf(`\x%02x`, c) },
		"upper case": func(c int) string { return fmt.Sprintf(`\u00%02X`, c) },
	}
	for name, spell := range wrong {
		causes := map[string][]int{}
		for c := 0; c < 0x20; c++ {
			if strings.ContainsRune("\b\f\n\r\t", rune(c)) {
				continue
			}
			want := fmt.Sprintf(`\u%04x`, c)
			for _, tmpl := range []string{`["%s"]`, `{"%s":1}`, `{"a":{"b%s":[]}}`} {
				a, b := []byte(fmt.Sprintf(tmpl, want)), []byte(fmt.Sprintf(tmpl, spell(c)))
				if string(a) == string(b) {
					continue // \u0001 has no letter to write in upper case
				}
				kind, cause := Cause(a, b, FirstDiff(a, b))
				causes[string(kind)+": "+cause] = append(causes[string(kind)+": "+cause], c)
			}
		}
		if len(causes) != 1 {
			t.Errorf("%s: %d causes, want one: %v", name, len(causes), causes)
		}
	}
}

// A long run of backslashes written raw has on the order of n² readings:
// the reading stops at maxAligned units, so the cause of a case seen while
// fuzzing is answered at once (unbounded, this takes minutes).
func TestLeftRawIsBounded(t *testing.T) {
	n := 20 * maxAligned
	a := []byte(`{"` + strings.Repeat(`\\`, n) + `":0}`)
	b := []byte(`{"` + strings.Repeat(`\`, n) + `":0}`)
	kind, cause := Cause(a, b, FirstDiff(a, b))
	if kind != KindString {
		t.Errorf("%s: %s, want the unit-by-unit cause past the bound", kind, cause)
	}
}
