package zoo

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/value"
)

// outcome is what a worker would answer: the text, or the error code
// ("internal" for an error without one).
func outcome(fn kit.Func[[]byte], v any) string {
	text, err := fn(nil, v)
	if err == nil {
		return string(text)
	}
	var c kit.Coder
	if errors.As(err, &c) {
		return "error " + c.ErrorCode()
	}
	return "error internal"
}

func golden(v any) string {
	return outcome(func(dst []byte, v any) ([]byte, error) { return canonjson.AppendCanonical(dst, v) }, v)
}

func parse(t *testing.T, text string) any {
	t.Helper()
	v, err := value.Parse([]byte(text))
	if err != nil {
		t.Fatalf("parse %.80s: %v", text, err)
	}
	return v
}

// signed wraps an argument value in an envelope: {"tool_name":"t","args":{"k":arg}}.
func signed(arg any) any {
	return canonjson.Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: canonjson.Object{{Key: "k", Value: arg}}}}
}

func signedArgs(args any) any {
	return canonjson.Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: args}}
}

// nest is n nested arrays around 0: depth n.
func nest(n int) any { return nestAround(n, int64(0)) }

func nestAround(n int, v any) any {
	for range n {
		v = []any{v}
	}
	return v
}

func nestObjects(n int) any {
	var v any = int64(0)
	for range n {
		v = canonjson.Object{{Key: "o", Value: v}}
	}
	return v
}

// members makes an object of n members "k0".."k{n-1}" plus extra at the end.
func members(n int, extra ...canonjson.Member) canonjson.Object {
	var o canonjson.Object
	for i := range n {
		o = append(o, canonjson.Member{Key: "k" + strings.Repeat("x", i), Value: int64(i)})
	}
	return append(o, extra...)
}

func ints(n int) []any {
	a := make([]any, n)
	for i := range a {
		a[i] = int64(i)
	}
	return a
}

// witnesses holds, for every mutant, an input that shows its bug: a string
// is extended JSON of the whole signed value, anything else a value.
func witnesses(t *testing.T) map[string]any {
	e := func(arg string) any { return parse(t, `{"tool_name":"t","args":{"k":`+arg+`}}`) }
	whole := func(text string) any { return parse(t, text) }
	return map[string]any{
		"python-float-repr":   e(`1.0`),
		"float-17g":           e(`0.1`),
		"float-exp-no-plus":   e(`1e21`),
		"float-exp-upper":     e(`1e21`),
		"float-exp-pad":       e(`1e-7`),
		"float-exp-from-1e20": e(`1e20`),
		"float-fixed-to-1e-7": e(`1e-7`),
		"float-no-exp":        e(`1e21`),
		"float-int64-path":    e(`1152921504606846976.0`),
		"neg-zero":            e(`-0.0`),
		"nan-null":            e(`NaN`),
		"inf-null":            e(`-Infinity`),

		"bigint-double":   e(`9007199254740993`),
		"int64-min":       e(`-9223372036854775808`),
		"uint64-wrap":     e(`9223372036854775808`),
		"bigint-abs":      e(`-18446744073709551617`),
		"bigint-limbs":    e(`1000000000000000000000`),
		"int-4300-digits": e(`1` + strings.Repeat("0", 4300)),

		"html-escape":       e(`"<"`),
		"u2028-raw":         e(`"\u2028"`),
		"raw-non-ascii":     e(`"\u00e9"`),
		"astral-raw":        e(`"\ud83d\ude00"`),
		"astral-one-escape": e(`"\ud83d\ude00"`),
		"upper-hex":         e(`"\u00e9"`),
		"del-raw":           e(`"\u007f"`),
		"solidus-escaped":   e(`"/"`),
		"bf-as-u":           e(`"\b"`),
		"nul-truncates":     e(`"a\u0000b"`),
		"key-raw-non-ascii": whole(`{"tool_name":"t","args":{"\u00e9":1}}`),
		"chunk-4096":        signed(strings.Repeat("a", 4095) + "é"),
		"edge-4095":         signed(strings.Repeat("a", 4095) + "\n"),
		"past-65536-raw":    signed(strings.Repeat("a", 65536) + "é"),

		"lone-surrogate-fffd":     e(`"\ud800"`),
		"surrogate-high-only":     e(`"\udc00"`),
		"surrogate-low-only":      e(`"\ud800"`),
		"key-surrogate-unchecked": whole(`{"tool_name":"t","args":{"\ud800":1}}`),

		"utf16-key-order":   whole(`{"tool_name":"t","args":{"\uff61":1,"\ud83d\ude00":2}}`),
		"wide-object-utf16": signedArgs(members(15, canonjson.Member{Key: "\uff61", Value: nil}, canonjson.Member{Key: "😀", Value: nil})),
		"key-prefix-tie":    whole(`{"tool_name":"t","args":{"ab":1,"a":2}}`),
		"sort-escaped":      whole(`{"tool_name":"t","args":{"\u00e9":1,"a":2}}`),
		"deep-unsorted":     signed(nestAround(70, canonjson.Object{{Key: "b", Value: nil}, {Key: "a", Value: nil}})),

		"dup-last-wins":      whole(`{"tool_name":"t","args":{"a":1,"a":2}}`),
		"dup-neighbour":      whole(`{"tool_name":"t","args":{"a":1,"b":2,"a":3}}`),
		"dup-window-16":      signedArgs(append(canonjson.Object{{Key: "a", Value: nil}}, members(16, canonjson.Member{Key: "a", Value: nil})...)),
		"wide-object-no-dup": signedArgs(members(33, canonjson.Member{Key: "k", Value: nil})),

		"keys-before-values": whole(`{"tool_name":"t","args":{"a":"\udc00","b":1,"b":2}}`),
		"value-before-dup":   whole(`{"tool_name":"t","args":{"a":1,"a":"\udc00"}}`),
		"sorted-walk":        whole(`{"tool_name":"t","args":{"b":"\ud800","a":{"x":1,"x":2}}}`),
		"envelope-first":     whole(`{"tool_name":"t","args":{"a":1,"a":1},"x":0}`),
		"too-deep-last":      signedArgs(canonjson.Object{{Key: "a", Value: nest(600)}, {Key: "b", Value: "\xed\xa0\x80"}}),

		"non-string-key-stringified": signedArgs(canonjson.RawObject{{Key: int64(1), Value: nil}}),
		"unsupported-null":           signed([]byte{1}),
		"args-array-ok":              whole(`{"tool_name":"t","args":[]}`),
		"tool-name-any":              whole(`{"tool_name":1,"args":{}}`),
		"extra-member-ok":            whole(`{"tool_name":"t","args":{},"x":null}`),
		"tool-name-first":            whole(`{"args":{},"tool_name":"t"}`),

		"depth-511":         signed(nest(510)), // depth 512: accepted
		"depth-513":         signed(nest(511)), // depth 513: too deep
		"depth-arrays-only": signed(nestObjects(600)),

		"empty-array-null": e(`[]`),
		"wide-array-1024":  signed(ints(1025)),
		"text-over-1mib":   signed(strings.Repeat("a", 1<<20)),

		"key-quote-raw":   whole(`{"tool_name":"t","args":{"a\"b":1}}`),
		"key-unescaped":   whole(`{"tool_name":"t","args":{"a\"b":1}}`),
		"value-quote-raw": e(`"a\"b"`),
		"backslash-raw":   e(`"a\\b"`),
		"nfc-composed":    e(`"e\u0301"`),
		"nan-rejected":    e(`[1,NaN]`),
		"deep-recursion":  signed(nest(320)), // valid, deeper than 300
	}
}

// Every mutant has its bug: on its witness it answers unlike the Go
// implementation, and the control (the zoo's encoder with no bug) like it.
func TestMutantsHaveTheirBug(t *testing.T) {
	ws := witnesses(t)
	ok, _ := Lookup("ok")
	for _, m := range Mutants {
		if Stateful(m.Name) {
			continue // alike on a first call: TestStatefulMutants
		}
		t.Run(m.Name, func(t *testing.T) {
			w, found := ws[m.Name]
			if !found {
				t.Fatal("no witness")
			}
			want := golden(w)
			if got := outcome(ok.Func(), w); got != want {
				t.Errorf("control: %.200s\nGo:      %.200s", got, want)
			}
			if got := outcome(m.Func(), w); got == want {
				t.Errorf("the mutant agrees with Go on its witness: %.200s", got)
			}
		})
	}
	if len(ws) != len(Mutants)-len(statefulMutants) {
		t.Errorf("%d witnesses for %d mutants", len(ws), len(Mutants)-len(statefulMutants))
	}
}

// The zoo's names are unique and its descriptions one line each.
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range Mutants {
		if seen[m.Name] || m.Name == "ok" {
			t.Errorf("name %q repeated or reserved", m.Name)
		}
		seen[m.Name] = true
		if m.Desc == "" || strings.ContainsAny(m.Desc, "\n\t") {
			t.Errorf("%s: description %q is not one line", m.Name, m.Desc)
		}
	}
	if len(Mutants) < 40 {
		t.Errorf("%d mutants, want at least 40", len(Mutants))
	}
}

// The control agrees with the Go implementation on generated cases, so that
// each mutant's only divergence is its bug.
func TestControlAgrees(t *testing.T) {
	n := uint64(20000)
	if testing.Short() {
		n = 2000
	}
	ok, _ := Lookup("ok")
	fn := ok.Func()
	for _, seed := range []uint64{1, 2} {
		g := gen.New(gen.Config{Seed: seed})
		for i := range n {
			v, _ := g.Case(i)
			if got, want := outcome(fn, v), golden(v); got != want {
				t.Fatalf("seed %d case %d: %.300s\ncontrol: %.300s\nGo:      %.300s", seed, i,
					value.AppendText(nil, v), got, want)
			}
		}
	}
}

// Layout with the spec's parameters is the spec's float layout.
func TestECMA(t *testing.T) {
	for _, text := range []string{"1e21", "1e20", "1e-7", "1e-6", "0.1", "123.456", "5e-324", "1.7976931348623157e308", "-1.5e300", "-0.0", "NaN", "-Infinity"} {
		v := parse(t, `{"tool_name":"t","args":{"k":`+text+`}}`)
		want, _ := canonjson.AppendCanonical(nil, v)
		var e Enc
		got, _ := e.Canonical(nil, v)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %s, want %s", text, got, want)
		}
	}
}
