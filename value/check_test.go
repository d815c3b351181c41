package value_test

import (
	"math/big"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/value"
)

// TestCheckSpecExamples runs the examples of spec section 3, read from the
// spec's own table, so that the two cannot drift apart.
func TestCheckSpecExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/canonical-json.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `(\\{.*\\}|\\[\\[\\[\\.\\.\\.513 levels\\.\\.\\.\\]\\]\\])` +\\| `([a-z_]+)`")
	rows := row.FindAllSubmatch(doc, -1)
	if len(rows) < 9 {
		t.Fatalf("found %d examples in the spec's table, want at least 9", len(rows))
	}
	for _, r := range rows {
		input, want := string(r[1]), value.Code(r[2])
		if strings.HasPrefix(input, "[[[") {
			input = strings.Repeat("[", 513) + strings.Repeat("]", 513)
		}
		v, err := value.Parse([]byte(input))
		if err != nil {
			t.Fatalf("%s: %v", input, err)
		}
		got := value.CheckSigned(v)
		if got == nil || got.Code != want {
			t.Errorf("%.60s: got %v, want %s", input, got, want)
		}
	}
}

func TestCheck(t *testing.T) {
	deep := func(n int) any {
		var v any = []any{}
		for range n - 1 {
			v = []any{v}
		}
		return v
	}
	tests := []struct {
		name string
		v    any
		want value.Code // "" for none
	}{
		{"scalars", []any{nil, true, int64(1), big.NewInt(2), 1.5, "é"}, ""},
		{"512 levels", deep(512), ""},
		{"513 levels", deep(513), value.CodeTooDeep},
		{"lone surrogate", "\xed\xa0\x80", value.CodeLoneSurrogate},
		{"not WTF-8", "\xff", value.CodeUnsupported},
		{"non-string key", value.RawObject{{Key: int64(1), Value: nil}}, value.CodeNonStringKey},
		{"string keys of a raw object", value.RawObject{{Key: "a", Value: nil}}, ""},
		{"bin data", []byte{1}, value.CodeUnsupported},
		{"nil big", (*big.Int)(nil), value.CodeUnsupported},
		{"repeat past the scan", wideObject(40, 33), value.CodeDuplicateKey},
		{"wide, no repeat", wideObject(40, -1), ""},
		{"key checks before the repeat", value.Object{{Key: "\xed\xb0\x80", Value: 1}, {Key: "\xed\xb0\x80", Value: 2}}, value.CodeLoneSurrogate},
		{"a repeat before its value", value.Object{{Key: "a", Value: 1}, {Key: "a", Value: "\xed\xb0\x80"}}, value.CodeDuplicateKey},
	}
	for _, tt := range tests {
		got := value.Check(tt.v)
		if (got == nil) != (tt.want == "") || got != nil && got.Code != tt.want {
			t.Errorf("%s: got %v, want %q", tt.name, got, tt.want)
		}
	}
}

// wideObject has n members "k0".."k(n-1)", member dup's key repeating k0
// (none if dup < 0).
func wideObject(n, dup int) value.Object {
	o := make(value.Object, n)
	for i := range o {
		o[i] = value.Member{Key: "k" + strings.Repeat("x", i), Value: int64(i)}
	}
	if dup >= 0 {
		o[dup].Key = o[0].Key
	}
	return o
}

// TestCheckAgreesWithTheGoImplementation holds the spec's checks, written
// apart from the implementations, to the Go one over generated cases, out of
// the domain half of the time: where they disagree, one of the two is wrong.
func TestCheckAgreesWithTheGoImplementation(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	g := gen.New(gen.Config{Seed: 7, OutOfDomain: 0.5})
	for i := range n {
		v, _ := g.Case(uint64(i))
		var want value.Code
		if _, err := canonjson.Canonical(v); err != nil {
			want = value.Code(err.(*canonjson.Error).Code)
		}
		var got value.Code
		if p := value.CheckSigned(v); p != nil {
			got = p.Code
		}
		if got != want {
			t.Fatalf("case %d: Check %q, the Go implementation %q\n%.300s", i, got, want, value.AppendText(nil, v))
		}
	}
}

// TestCodesMatchTheSpec holds Codes to the table of spec section 3.
func TestCodesMatchTheSpec(t *testing.T) {
	doc, err := os.ReadFile("../docs/canonical-json.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	table := text[strings.Index(text, "| code "):]
	table = table[:strings.Index(table, "\n\n")]
	var codes []value.Code
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` +\\|").FindAllStringSubmatch(table, -1) {
		codes = append(codes, value.Code(m[1]))
	}
	if !slices.Equal(codes, value.Codes) {
		t.Errorf("the spec's table has %q, Codes %q", codes, value.Codes)
	}
}

// Problems is every rule an input breaks, the first of which CheckSigned
// names.
func TestProblems(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []value.Code
	}{
		{`{"tool_name":"","args":{}}`, nil},
		{`{"tool_name":"","args":{"":"\udc00"}}`, []value.Code{value.CodeLoneSurrogate}},
		// A repeated key whose first value holds a lone surrogate.
		{`{"tool_name":"b","args":"\udc00","args":{}}`, []value.Code{value.CodeLoneSurrogate, value.CodeDuplicateKey}},
		// The envelope is read with the last of a repeated key.
		{`{"tool_name":"b","args":{},"args":"\udc00"}`, []value.Code{value.CodeLoneSurrogate, value.CodeDuplicateKey, value.CodeBadEnvelope}},
		{`{"tool_name":"","args":{"a":"\udc00","a":0}}`, []value.Code{value.CodeLoneSurrogate, value.CodeDuplicateKey}},
		{`{"tool_name":"","args":{"":"\udc00"},"":0}`, []value.Code{value.CodeLoneSurrogate, value.CodeBadEnvelope}},
		{`0`, []value.Code{value.CodeBadEnvelope}},
	} {
		v, err := value.Parse([]byte(tt.text))
		if err != nil {
			t.Fatalf("%s: %v", tt.text, err)
		}
		got := value.Problems(v)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Problems(%s) = %v, want %v", tt.text, got, tt.want)
		}
		if first := value.CheckSigned(v); (first == nil) != (len(got) == 0) || first != nil && !slices.Contains(got, first.Code) {
			t.Errorf("%s: CheckSigned %v is not one of %v", tt.text, first, got)
		}
	}
}
