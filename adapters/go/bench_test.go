package canonjson

import (
	"math"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

// benchValue is a realistic tool call: a few dozen members over three
// levels, mostly ASCII strings, some numbers of every kind, a little Unicode.
func benchValue() Object {
	rows := make([]any, 12)
	for i := range rows {
		rows[i] = Object{
			{Key: "id", Value: int64(1000 + i)},
			{Key: "name", Value: "row number " + itoa(i)},
			{Key: "score", Value: float64(i) * 1.25},
			{Key: "active", Value: i%2 == 0},
			{Key: "tags", Value: []any{"alpha", "beta", "gamma"}},
			{Key: "note", Value: nil},
		}
	}
	return Object{
		{Key: "tool_name", Value: "search_documents"},
		{Key: "args", Value: Object{
			{Key: "query", Value: "canonical JSON \"signatures\" for tool calls — naïve café 😀"},
			{Key: "limit", Value: int64(25)},
			{Key: "offset", Value: int64(0)},
			{Key: "threshold", Value: 0.75},
			{Key: "filters", Value: Object{
				{Key: "lang", Value: []any{"en", "fr", "de"}},
				{Key: "since", Value: "2024-01-01T00:00:00Z"},
				{Key: "max_size", Value: bigInt("18446744073709551616")},
				{Key: "weights", Value: []any{0.1, 1e-7, 1e21, math.Inf(1), math.Copysign(0, -1), 123.456}},
			}},
			{Key: "rows", Value: rows},
			{Key: "path", Value: "/usr/local/share/doc\\n\ttabbed"},
			{Key: "dry_run", Value: false},
		}},
	}
}

func BenchmarkCanonical(b *testing.B) {
	v := benchValue()
	out, _ := Canonical(v)
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Canonical(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendCanonical(b *testing.B) {
	v := benchValue()
	buf, _ := AppendCanonical(nil, v)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendCanonical(buf[:0], v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSignature(b *testing.B) {
	v := benchValue()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Signature(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCanonicalError measures the error path (optimistic encoder, then
// the validation walk), which fuzzing hits often.
func BenchmarkCanonicalError(b *testing.B) {
	v := benchValue()
	args := v[1].Value.(Object)
	args = append(args, Member{Key: "limit", Value: int64(1)})
	v[1].Value = args
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AppendCanonical(buf[:0], v); err == nil {
			b.Fatal("no error")
		}
	}
}

func BenchmarkAppendText(b *testing.B) {
	v := benchValue()
	buf := value.AppendText(nil, v)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = value.AppendText(buf[:0], v)
	}
}

func BenchmarkParse(b *testing.B) {
	text := value.AppendText(nil, benchValue())
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := value.Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEqual(b *testing.B) {
	x, y := benchValue(), benchValue()
	b.ReportAllocs()
	for b.Loop() {
		if !value.Equal(x, y) {
			b.Fatal("not equal")
		}
	}
}
