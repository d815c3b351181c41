package canonjson

import (
	"math"
	"strings"
	"testing"

	"lukechampine.com/blake3"
)

// sharedValues are the value-level shared test vectors of /tmp/common.md:
// every language asserts the same canonical strings for them.
var sharedValues = []struct {
	name string
	v    any
	want string
}{
	// floats, specials
	{"NaN", math.NaN(), "NaN"},
	{"NaN payload", math.Float64frombits(0x7ff8000000000123), "NaN"},
	{"negative NaN", math.Float64frombits(0xfff8000000000000), "NaN"},
	{"+Infinity", math.Inf(1), "Infinity"},
	{"-Infinity", math.Inf(-1), "-Infinity"},
	{"-0.0", math.Copysign(0, -1), "0"},
	{"+0.0", 0.0, "0"},
	// floats, layout
	{"5e-324", 5e-324, "5e-324"},
	{"1e21", 1e21, "1e+21"},
	{"1e-7", 1e-7, "1e-7"},
	{"1e-6", 1e-6, "0.000001"},
	{"9.99e-7", 9.99e-7, "9.99e-7"},
	{"9007199254740993.0", 9007199254740993.0, "9007199254740992"},
	{"9007199254740991.0", 9007199254740991.0, "9007199254740991"},
	{"-9007199254740991.0", -9007199254740991.0, "-9007199254740991"},
	{"max double", 1.7976931348623157e308, "1.7976931348623157e+308"},
	{"0.1", 0.1, "0.1"},
	{"1.5", 1.5, "1.5"},
	{"123.456", 123.456, "123.456"},
	{"1e20", 1e20, "100000000000000000000"},
	{"1.0", 1.0, "1"},
	{"123.0", 123.0, "123"},
	{"1.5e300", 1.5e300, "1.5e+300"},
	{"-1.5", -1.5, "-1.5"},
	{"-1e-7", -1e-7, "-1e-7"},
	{"-1e21", -1e21, "-1e+21"},
	{"1.2345e-5", 1.2345e-5, "0.000012345"},
	{"123456789012345680000", 123456789012345680000.0, "123456789012345680000"},
	{"float32 0.1 widened", float32(0.1), "0.10000000149011612"},
	// integers
	{"0", int64(0), "0"},
	{"-1", int64(-1), "-1"},
	{"2^53-1", int64(1<<53 - 1), "9007199254740991"},
	{"2^53", int64(1 << 53), "9007199254740992"},
	{"2^53+1", int64(1<<53 + 1), "9007199254740993"},
	{"-(2^53-1)", int64(-(1<<53 - 1)), "-9007199254740991"},
	{"-2^53", int64(-(1 << 53)), "-9007199254740992"},
	{"-(2^53+1)", int64(-(1<<53 + 1)), "-9007199254740993"},
	{"int64 max", int64(math.MaxInt64), "9223372036854775807"},
	{"int64 min", int64(math.MinInt64), "-9223372036854775808"},
	{"2^63", bigInt("9223372036854775808"), "9223372036854775808"},
	{"-2^63 as big", bigInt("-9223372036854775808"), "-9223372036854775808"},
	{"-2^63-1", bigInt("-9223372036854775809"), "-9223372036854775809"},
	{"2^64", bigInt("18446744073709551616"), "18446744073709551616"},
	{"-2^64", bigInt("-18446744073709551616"), "-18446744073709551616"},
	{"10^30", bigInt("1000000000000000000000000000000"), "1000000000000000000000000000000"},
	{"-10^30", bigInt("-1000000000000000000000000000000"), "-1000000000000000000000000000000"},
	{"10^21 integer", bigInt("1000000000000000000000"), "1000000000000000000000"},
	{"small big.Int", bigInt("5"), "5"},
	{"int", 42, "42"},
	{"int8", int8(-8), "-8"},
	{"int16", int16(-16), "-16"},
	{"int32", int32(-32), "-32"},
	{"uint", uint(7), "7"},
	{"uint8", uint8(255), "255"},
	{"uint16", uint16(65535), "65535"},
	{"uint32", uint32(math.MaxUint32), "4294967295"},
	{"uint64 max", uint64(math.MaxUint64), "18446744073709551615"},
	// scalars
	{"null", nil, "null"},
	{"true", true, "true"},
	{"false", false, "false"},
	// containers
	{"empty array", []any{}, "[]"},
	{"nil array", []any(nil), "[]"},
	{"empty object", Object{}, "{}"},
	{"empty map", map[string]any{}, "{}"},
	{"empty RawObject", RawObject{}, "{}"},
	{"empty []string", []string{}, "[]"},
	{"array", []any{int64(1), "a", nil, true, 1.0, []any{}, Object{}}, `[1,"a",null,true,1,[],{}]`},
	{"[]string", []string{"b", "a"}, `["b","a"]`},
	{"map sorted", map[string]any{"b": int64(1), "a": []any{}}, `{"a":[],"b":1}`},
	{"RawObject sorted", RawObject{{Key: "b", Value: int64(1)}, {Key: "a", Value: int64(2)}}, `{"a":2,"b":1}`},
	{"nested objects sorted", Object{{Key: "z", Value: Object{{Key: "y", Value: 1}, {Key: "x", Value: 2}}}, {Key: "a", Value: nil}}, `{"a":null,"z":{"x":2,"y":1}}`},
	{"depth 50", nestEmpty(50), strings.Repeat("[", 50) + strings.Repeat("]", 50)},
	{"depth 512", nestEmpty(512), strings.Repeat("[", 512) + strings.Repeat("]", 512)},
	// strings
	{"empty string", "", `""`},
	{"quote and backslash", `"\`, `"\"\\"`},
	{"short escapes", "\b\f\n\r\t", `"\b\f\n\r\t"`},
	{"NUL", "\x00", `"\u0000"`},
	{"U+0001", "\x01", `"\u0001"`},
	{"U+000B", "\x0b", `"\u000b"`},
	{"U+001F", "\x1f", `"\u001f"`},
	{"DEL", "\x7f", `"\u007f"`},
	{"U+0080", "\u0080", `"\u0080"`},
	{"e acute", "é", `"\u00e9"`},
	{"U+2028", "\u2028", `"\u2028"`},
	{"U+2029", "\u2029", `"\u2029"`},
	{"BOM", "\ufeff", `"\ufeff"`},
	{"U+FFFD", "\ufffd", `"\ufffd"`},
	{"U+FFFF", "\uffff", `"\uffff"`},
	{"U+E000", "\ue000", `"\ue000"`},
	{"U+10000", "\U00010000", `"\ud800\udc00"`},
	{"U+1F600", "\U0001F600", `"\ud83d\ude00"`},
	{"U+10FFFF", "\U0010FFFF", `"\udbff\udfff"`},
	{"slash and html", "a/b<>&'", `"a/b<>&'"`},
	{"printable ASCII", " !#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~", `" !#$%&'()*+,-./09:;<=>?@AZ[]^_` + "`" + `az{|}~"`},
	{"mixed", "a\"b\nc\u00e9d\U0001F600e", `"a\"b\nc\u00e9d\ud83d\ude00e"`},
	{"100000 chars", strings.Repeat("x", 100000), `"` + strings.Repeat("x", 100000) + `"`},
	{"100000 non-ASCII chars", strings.Repeat("é", 100000), `"` + strings.Repeat(`\u00e9`, 100000) + `"`},
	// keys
	{"special keys", Object{{Key: "__proto__", Value: 1}, {Key: "constructor", Value: 2}, {Key: "1", Value: 3}, {Key: "01", Value: 4}, {Key: "", Value: 5}},
		`{"":5,"01":4,"1":3,"__proto__":1,"constructor":2}`},
	{"code point order", Object{{Key: "\U0001F600", Value: 2}, {Key: "\uff61", Value: 1}}, `{"\uff61":1,"\ud83d\ude00":2}`},
	{"prefix first", Object{{Key: "b", Value: 1}, {Key: "ab", Value: 2}, {Key: "a", Value: 3}, {Key: "", Value: 4}}, `{"":4,"a":3,"ab":2,"b":1}`},
	{"digit keys", Object{{Key: "2", Value: 1}, {Key: "10", Value: 2}, {Key: "1", Value: 3}}, `{"1":3,"10":2,"2":1}`},
	{"escaped keys", Object{{Key: "\n", Value: 1}, {Key: "é", Value: 2}, {Key: "\"", Value: 3}}, `{"\n":1,"\"":3,"\u00e9":2}`},
	{"U+E000 vs astral", Object{{Key: "\U00010000", Value: 1}, {Key: "\ue000", Value: 2}, {Key: "\uffff", Value: 3}}, `{"\ue000":2,"\uffff":3,"\ud800\udc00":1}`},
	{"many keys", manyKeys(40), manyKeysWant(40)},
}

func manyKeys(n int) Object {
	o := Object{}
	for i := n - 1; i >= 0; i-- {
		o = append(o, Member{Key: "k" + itoa(1000+i), Value: int64(i)})
	}
	return o
}

func manyKeysWant(n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + itoa(1000+i) + `":` + itoa(i))
	}
	b.WriteByte('}')
	return b.String()
}

func TestCanonicalValueSharedVectors(t *testing.T) {
	for _, tc := range sharedValues {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CanonicalValue(tc.v)
			if err != nil {
				t.Fatalf("CanonicalValue: %v", err)
			}
			if string(got) != tc.want {
				t.Fatalf("got %.200s\nwant %.200s\n%s", got, tc.want, firstDiff(string(got), tc.want))
			}
			if strings.HasPrefix(tc.name, "depth 512") {
				return // too deep to fit in the envelope
			}
			// The same value as an argument of the signed envelope.
			got, err = Canonical(env(Object{{Key: "v", Value: tc.v}}))
			want := `{"args":{"v":` + tc.want + `},"tool_name":"t"}`
			if err != nil || string(got) != want {
				t.Fatalf("in envelope: got %.200s, %v\n%s", got, err, firstDiff(string(got), want))
			}
		})
	}
}

// TestEnvelopeDepth checks the depth limit on whole signed values: the
// envelope and args are levels 1 and 2, so an argument of n nested arrays
// makes depth n+2.
func TestEnvelopeDepth(t *testing.T) {
	for _, tc := range []struct {
		depth int
		code  Code
	}{{50, ""}, {511, ""}, {512, ""}, {513, CodeTooDeep}, {514, CodeTooDeep}, {1000, CodeTooDeep}} {
		v := env(Object{{Key: "a", Value: nestEmpty(tc.depth - 2)}})
		got, err := Canonical(v)
		if c := codeOf(t, err); c != tc.code {
			t.Errorf("depth %d: got code %q, want %q", tc.depth, c, tc.code)
			continue
		}
		if tc.code == "" {
			inner := strings.Repeat("[", tc.depth-2) + strings.Repeat("]", tc.depth-2)
			if want := `{"args":{"a":` + inner + `},"tool_name":"t"}`; string(got) != want {
				t.Errorf("depth %d: %s", tc.depth, firstDiff(string(got), want))
			}
		}
	}
}

func TestCanonicalValueDepth(t *testing.T) {
	deepObj := func(n int) any { // n nested objects {"a":{"a":...{}}}
		var v any = Object{}
		for range n - 1 {
			v = Object{{Key: "a", Value: v}}
		}
		return v
	}
	deepMixed := func(n int) any { // arrays and maps alternating, innermost []string
		var v any = []string{"x"}
		for i := range n - 1 {
			if i%2 == 0 {
				v = map[string]any{"m": v}
			} else {
				v = RawObject{{Key: "r", Value: v}}
			}
		}
		return v
	}
	for _, tc := range []struct {
		name string
		v    any
		code Code
	}{
		{"arrays 512", nestEmpty(512), ""},
		{"arrays 513", nestEmpty(513), CodeTooDeep},
		{"arrays 1000", nestEmpty(1000), CodeTooDeep},
		{"arrays 100000", nestEmpty(100000), CodeTooDeep},
		{"objects 512", deepObj(512), ""},
		{"objects 513", deepObj(513), CodeTooDeep},
		{"mixed 512", deepMixed(512), ""},
		{"mixed 513", deepMixed(513), CodeTooDeep},
		{"scalar below level 512", nest(512, int64(1)), ""},
	} {
		_, err := CanonicalValue(tc.v)
		if c := codeOf(t, err); c != tc.code {
			t.Errorf("%s: got %q, want %q (%v)", tc.name, c, tc.code, err)
		}
	}
}

// TestCyclicValue checks that a Go value with a cycle is rejected as too
// deep rather than overflowing the stack.
func TestCyclicValue(t *testing.T) {
	a := []any{nil}
	a[0] = a
	if _, err := CanonicalValue(a); codeOf(t, err) != CodeTooDeep {
		t.Fatalf("got %v, want too_deep", err)
	}
	if _, err := Canonical(env(Object{{Key: "a", Value: a}})); codeOf(t, err) != CodeTooDeep {
		t.Fatalf("got %v, want too_deep", err)
	}
}

// TestErrors covers every error code and the precedence examples of spec
// section 3, plus cases where input order and sorted order find different
// errors first.
func TestErrors(t *testing.T) {
	lone := "\xed\xa0\x80"    // U+D800 in WTF-8
	loneLow := "\xed\xb0\x80" // U+DC00
	deep := strings.Repeat("[", 511) + strings.Repeat("]", 511)
	for _, tc := range []struct {
		name string
		text string // extended JSON input, or
		v    any    // a Go value when text is ""
		code Code
	}{
		// The examples table of spec section 3, row by row.
		{name: "spec: duplicate", text: `{"tool_name":"t","args":{"a":1,"a":2}}`, code: CodeDuplicateKey},
		{name: "spec: lone tool_name", text: `{"tool_name":"\ud800","args":{}}`, code: CodeLoneSurrogate},
		{name: "spec: duplicate before its value", text: `{"tool_name":"t","args":{"a":1,"a":"\udc00"}}`, code: CodeDuplicateKey},
		{name: "spec: key check before duplicate", text: `{"args":{"\udc00":1,"\udc00":2},"tool_name":"t"}`, code: CodeLoneSurrogate},
		{name: "spec: args array", text: `{"tool_name":"t","args":[]}`, code: CodeBadEnvelope},
		{name: "spec: tool_name int", text: `{"tool_name":1,"args":{}}`, code: CodeBadEnvelope},
		{name: "spec: extra member", text: `{"tool_name":"t","args":{},"x":null}`, code: CodeBadEnvelope},
		{name: "spec: 513 levels", text: strings.Repeat("[", 513) + strings.Repeat("]", 513), code: CodeTooDeep},
		{name: "spec: walk before envelope", text: `{"tool_name":"t","args":{"a":1,"a":1},"x":0}`, code: CodeDuplicateKey},
		// More precedence.
		{name: "value before later duplicate", text: `{"tool_name":"t","args":{"a":"\udc00","a":1}}`, code: CodeLoneSurrogate},
		{name: "input order, not sorted order", text: `{"tool_name":"t","args":{"b":{"x":1,"x":2},"a":"\ud800"}}`, code: CodeDuplicateKey},
		{name: "input order, not sorted order 2", text: `{"tool_name":"t","args":{"b":"\ud800","a":{"x":1,"x":2}}}`, code: CodeLoneSurrogate},
		{name: "too deep before later duplicate", text: `{"tool_name":"t","args":{"a":` + deep + `,"a":1}}`, code: CodeTooDeep},
		{name: "duplicate before later too deep", text: `{"tool_name":"t","args":{"a":1,"a":` + deep + `}}`, code: CodeDuplicateKey},
		{name: "too deep before envelope", text: `[[` + deep + `],1]`, code: CodeTooDeep},
		{name: "lone surrogate in array", text: `{"tool_name":"t","args":{"a":[1,"\udfff"]}}`, code: CodeLoneSurrogate},
		{name: "lone high then low reversed", text: `{"tool_name":"t","args":{"a":"\ude00\ud83d"}}`, code: CodeLoneSurrogate},
		{name: "pair is fine", text: `{"tool_name":"t","args":{"a":"\ud83d\ude00"}}`, code: ""},
		{name: "third duplicate", text: `{"tool_name":"t","args":{"a":1,"b":2,"a":3,"b":4}}`, code: CodeDuplicateKey},
		{name: "many keys, late duplicate", v: env(append(manyKeys(40), Member{Key: "k1005", Value: nil})), code: CodeDuplicateKey},
		{name: "many keys, duplicate after lone", v: env(append(manyKeys(40), Member{Key: lone, Value: nil}, Member{Key: "k1005", Value: nil})), code: CodeLoneSurrogate},
		{name: "duplicate tool_name", text: `{"tool_name":"t","tool_name":"t","args":{}}`, code: CodeDuplicateKey},
		// Envelope.
		{name: "envelope ok, args first", text: `{"args":{},"tool_name":"t"}`, code: ""},
		{name: "top-level array", text: `[]`, code: CodeBadEnvelope},
		{name: "top-level string", text: `"t"`, code: CodeBadEnvelope},
		{name: "top-level null", text: `null`, code: CodeBadEnvelope},
		{name: "top-level int", text: `1`, code: CodeBadEnvelope},
		{name: "empty object", text: `{}`, code: CodeBadEnvelope},
		{name: "only tool_name", text: `{"tool_name":"t"}`, code: CodeBadEnvelope},
		{name: "only args", text: `{"args":{}}`, code: CodeBadEnvelope},
		{name: "args null", text: `{"tool_name":"t","args":null}`, code: CodeBadEnvelope},
		{name: "args string", text: `{"tool_name":"t","args":"{}"}`, code: CodeBadEnvelope},
		{name: "tool_name null", text: `{"tool_name":null,"args":{}}`, code: CodeBadEnvelope},
		{name: "tool_name array", text: `{"tool_name":["t"],"args":{}}`, code: CodeBadEnvelope},
		{name: "wrong key", text: `{"tool":"t","args":{}}`, code: CodeBadEnvelope},
		{name: "key case", text: `{"Tool_name":"t","args":{}}`, code: CodeBadEnvelope},
		{name: "envelope map", v: map[string]any{"tool_name": "t", "args": map[string]any{}}, code: ""},
		{name: "envelope map, args Object", v: map[string]any{"tool_name": "t", "args": Object{}}, code: ""},
		{name: "envelope map, args array", v: map[string]any{"tool_name": "t", "args": []any{}}, code: CodeBadEnvelope},
		{name: "envelope map, 3 members", v: map[string]any{"tool_name": "t", "args": Object{}, "x": 1}, code: CodeBadEnvelope},
		{name: "envelope map, wrong key", v: map[string]any{"tool_name": "t", "arg": Object{}}, code: CodeBadEnvelope},
		{name: "envelope RawObject", v: RawObject{{Key: "tool_name", Value: "t"}, {Key: "args", Value: RawObject{}}}, code: ""},
		{name: "envelope RawObject, bad", v: RawObject{{Key: "tool_name", Value: "t"}, {Key: "args", Value: int64(1)}}, code: CodeBadEnvelope},
		// non_string_key, only expressible with RawObject.
		{name: "non-string key", v: env(RawObject{{Key: int64(1), Value: "a"}}), code: CodeNonStringKey},
		{name: "nil key", v: env(RawObject{{Key: nil, Value: "a"}}), code: CodeNonStringKey},
		{name: "non-string key before lone key", v: env(RawObject{{Key: true, Value: 1}, {Key: lone, Value: 2}}), code: CodeNonStringKey},
		{name: "lone key before non-string key", v: env(RawObject{{Key: lone, Value: 1}, {Key: 1.5, Value: 2}}), code: CodeLoneSurrogate},
		{name: "non-string key before duplicate", v: env(RawObject{{Key: "a", Value: 1}, {Key: int64(5), Value: 2}, {Key: "a", Value: 3}}), code: CodeNonStringKey},
		{name: "duplicate before non-string key", v: env(RawObject{{Key: "a", Value: 1}, {Key: "a", Value: 2}, {Key: int64(5), Value: 3}}), code: CodeDuplicateKey},
		{name: "non-string key before envelope", v: RawObject{{Key: int64(1), Value: 1}}, code: CodeNonStringKey},
		{name: "value before later non-string key", v: env(RawObject{{Key: "a", Value: []byte{1}}, {Key: int64(1), Value: 2}}), code: CodeUnsupported},
		{name: "string-keyed RawObject", v: env(RawObject{{Key: "b", Value: 1}, {Key: "a", Value: 2}}), code: ""},
		{name: "RawObject duplicate", v: env(RawObject{{Key: "b", Value: 1}, {Key: "b", Value: 2}}), code: CodeDuplicateKey},
		// unsupported_value.
		{name: "bytes", v: env(Object{{Key: "a", Value: []byte("x")}}), code: CodeUnsupported},
		{name: "struct", v: env(Object{{Key: "a", Value: struct{}{}}}), code: CodeUnsupported},
		{name: "map[int]any", v: env(Object{{Key: "a", Value: map[int]any{}}}), code: CodeUnsupported},
		{name: "nil *big.Int", v: env(Object{{Key: "a", Value: (*big0)(nil)}}), code: CodeUnsupported},
		{name: "typed nil big", v: env(Object{{Key: "a", Value: nilBig()}}), code: CodeUnsupported},
		{name: "pointer to int", v: env(Object{{Key: "a", Value: new(int64)}}), code: CodeUnsupported},
		{name: "unsupported in array", v: env(Object{{Key: "a", Value: []any{1, complex(1, 2)}}}), code: CodeUnsupported},
		{name: "unsupported before duplicate", v: env(Object{{Key: "a", Value: []byte{}}, {Key: "a", Value: 1}}), code: CodeUnsupported},
		{name: "unsupported top-level", v: []byte("x"), code: CodeUnsupported},
		{name: "invalid UTF-8 value", v: env(Object{{Key: "a", Value: "\xff"}}), code: CodeUnsupported},
		{name: "invalid UTF-8 key", v: env(Object{{Key: "\xc3", Value: 1}}), code: CodeUnsupported},
		{name: "overlong UTF-8", v: env(Object{{Key: "a", Value: "\xc0\x80"}}), code: CodeUnsupported},
		{name: "truncated WTF-8 surrogate", v: env(Object{{Key: "a", Value: "\xed\xa0"}}), code: CodeUnsupported},
		{name: "invalid UTF-8 in []string", v: env(Object{{Key: "a", Value: []string{"ok", "\x80"}}}), code: CodeUnsupported},
		// lone_surrogate in Go strings (WTF-8).
		{name: "WTF-8 lone high", v: env(Object{{Key: "a", Value: "x" + lone}}), code: CodeLoneSurrogate},
		{name: "WTF-8 lone low key", v: env(Object{{Key: loneLow, Value: 1}}), code: CodeLoneSurrogate},
		{name: "WTF-8 U+DFFF", v: env(Object{{Key: "a", Value: "\xed\xbf\xbf"}}), code: CodeLoneSurrogate},
		{name: "3-byte surrogate pair is two lone surrogates", v: env(Object{{Key: "a", Value: "\xed\xa0\xbd\xed\xb8\x80"}}), code: CodeLoneSurrogate},
		{name: "lone before invalid byte", v: env(Object{{Key: "a", Value: lone + "\xff"}}), code: CodeLoneSurrogate},
		{name: "invalid byte before lone", v: env(Object{{Key: "a", Value: "\xff" + lone}}), code: CodeUnsupported},
		{name: "lone in []string", v: env(Object{{Key: "a", Value: []string{lone}}}), code: CodeLoneSurrogate},
		{name: "lone tool_name map", v: map[string]any{"tool_name": lone, "args": Object{}}, code: CodeLoneSurrogate},
		{name: "lone key in map", v: env(map[string]any{"a": 1, loneLow: 2}), code: CodeLoneSurrogate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.v
			if tc.text != "" {
				v = mustParse(t, tc.text)
			}
			got, err := Canonical(v)
			if c := codeOf(t, err); c != tc.code {
				t.Fatalf("got code %q (%v), want %q", c, err, tc.code)
			}
			if err != nil && got != nil {
				t.Errorf("got output %q with an error", got)
			}
			sig, err2 := Signature(v)
			if codeOf(t, err2) != tc.code || (err == nil) != (sig != "") {
				t.Errorf("Signature disagrees: %q, %v", sig, err2)
			}
		})
	}
}

type big0 struct{}

func nilBig() any {
	var b *bigIntAlias
	return b
}

type bigIntAlias = big0

// TestErrorMessages checks that messages say where the problem is.
func TestErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{mustParse(t, `{"tool_name":"t","args":{"a":[1,{"b\n":1,"b\n":2}]}}`), `canonjson: duplicate_key: the key "b\n" appears twice at $["args"]["a"][1]`},
		{mustParse(t, `{"tool_name":"t","args":{"a":"x\udc00"}}`), `canonjson: lone_surrogate: string value holds the lone surrogate U+DC00 at byte 1 at $["args"]["a"]`},
		{mustParse(t, `{"tool_name":"t","args":[]}`), `canonjson: bad_envelope: args is not an object`},
		{mustParse(t, `{"tool_name":"t","args":{},"x":1}`), `canonjson: bad_envelope: the top-level object has 3 members, want exactly tool_name and args`},
		{env(RawObject{{Key: int64(1), Value: 2}}), `canonjson: non_string_key: an object key of Go type int64 at $["args"]`},
		{env(Object{{Key: "a", Value: []byte{}}}), `canonjson: unsupported_value: a value of Go type []uint8 is outside the model at $["args"]["a"]`},
		{nestEmpty(600), `canonjson: too_deep: a container nested deeper than 512 levels at $` + strings.Repeat("[0]", 512)},
	} {
		_, err := Canonical(tc.v)
		if err == nil || err.Error() != tc.want {
			t.Errorf("got %v\nwant %s", err, tc.want)
		}
	}
}

// TestAppendCanonical checks that the appending form keeps dst's prefix and
// leaves it untouched in length on error.
func TestAppendCanonical(t *testing.T) {
	dst := []byte("prefix:")
	out, err := AppendCanonical(dst, env(Object{{Key: "b", Value: 1}, {Key: "a", Value: 2}}))
	if err != nil || string(out) != `prefix:{"args":{"a":2,"b":1},"tool_name":"t"}` {
		t.Fatalf("got %q, %v", out, err)
	}
	out, err = AppendCanonical(out[:7], env(Object{{Key: "a", Value: 1}, {Key: "a", Value: 2}}))
	if codeOf(t, err) != CodeDuplicateKey || string(out) != "prefix:" {
		t.Fatalf("on error got %q, %v", out, err)
	}
	out, err = AppendCanonicalValue([]byte("x"), 1.5)
	if err != nil || string(out) != "x1.5" {
		t.Fatalf("AppendCanonicalValue: %q, %v", out, err)
	}
}

// TestDigest pins the hash to published BLAKE3 test vectors, so that a wrong
// hash (or a wrong hash mode) is caught independently of the fixtures.
func TestDigest(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"},
		{"abc", "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"},
	} {
		d := Digest([]byte(tc.in))
		if got := hexString(d[:]); got != tc.want {
			t.Errorf("Digest(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	sig, err := Signature(Object{{Key: "tool_name", Value: "ping"}, {Key: "args", Value: Object{}}})
	d := Digest([]byte(`{"args":{},"tool_name":"ping"}`))
	if err != nil || sig != hexString(d[:]) || len(sig) != 64 || strings.ToLower(sig) != sig {
		t.Errorf("Signature = %q, %v", sig, err)
	}
}

// TestDigestPaths checks that every input length, on each of Digest's paths,
// hashes exactly as the library's one-shot Sum256.
func TestDigestPaths(t *testing.T) {
	r := newRand(3)
	data := make([]byte, 70<<10)
	for i := range data {
		data[i] = byte(r.IntN(256))
	}
	lengths := []int{0, 1, 63, 64, 65, 1023, 1024, 1025, 2047, 2048, 2049, 3000, 4096, 8193, 64<<10 - 1, 64 << 10, 64<<10 + 1, 70 << 10}
	for range 200 {
		lengths = append(lengths, r.IntN(20000))
	}
	for _, n := range lengths {
		if got, want := Digest(data[:n]), blake3.Sum256(data[:n]); got != want {
			t.Fatalf("length %d: Digest %x, Sum256 %x", n, got, want)
		}
	}
}

func hexString(b []byte) string {
	var s strings.Builder
	for _, c := range b {
		s.WriteByte(hexDigits[c>>4])
		s.WriteByte(hexDigits[c&15])
	}
	return s.String()
}
