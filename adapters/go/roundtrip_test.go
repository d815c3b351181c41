package canonjson

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

// checkRoundTrip asserts that v survives value.AppendText and value.Parse unchanged, and
// that its canonical result (text or error code) survives too.
func checkRoundTrip(t *testing.T, v any) {
	t.Helper()
	text := value.AppendText(nil, v)
	back, err := value.Parse(text)
	if err != nil {
		t.Fatalf("value.Parse(value.AppendText(v)): %v\ntext: %.300s", err, text)
	}
	if !value.Equal(back, v) {
		t.Fatalf("round trip changed the value\ntext: %.300s\nback: %.300s", text, value.AppendText(nil, back))
	}
	if again := value.AppendText(nil, back); !bytes.Equal(again, text) {
		t.Fatalf("text not stable: %s", firstDiff(string(again), string(text)))
	}
	c1, err1 := Canonical(v)
	c2, err2 := Canonical(back)
	if codeOf(t, err1) != codeOf(t, err2) || !bytes.Equal(c1, c2) {
		t.Fatalf("canonical result changed: %q %v / %q %v", c1, err1, c2, err2)
	}
}

// checkCanonical compares Canonical's error code with the reference walk and
// checks that accepted values give ASCII text that is stable under value.Parse.
func checkCanonical(t *testing.T, v any) {
	t.Helper()
	want := referenceCode(v, 1)
	if want == "" && envelopeProblem(v) != "" {
		want = CodeBadEnvelope
	}
	got, err := Canonical(v)
	if c := codeOf(t, err); c != want {
		t.Fatalf("got code %q (%v), reference %q\nvalue: %.300s", c, err, want, value.AppendText(nil, v))
	}
	if err != nil {
		return
	}
	for _, c := range got {
		if c >= 0x80 || c < 0x20 {
			t.Fatalf("canonical text has byte %#x", c)
		}
	}
	// The canonical text is itself extended JSON, and canonical again.
	back, perr := value.Parse(got)
	if perr != nil {
		t.Fatalf("canonical text does not parse: %v\n%.300s", perr, got)
	}
	again, err := Canonical(back)
	if err != nil || !bytes.Equal(again, got) {
		t.Fatalf("canonical text is not a fixed point: %v\n%s", err, firstDiff(string(again), string(got)))
	}
}

func TestRoundTripTable(t *testing.T) {
	for _, v := range []any{
		nil, true, false, int64(0), int64(-1), int64(math.MinInt64), bigInt("18446744073709551616"),
		0.0, math.Copysign(0, -1), 1.0, 1e21, 1e20, 1e-7, 5e-324, math.MaxFloat64, math.NaN(), math.Inf(1), math.Inf(-1),
		9007199254740993.0, 123.456,
		"", "\x00\x1f\x7f\"\\/", "\u2028\u2029\uffff\ue000\U0010FFFF", "\xed\xa0\x80", "a\xed\xb0\x80b", "\xed\xb8\x80\xed\xa0\xbd",
		strings.Repeat("é", 1000),
		[]any{}, Object{}, []any{[]any{Object{}}},
		Object{{Key: "a", Value: int64(1)}, {Key: "a", Value: int64(1)}, {Key: "", Value: nil}},
		Object{{Key: "\xed\xa0\x80", Value: 1.0}, {Key: "\xed\xa0\x80", Value: "x"}},
		env(Object{{Key: "b", Value: []any{int64(1), 1.0, "1"}}, {Key: "a", Value: Object{{Key: "z", Value: nil}}}}),
		nestEmpty(1000),
	} {
		checkRoundTrip(t, v)
		checkCanonical(t, v)
	}
}

// TestRoundTripRandom drives the generator with many seeds: values in the
// text's domain must round-trip; wild values must get the reference code.
func TestRoundTripRandom(t *testing.T) {
	n := 5000
	if testing.Short() {
		n = 1000
	}
	for seed := range uint64(n) {
		r := newRand(seed)
		v := newGen(r, false).value(1)
		checkRoundTrip(t, v)
		checkCanonical(t, v)
		checkCanonical(t, env(v))
		if o, ok := v.(Object); ok {
			checkCanonical(t, env(o))
		}
		w := newGen(r, true).value(1)
		checkCanonical(t, w)
		checkCanonical(t, env(w))
		checkCanonical(t, env(Object{{Key: "x", Value: w}}))
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"tool_name":"t","args":{"a":[1,2.5,"x",null,true,false,{}]}}`,
		`[NaN,Infinity,-Infinity,-0.0,1e400,-0,1e21]`,
		`"\ud800\udc00\ud800\u0041\udc00"`,
		`{"a":1,"a":2}`, `18446744073709551616`, "  [ ]  ", `"\u2028é😀"`, `{"":{"":[]}}`,
		strings.Repeat("[", 600) + strings.Repeat("]", 600), `[1,]`, `{"a" 1}`, "\"\xff\"", "01", "1.", "-",
	} {
		f.Add([]byte(s))
	}
	for _, ex := range workedExamples {
		f.Add([]byte(ex.input))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := value.Parse(data)
		if err != nil {
			var se *value.SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Col < 1 || se.Offset < 0 || se.Offset > len(data) {
				t.Fatalf("bad error %#v", err)
			}
			return
		}
		checkRoundTrip(t, v)
		checkCanonical(t, v)
	})
}

func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{"", "\x07\x01", "\x0a\x05\x03\x00\x06\x06\x07\x07", "\x0a\x0a\x0a\x0a\x04\x04\x04\x04\x04", "\x09\x07\x00\x02\x01"} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	r := newRand(99)
	for range 20 {
		b := make([]byte, 64)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		f.Add(b, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, wild bool) {
		v := newGen(&byteSource{data}, wild).value(1)
		if !wild {
			checkRoundTrip(t, v)
		}
		checkCanonical(t, v)
		checkCanonical(t, env(v))
		checkCanonical(t, env(Object{{Key: "x", Value: v}}))
	})
}

// TestConcurrent checks that the pooled scratch space is never shared: the
// driver and workers canonicalize from several goroutines.
func TestConcurrent(t *testing.T) {
	values := make([]any, 200)
	want := make([]string, len(values))
	for i := range values {
		values[i] = env(Object{{Key: "x", Value: newGen(newRand(uint64(i)), i%3 == 0).value(1)}})
		c, err := Canonical(values[i])
		want[i] = string(c)
		if err != nil {
			want[i] = err.Error()
		}
	}
	errs := make(chan string, 4)
	for g := range 4 {
		go func() {
			buf := []byte(nil)
			for round := range 20 {
				for i := range values {
					j := (i + g*50 + round) % len(values)
					var err error
					buf, err = AppendCanonical(buf[:0], values[j])
					got := string(buf)
					if err != nil {
						got = err.Error()
					}
					if got != want[j] {
						errs <- "value " + itoa(j) + ": " + firstDiff(got, want[j])
						return
					}
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if msg := <-errs; msg != "" {
			t.Fatal(msg)
		}
	}
}
