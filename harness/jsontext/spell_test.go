package jsontext

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"

	"github.com/google/go-cmp/cmp"
)

// Every spelling the text model writes reads back, under the spec's reader,
// as the case it spells: the hand-picked edges and random values alike.
func TestJSONTextRoundTrip(t *testing.T) {
	big64, _ := new(big.Int).SetString("18446744073709551616", 10)
	cases := []any{
		nil, true, false, int64(0), int64(-1), int64(math.MinInt64), uint64(math.MaxUint64), big64,
		0.0, math.Copysign(0, -1), 1.0, 100.0, 1e21, 1e-7, 1.5e-8, 123456.789, 5e-324, math.MaxFloat64, -2.5,
		math.NaN(), math.Inf(1), math.Inf(-1),
		"", "A/\"\\\b\f\n\r\t\x00\x1f\x7f", "é€😀", "\xed\xa0\x80", "a\xed\xb0\x80\xed\xa0\x80😀",
		[]any{}, value.Object{}, value.Object{{Key: "a", Value: int64(1)}, {Key: "a", Value: 2.0}},
		value.RawObject{{Key: "k", Value: []any{nil}}},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		cases = append(cases, randomValue(r, 4))
	}
	for _, v := range cases {
		text, bad := Append(nil, v)
		if bad != nil {
			t.Fatalf("%#v: inexpressible %v", v, bad)
		}
		if !utf8.Valid(text) {
			t.Fatalf("%#v: %q is not UTF-8", v, text)
		}
		got, err := value.Parse(text)
		if err != nil {
			t.Fatalf("%#v: %q does not parse: %v", v, text, err)
		}
		if !value.Equal(got, v) {
			t.Fatalf("%#v: %q reads back as %#v", v, text, got)
		}
	}
}

// The same value is spelled in many ways across cases, and always the same
// way within one case's value.
func TestJSONTextVariety(t *testing.T) {
	for _, leaf := range []any{"A/\"é😀\n", 100.0, -0.00015, value.Object{{Key: "k", Value: nil}}} {
		seen := map[string]bool{}
		for i := range 200 {
			v := []any{int64(i), leaf}
			a, _ := Append(nil, v)
			b, _ := Append(nil, v)
			if string(a) != string(b) {
				t.Fatalf("%#v spelled %q, then %q", v, a, b)
			}
			seen[string(a[strings.IndexByte(string(a), ',')+1:])] = true
		}
		if len(seen) < 20 {
			t.Errorf("%#v: only %d spellings in 200 cases", leaf, len(seen))
		}
	}
}

// Only what JSON text cannot spell is inexpressible.
func TestJSONTextInexpressible(t *testing.T) {
	for _, c := range []struct {
		v      any
		reason string
	}{
		{[]any{[]byte{1}}, wire.ReasonUnsupported},
		{wire.Unsupported{Reason: "ext 9"}, wire.ReasonUnsupported},
		{value.RawObject{{Key: int64(1), Value: nil}}, wire.ReasonNonStringKey},
		{value.Object{{Key: "a", Value: value.RawObject{{Key: "b", Value: nil}, {Key: []any{}, Value: nil}}}}, wire.ReasonNonStringKey},
	} {
		dst := []byte("[1,")
		got, err := Append(dst, c.v)
		var bad *Unspellable
		if !errors.As(err, &bad) || bad.Reason != c.reason {
			t.Errorf("%#v: got %v, want %s", c.v, err, c.reason)
		}
		if string(got) != "[1," {
			t.Errorf("%#v: dst became %q, want it as it was", c.v, got)
		}
	}
}

// The text of a fixed value, in every kit alike: the kits' tests hold the
// same line (docs/your-sdk.md, "The text model").
func TestJSONTextGolden(t *testing.T) {
	v := value.Object{{Key: "tool_name", Value: "a/\"é😀\n"}, {Key: "args", Value: value.Object{
		{Key: "n", Value: []any{int64(-12), 1.5, 100.0, 0.0, 1e-9, big.NewInt(0).Lsh(big.NewInt(1), 64)}},
		{Key: "n", Value: []any{nil, true, false, "\xed\xa0\x80"}}}}}
	want := "\n{\"tool_\\u006Eame\"\n  :\"a\\/\\u0022é😀\\n\",  \"args\":\t{\n\"n\"\n  :[  -12,1.5\r\n, 0.1e+3,\t0.0E0,0.1e-8,\r\n18446744073709551616],\"n\":\n  [null\n,\ntrue,\tfalse, \"\\uD800\"]}}\n  "
	if text, _ := Append(nil, v); string(text) != want {
		t.Errorf("got  %q\nwant %q", text, want)
	}
}

func randomValue(r *rand.Rand, depth int) any {
	n := r.IntN(10)
	if depth == 0 {
		n %= 6
	}
	switch n {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return r.Int64() >> r.IntN(64)
	case 3:
		return math.Float64frombits(r.Uint64())
	case 4:
		return []float64{0, 1, 0.1, 1e22, 1e-300, 123.456, 1 << 60}[r.IntN(7)] * float64(1-2*r.IntN(2))
	case 5:
		return randomString(r)
	case 6, 7:
		a := make([]any, r.IntN(4))
		for i := range a {
			a[i] = randomValue(r, depth-1)
		}
		return a
	default:
		o := make(value.Object, r.IntN(4))
		for i := range o {
			o[i] = value.Member{Key: randomString(r), Value: randomValue(r, depth-1)}
		}
		return o
	}
}

func randomString(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(8) {
		c := []rune{'"', '\\', '/', 0, '\n', 0x1f, 'a', 0x7f, 0xe9, 0xfeff, 0x1f600, 0xd800}[r.IntN(12)]
		if c == 0xd800 {
			b.WriteString("\xed\xa0\x80")
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// BenchmarkAppend spells random values of about a generated case's size,
// into one reused buffer as the driver does a batch.
func BenchmarkAppend(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	cases := make([]any, 256)
	size := 0
	for i := range cases {
		cases[i] = randomValue(r, 5)
		t, _ := Append(nil, cases[i])
		size += len(t)
	}
	b.SetBytes(int64(size / len(cases)))
	var buf []byte
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf, _ = Append(buf[:0], cases[i%len(cases)])
	}
}

var update = flag.Bool("update", false, "rewrite testdata/cases.jsonl from the generator, and testdata/spellings.golden")

// The spelling of a few hundred generated cases is fixed: a replay or a
// minimization step must send the text an earlier run sent, so a change of
// the spelling rules is deliberate (docs/your-sdk.md, "The text model",
// says them), never a side effect of making Append faster. -update draws
// the cases afresh and writes their spellings, one Go-quoted line a case.
func TestSpellingGolden(t *testing.T) {
	if *update {
		writeGoldenCases(t)
	}
	data, err := os.ReadFile("testdata/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		v, err := value.Parse([]byte(line))
		if err != nil {
			t.Fatalf("cases.jsonl:%d: %v", i+1, err)
		}
		text, err := Append(nil, v)
		if err != nil {
			t.Fatalf("cases.jsonl:%d: %v", i+1, err)
		}
		fmt.Fprintf(&got, "%q\n", text)
	}
	if *update {
		if err := os.WriteFile("testdata/spellings.golden", []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/spellings.golden")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("spellings (-golden +now):\n%s", diff)
	}
}

// writeGoldenCases writes 400 generated cases that extended JSON can
// hold, of up to 400 bytes each, as testdata/cases.jsonl.
func writeGoldenCases(t *testing.T) {
	g := gen.New(gen.Config{Seed: 7})
	var out []byte
	for i, n := uint64(0), 0; n < 400; i++ {
		c, _ := g.Case(i)
		text := value.AppendText(nil, c)
		if v, err := value.Parse(text); err != nil || !value.Equal(v, c) || len(text) > 400 {
			continue
		}
		out = append(append(out, text...), '\n')
		n++
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("testdata/cases.jsonl", out, 0o644); err != nil {
		t.Fatal(err)
	}
}
