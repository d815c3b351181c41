package canonjson

import (
	"math"
	"testing"
)

// benchValue is a realistic tool call: a few dozen members over three
// levels, mostly ASCII strings, some numbers of every kind, a little Unicode.
func benchValue() Object {
	rows := make([]any, 12)
	for i := range rows {
		rows[i] = Object{
			{"id", int64(1000 + i)},
			{"name", "row number " + itoa(i)},
			{"score", float64(i) * 1.25},
			{"active", i%2 == 0},
			{"tags", []any{"alpha", "beta", "gamma"}},
			{"note", nil},
		}
	}
	return Object{
		{"tool_name", "search_documents"},
		{"args", Object{
			{"query", "canonical JSON \"signatures\" for tool calls — naïve café 😀"},
			{"limit", int64(25)},
			{"offset", int64(0)},
			{"threshold", 0.75},
			{"filters", Object{
				{"lang", []any{"en", "fr", "de"}},
				{"since", "2024-01-01T00:00:00Z"},
				{"max_size", bigInt("18446744073709551616")},
				{"weights", []any{0.1, 1e-7, 1e21, math.Inf(1), math.Copysign(0, -1), 123.456}},
			}},
			{"rows", rows},
			{"path", "/usr/local/share/doc\\n\ttabbed"},
			{"dry_run", false},
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
	args = append(args, Member{"limit", int64(1)})
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
	buf := AppendText(nil, v)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendText(buf[:0], v)
	}
}

func BenchmarkParse(b *testing.B) {
	text := AppendText(nil, benchValue())
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEqual(b *testing.B) {
	x, y := benchValue(), benchValue()
	b.ReportAllocs()
	for b.Loop() {
		if !Equal(x, y) {
			b.Fatal("not equal")
		}
	}
}
