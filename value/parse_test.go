package value_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

func TestParseValues(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, tc := range []struct {
		text string
		want any
	}{
		// literals and whitespace
		{`null`, nil},
		{` true `, true},
		{"\t\r\n false \n", false},
		{`NaN`, math.NaN()},
		{`Infinity`, math.Inf(1)},
		{`-Infinity`, math.Inf(-1)},
		{`[NaN,Infinity,-Infinity]`, []any{math.NaN(), math.Inf(1), math.Inf(-1)}},
		// integers
		{`0`, int64(0)},
		{`-0`, int64(0)},
		{`42`, int64(42)},
		{`-42`, int64(-42)},
		{`9007199254740993`, int64(9007199254740993)},
		{`9223372036854775807`, int64(math.MaxInt64)},
		{`-9223372036854775808`, int64(math.MinInt64)},
		{`9223372036854775808`, bigInt("9223372036854775808")},
		{`-9223372036854775809`, bigInt("-9223372036854775809")},
		{`18446744073709551616`, bigInt("18446744073709551616")},
		{`-1000000000000000000000000000000`, bigInt("-1000000000000000000000000000000")},
		{strings.Repeat("9", 5000), bigInt(strings.Repeat("9", 5000))},
		// floats
		{`1.0`, 1.0},
		{`-0.0`, negZero},
		{`0.0`, 0.0},
		{`-0e0`, negZero},
		{`1e3`, 1000.0},
		{`1E3`, 1000.0},
		{`1e+3`, 1000.0},
		{`1e-3`, 0.001},
		{`0.1`, 0.1},
		{`123.456e-2`, 1.23456},
		{`1e21`, 1e21},
		{`5e-324`, 5e-324},
		{`2e-324`, 0.0},
		{`3e-324`, 5e-324},
		{`1e-400`, 0.0},
		{`-1e-400`, negZero},
		{`1e400`, math.Inf(1)},
		{`-1e400`, math.Inf(-1)},
		{`1.7976931348623157e308`, math.MaxFloat64},
		{`1.7976931348623159e308`, math.Inf(1)},
		{`9007199254740993.0`, 9007199254740992.0},
		{`9007199254740995.0`, 9007199254740996.0},
		{`0.30000000000000004`, 0.30000000000000004},
		// strings
		{`""`, ""},
		{`"abc"`, "abc"},
		{`"\"\\\/\b\f\n\r\t"`, "\"\\/\b\f\n\r\t"},
		{`"\u0000\u001F\u007f"`, "\x00\x1f\x7f"},
		{`"\u00e9\u00E9é"`, "ééé"},
		{`"\u2028\uFFFF\ue000"`, "\u2028\uffff\ue000"},
		{`"\ud83d\ude00"`, "\U0001F600"},
		{`"\uD83D\uDE00"`, "\U0001F600"},
		{`"\udbff\udfff"`, "\U0010FFFF"},
		{`"😀"`, "\U0001F600"},
		{"\"\x7f\"", "\x7f"},
		{`"\ud800"`, "\xed\xa0\x80"},
		{`"\udc00"`, "\xed\xb0\x80"},
		{`"\udfff"`, "\xed\xbf\xbf"},
		{`"a\ud800b"`, "a\xed\xa0\x80b"},
		{`"\ude00\ud83d"`, "\xed\xb8\x80\xed\xa0\xbd"},
		{`"\ud83d\ud83d\ude00"`, "\xed\xa0\xbd\U0001F600"},
		{`"\ud83d\u0041"`, "\xed\xa0\xbdA"},
		{`"\ud83d\n"`, "\xed\xa0\xbd\n"},
		{`"\ud83d"`, "\xed\xa0\xbd"},
		{`"<>&'/"`, "<>&'/"},
		// containers
		{`[]`, []any{}},
		{`{}`, value.Object{}},
		{`[ ]`, []any{}},
		{`{ }`, value.Object{}},
		{`[[],{},[{}]]`, []any{[]any{}, value.Object{}, []any{value.Object{}}}},
		{` [ 1 , "a" , null ] `, []any{int64(1), "a", nil}},
		{`{"b":1,"a":2}`, value.Object{{Key: "b", Value: int64(1)}, {Key: "a", Value: int64(2)}}},
		{`{"a":1,"a":2,"a":1}`, value.Object{{Key: "a", Value: int64(1)}, {Key: "a", Value: int64(2)}, {Key: "a", Value: int64(1)}}},
		{`{"\ud800":1,"\ud800":2}`, value.Object{{Key: "\xed\xa0\x80", Value: int64(1)}, {Key: "\xed\xa0\x80", Value: int64(2)}}},
		{"{\n  \"tool_name\" : \"t\" ,\n  \"args\" : { \"__proto__\" : [ ] }\n}", value.Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: value.Object{{Key: "__proto__", Value: []any{}}}}}},
		{`{"":{"":{"":""}}}`, value.Object{{Key: "", Value: value.Object{{Key: "", Value: value.Object{{Key: "", Value: ""}}}}}}},
	} {
		got, err := value.Parse([]byte(tc.text))
		if err != nil {
			t.Errorf("value.Parse(%.60q): %v", tc.text, err)
			continue
		}
		if !value.Equal(got, tc.want) {
			t.Errorf("value.Parse(%.60q) = %#v, want %#v", tc.text, got, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		text              string
		line, col, offset int
		msg               string
	}{
		{"", 1, 1, 0, "unexpected end of input"},
		{"   ", 1, 4, 3, "unexpected end of input"},
		{`{"a" 1}`, 1, 6, 5, "invalid character '1' after an object key, expecting ':'"},
		{`{"a":1,}`, 1, 8, 7, "invalid character '}' in object, expecting a string key"},
		{`{1:2}`, 1, 2, 1, "invalid character '1' in object, expecting a string key"},
		{`{"a":1 "b":2}`, 1, 8, 7, "invalid character '\"' in object, expecting ',' or '}'"},
		{`[1,]`, 1, 4, 3, "invalid character ']' looking for the beginning of a value"},
		{`[1 2]`, 1, 4, 3, "invalid character '2' in array, expecting ',' or ']'"},
		{`[1}`, 1, 3, 2, "invalid character '}' in array, expecting ',' or ']'"},
		{`{"a":1]`, 1, 7, 6, "invalid character ']' in object, expecting ',' or '}'"},
		{"{\n  \"a\": 1,\n  \"b\": x\n}", 3, 8, 19, "invalid character 'x' looking for the beginning of a value"},
		{"[1,\r\n 2,\r\n x]", 3, 2, 11, "invalid character 'x' looking for the beginning of a value"},
		{`1 2`, 1, 3, 2, "invalid character '2' after the top-level value"},
		{`{"a":1}}`, 1, 8, 7, "invalid character '}' after the top-level value"},
		{`NaNx`, 1, 4, 3, "invalid character 'x' after the top-level value"},
		{`"é" x`, 1, 5, 5, "invalid character 'x' after the top-level value"},
		{`01`, 1, 1, 0, "invalid number: a leading zero"},
		{`-01`, 1, 2, 1, "invalid number: a leading zero"},
		{`-`, 1, 2, 1, "unexpected end of input in a number"},
		{`-a`, 1, 2, 1, "invalid character 'a' in a number, expecting a digit after '-'"},
		{`-Inf`, 1, 2, 1, "invalid character 'I' in a number, expecting a digit after '-'"},
		{`-NaN`, 1, 2, 1, "invalid character 'N' in a number, expecting a digit after '-'"},
		{`1.`, 1, 3, 2, "unexpected end of input in a number"},
		{`1.e5`, 1, 3, 2, "invalid character 'e' in a number, expecting a digit after the decimal point"},
		{`1e`, 1, 3, 2, "unexpected end of input in a number"},
		{`1e+`, 1, 4, 3, "unexpected end of input in a number"},
		{`[1e+x]`, 1, 5, 4, "invalid character 'x' in a number, expecting a digit in the exponent"},
		{`+1`, 1, 1, 0, "invalid character '+' looking for the beginning of a value"},
		{`.5`, 1, 1, 0, "invalid character '.' looking for the beginning of a value"},
		{`+Infinity`, 1, 1, 0, "invalid character '+' looking for the beginning of a value"},
		{`infinity`, 1, 1, 0, "invalid character 'i' looking for the beginning of a value"},
		{`nan`, 1, 1, 0, "invalid literal, expecting null"},
		{`tru`, 1, 1, 0, "invalid literal, expecting true"},
		{`[fals]`, 1, 2, 1, "invalid literal, expecting false"},
		{`Inf`, 1, 1, 0, "invalid literal, expecting Infinity"},
		{`"abc`, 1, 5, 4, "unexpected end of input in a string"},
		{`"a\`, 1, 4, 3, "unexpected end of input in a string"},
		{"\"a\nb\"", 1, 3, 2, "control character U+000A in a string (write it as an escape)"},
		{"\"\x00\"", 1, 2, 1, "control character U+0000 in a string (write it as an escape)"},
		{"\"\t\"", 1, 2, 1, "control character U+0009 in a string (write it as an escape)"},
		{`"\x41"`, 1, 3, 2, "invalid escape character 'x' in a string"},
		{`"\U0041"`, 1, 3, 2, "invalid escape character 'U' in a string"},
		{`"\'"`, 1, 3, 2, "invalid escape character '\\'' in a string"},
		{`"\u12"`, 1, 2, 1, "invalid \\u escape, expecting four hex digits"},
		{`"\u12g4"`, 1, 2, 1, "invalid \\u escape, expecting four hex digits"},
		{`"\u+123"`, 1, 2, 1, "invalid \\u escape, expecting four hex digits"},
		{`"\ud800\u12"`, 1, 8, 7, "invalid \\u escape, expecting four hex digits"},
		{"\"\xff\"", 1, 2, 1, "invalid UTF-8 byte 0xff"},
		{"\"ab\xed\xa0\x80\"", 1, 4, 3, "invalid UTF-8 byte 0xed"},
		{"\"\xc3\"", 1, 2, 1, "invalid UTF-8 byte 0xc3"},
		{"\xef\xbb\xbf{}", 1, 1, 0, "unexpected UTF-8 byte order mark"},
		{"\xff", 1, 1, 0, "invalid character byte 0xff looking for the beginning of a value"},
		{"\u00a01", 1, 1, 0, "invalid character '\\u00a0' looking for the beginning of a value"},
		{"\f1", 1, 1, 0, "invalid character '\\f' looking for the beginning of a value"},
		{`[`, 1, 2, 1, "unexpected end of input"},
		{`[1,2`, 1, 5, 4, "unexpected end of input"},
		{`{`, 1, 2, 1, "unexpected end of input"},
		{`{"a"`, 1, 5, 4, "unexpected end of input"},
		{`{"a":`, 1, 6, 5, "unexpected end of input"},
		{`{"a":1`, 1, 7, 6, "unexpected end of input"},
		{`{"a":1,`, 1, 8, 7, "unexpected end of input"},
		{strings.Repeat("[", 1001), 1, 1001, 1000, "nesting deeper than 1000 levels"},
		{strings.Repeat(`{"a":`, 1001), 1, 5001, 5000, "nesting deeper than 1000 levels"},
		{strings.Repeat("[", 100000), 1, 1001, 1000, "nesting deeper than 1000 levels"},
	} {
		_, err := value.Parse([]byte(tc.text))
		var se *value.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("value.Parse(%.40q): got %v, want a *SyntaxError", tc.text, err)
			continue
		}
		want := value.SyntaxError{Line: tc.line, Col: tc.col, Offset: tc.offset, Msg: tc.msg}
		if *se != want {
			t.Errorf("value.Parse(%.40q):\n got %+v\nwant %+v", tc.text, *se, want)
		}
	}
}

func TestSyntaxErrorText(t *testing.T) {
	_, err := value.Parse([]byte("{\n\"a\":1,\n  \"b\" x}"))
	if want := `line 3, column 7: invalid character 'x' after an object key, expecting ':'`; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

// TestParseDepth checks the reader's nesting limit on both sides, for arrays
// and objects, and that input far deeper fails cleanly (no recursion).
func TestParseDepth(t *testing.T) {
	for _, n := range []int{1, 512, 513, 999, 1000} {
		text := strings.Repeat("[", n) + strings.Repeat("]", n)
		v, err := value.Parse([]byte(text))
		if err != nil {
			t.Fatalf("depth %d: %v", n, err)
		}
		if !value.Equal(v, nestEmpty(n)) {
			t.Fatalf("depth %d: wrong value", n)
		}
		if got := string(value.AppendText(nil, v)); got != text {
			t.Fatalf("depth %d: text does not round-trip", n)
		}
		objText := strings.Repeat(`{"k":`, n-1) + "{}" + strings.Repeat("}", n-1)
		if _, err := value.Parse([]byte(objText)); err != nil {
			t.Fatalf("object depth %d: %v", n, err)
		}
	}
	// A 1000-deep value parses, and Check rejects it without trouble.
	v := mustParse(t, `{"tool_name":"t","args":{"a":`+strings.Repeat("[", 998)+strings.Repeat("]", 998)+`}}`)
	if err := value.CheckSigned(v); err == nil || err.Code != value.CodeTooDeep {
		t.Fatalf("got %v, want too_deep", err)
	}
	for _, text := range []string{
		strings.Repeat("[", 1001) + strings.Repeat("]", 1001),
		strings.Repeat("[", 1000) + "{}" + strings.Repeat("]", 1000),
		strings.Repeat("[1,", 2_000_000),
	} {
		if _, err := value.Parse([]byte(text)); err == nil || !strings.Contains(err.Error(), "nesting deeper than 1000") {
			t.Fatalf("got %v, want a nesting error", err)
		}
	}
}

func TestParseSizeLimit(t *testing.T) {
	text := make([]byte, value.MaxTextSize)
	for i := range text {
		text[i] = 'a'
	}
	text[0], text[len(text)-1] = '"', '"'
	v, err := value.Parse(text)
	if err != nil {
		t.Fatalf("exactly %d bytes: %v", value.MaxTextSize, err)
	}
	if s, _ := v.(string); len(s) != value.MaxTextSize-2 {
		t.Fatalf("got a string of %d bytes", len(s))
	}
	_, err = value.Parse(append(text, ' '))
	var se *value.SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || se.Col != 1 || !strings.Contains(se.Msg, "over the limit") {
		t.Fatalf("over the limit: got %v", err)
	}
}

// TestParseKeepsTypes checks that integers and floats stay distinct kinds.
func TestParseKeepsTypes(t *testing.T) {
	v := mustParse(t, `[1,1.0,-0,-0.0,1e0,100000000000000000000,1e20]`)
	want := []string{"int64", "float64", "int64", "float64", "float64", "*big.Int", "float64"}
	for i, el := range v.([]any) {
		if got := fmt.Sprintf("%T", el); got != want[i] {
			t.Errorf("element %d is %s, want %s", i, got, want[i])
		}
	}
}

// TestTextOutsideModel checks that what the text cannot express comes out
// unreadable rather than as a different value.
func TestTextOutsideModel(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{value.Object{{Key: "a", Value: struct{}{}}}, `{"a":<unsupported struct {}>}`},
		{value.RawObject{{Key: int64(1), Value: "x"}}, `{1:"x"}`},
		{"a\xffb", `"a\xffb"`},
		{nestEmpty(1002), strings.Repeat("[", 1000) + "<nested deeper than 1000 levels>" + strings.Repeat("]", 1000)},
	} {
		got := string(value.AppendText(nil, tc.v))
		if got != tc.want {
			t.Errorf("got %.100s, want %.100s", got, tc.want)
		}
		if _, err := value.Parse([]byte(got)); err == nil {
			t.Errorf("%.100s parses", got)
		}
	}
}

// Bin data is {"$bin":"<base64>"}, and reads back as bytes; an object of
// that one member spells its key with an escape and reads back as an
// object, so that no two values share a text.
func TestTextBin(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{[]byte("x"), `{"$bin":"eA=="}`},
		{[]byte{}, `{"$bin":""}`},
		{[]byte{0, 0xff, 0xfe}, `{"$bin":"AP/+"}`},
		{value.Object{{Key: "a", Value: []byte("hi")}}, `{"a":{"$bin":"aGk="}}`},
		{[]any{[]byte{1}, "$bin"}, `[{"$bin":"AQ=="},"$bin"]`},
		{value.Object{{Key: "$bin", Value: "eA=="}}, `{"\u0024bin":"eA=="}`},
		{value.Object{{Key: "$bin", Value: int64(1)}}, `{"\u0024bin":1}`},
		{value.Object{{Key: "$bin", Value: "eA=="}, {Key: "b", Value: int64(1)}}, `{"$bin":"eA==","b":1}`},
	} {
		got := string(value.AppendText(nil, tc.v))
		if got != tc.want {
			t.Errorf("AppendText(%#v) = %s, want %s", tc.v, got, tc.want)
		}
		back, err := value.Parse([]byte(got))
		if err != nil || !value.Equal(back, tc.v) {
			t.Errorf("Parse(%s) = %#v, %v, want %#v", got, back, err, tc.v)
		}
	}
}

// A {"$bin": ...} object whose value is not base64 is malformed, and says
// how to spell an object of that member.
func TestParseBinErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{`{"$bin":1}`, `line 1, column 10: bin data {"$bin": ...} wants a string of base64 (an object of that one member spells its key "\u0024bin")`},
		{`[{"$bin":"eA"}]`, `line 1, column 14: bin data {"$bin": ...}: illegal base64 data at input byte 0`},
		{`{"$bin":"e A=="}`, `illegal base64 data`},
	} {
		_, err := value.Parse([]byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s): %v, want %q", tc.text, err, tc.want)
		}
	}
}

func TestTextConveniences(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{map[string]any{"b": 1, "a": float32(1.5)}, `{"a":1.5,"b":1}`},
		{[]string{"x", "\n"}, `["x","\n"]`},
		{value.RawObject{{Key: "k", Value: uint64(math.MaxUint64)}}, `{"k":18446744073709551615}`},
		{[]any{int8(-1), uint8(2), int16(3), uint16(4), int32(5), uint32(6), 7, uint(8)}, `[-1,2,3,4,5,6,7,8]`},
	} {
		if got := string(value.AppendText(nil, tc.v)); got != tc.want {
			t.Errorf("got %s, want %s", got, tc.want)
		}
	}
}

func TestEqual(t *testing.T) {
	nan2 := math.Float64frombits(0x7ff8000000000001)
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{nil, nil, true},
		{nil, false, false},
		{true, true, true},
		{true, false, false},
		{int64(1), int64(1), true},
		{int64(1), 1.0, false},
		{int64(1), 1, true},
		{int64(1), uint8(1), true},
		{int64(5), bigInt("5"), true},
		{bigInt("18446744073709551616"), bigInt("18446744073709551616"), true},
		{bigInt("18446744073709551615"), uint64(math.MaxUint64), true},
		{bigInt("18446744073709551616"), int64(0), false},
		{int64(-1), uint64(math.MaxUint64), false},
		{math.NaN(), nan2, true},
		{0.0, math.Copysign(0, -1), false},
		{1.5, float32(1.5), true},
		{0.1, float32(0.1), false},
		{"a", "a", true},
		{"a", "b", false},
		{[]any{}, []any(nil), true},
		{[]any{"a"}, []string{"a"}, true},
		{[]any{int64(1)}, []any{int64(1), nil}, false},
		{value.Object{}, value.Object(nil), true},
		{value.Object{{Key: "a", Value: 1}, {Key: "b", Value: 2}}, value.Object{{Key: "b", Value: 2}, {Key: "a", Value: 1}}, false},
		{value.Object{{Key: "a", Value: 1}, {Key: "a", Value: 1}}, value.Object{{Key: "a", Value: 1}}, false},
		{value.Object{{Key: "a", Value: 1}}, value.RawObject{{Key: "a", Value: 1}}, true},
		{value.RawObject{{Key: int64(1), Value: 1}}, value.RawObject{{Key: int64(1), Value: 1}}, true},
		{value.RawObject{{Key: int64(1), Value: 1}}, value.RawObject{{Key: 1.0, Value: 1}}, false},
		{value.Object{{Key: "a", Value: []any{math.NaN()}}}, value.Object{{Key: "a", Value: []any{math.NaN()}}}, true},
		{map[string]any{"a": 1}, map[string]any{"a": int64(1)}, true},
		{map[string]any{"a": 1}, map[string]any{"b": 1}, false},
		{map[string]any{"a": 1}, value.Object{{Key: "a", Value: 1}}, false},
		{[]any{}, value.Object{}, false},
		{[]byte("x"), []byte("x"), true},
		{[]byte("x"), "x", false},
	} {
		if got := value.Equal(tc.a, tc.b); got != tc.want {
			t.Errorf("value.Equal(%#v, %#v) = %v", tc.a, tc.b, got)
		}
		if got := value.Equal(tc.b, tc.a); got != tc.want {
			t.Errorf("value.Equal(%#v, %#v) = %v (swapped)", tc.b, tc.a, got)
		}
	}
}

// TestEqualCyclic checks that a cyclic value ends value.Equal without a stack
// overflow.
func TestEqualCyclic(t *testing.T) {
	a := []any{nil}
	a[0] = a
	if value.Equal(a, a) {
		t.Fatal("a cyclic value compared equal")
	}
	if !value.Equal(nestEmpty(value.MaxTextDepth), nestEmpty(value.MaxTextDepth)) {
		t.Fatal("deep equal values compared unequal")
	}
}

func TestHasLoneSurrogate(t *testing.T) {
	for s, want := range map[string]bool{"": false, "abc": false, "\U0001F600": false, "\xed\xa0\x80": true, "a\xed\xbf\xbf": true, "\xff": false, "\xed\x9f\xbf": false} {
		if value.HasLoneSurrogate(s) != want {
			t.Errorf("value.HasLoneSurrogate(%q) != %v", s, want)
		}
	}
}
