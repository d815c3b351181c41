package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func big10(s string) *big.Int { b, _ := new(big.Int).SetString(s, 10); return b }

func TestValueRoundTrip(t *testing.T) {
	values := []any{
		nil, true, false, int64(0), int64(-1), int64(math.MinInt64), int64(math.MaxInt64),
		big10("18446744073709551615"), big10("18446744073709551616"), big10("-9223372036854775809"),
		big10("1000000000000000000000000000000"),
		0.0, math.Copysign(0, -1), 1e21, 5e-324, math.Inf(1), math.Inf(-1), 1.5,
		"", "a", "\u00e9\U0001F600", "\xed\xa0\x80", "a\xed\xbf\xbfb",
		// Ext 2 past its 512-byte write buffer, a pair split across a write.
		strings.Repeat("\U0001F600", 300) + "\xed\xa0\x80", "x" + strings.Repeat("\U0001F600", 200) + "\xed\xb0\x80" + strings.Repeat("\u00e9", 300),
		[]any{}, []any{int64(1), []any{nil}},
		Object{}, Object{{Key: "__proto__", Value: int64(1)}, {Key: "__proto__", Value: int64(2)}, {Key: "\xed\xb0\x80", Value: "x"}},
	}
	enc, dec := NewEncoder(), NewDecoder()
	frame, err := enc.Batch(7, values)
	if err != nil {
		t.Fatal(err)
	}
	body, err := NewFrameReader(bytes.NewReader(frame)).Next()
	if err != nil {
		t.Fatal(err)
	}
	var m Message
	if err := dec.Decode(body, &m); err != nil {
		t.Fatal(err)
	}
	if m.Type != TypeBatch || m.ID != 7 || len(m.Cases) != len(values) {
		t.Fatalf("decoded %s id %d with %d cases", m.Type, m.ID, len(m.Cases))
	}
	for i, v := range values {
		if !reflect.DeepEqual(v, m.Cases[i]) {
			t.Errorf("value %d: sent %#v, got %#v", i, v, m.Cases[i])
		}
	}
	// -0.0 keeps its sign and floats stay float64 on the wire.
	if f := m.Cases[12].(float64); !math.Signbit(f) {
		t.Errorf("-0.0 lost its sign")
	}
	if !bytes.Contains(frame, []byte{0xcb, 0x44, 0x4b, 0x1a, 0xe4, 0xd6, 0xe2, 0xef, 0x50}) {
		t.Errorf("1e21 not sent as float 64")
	}
}

func TestOutOfModelValues(t *testing.T) {
	tests := []struct {
		name string
		body []byte // one msgpack value
		want string // what the decoded case is
	}{
		{"bin", []byte{0xc4, 0x01, 0x00}, "[]byte"},
		{"unknown ext", []byte{0xd4, 0x09, 0x00}, "wire.Unsupported"},
		{"bad big int", []byte{0xd5, 0x01, '0', '1'}, "wire.Unsupported"},
		{"odd utf16", []byte{0xd4, 0x02, 0x00}, "wire.Unsupported"},
		{"int key", []byte{0x81, 0x01, 0xc0}, "RawObject"},
		{"float32", []byte{0xca, 0x3f, 0xc0, 0x00, 0x00}, "float64"},
	}
	for _, tt := range tests {
		// {"type":"batch","id":1,"cases":[value]}
		body := append([]byte("\x83\xa4type\xa5batch\xa2id\x01\xa5cases\x91"), tt.body...)
		var m Message
		if err := NewDecoder().Decode(body, &m); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := typeName(m.Cases[0]); got != tt.want {
			t.Errorf("%s: decoded as %s, want %s", tt.name, got, tt.want)
		}
	}
}

func typeName(v any) string {
	switch v.(type) {
	case Unsupported:
		return "wire.Unsupported"
	case RawObject:
		return "RawObject"
	case float64:
		return "float64"
	case []byte:
		return "[]byte"
	}
	return "other"
}

// The values outside the model survive EncodeValue and DecodeValue, so a
// corpus entry can hold them: a non-string key, bin data, both nested.
func TestOutOfModelRoundTrip(t *testing.T) {
	for _, v := range []any{
		RawObject{{Key: int64(1), Value: []byte{0, 1}}, {Key: "a", Value: []any{true, nil}}},
		Object{{Key: "args", Value: RawObject{{Key: int64(-7), Value: 1.5}}}},
		[]any{[]byte{}, "x"},
	} {
		data, err := EncodeValue(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeValue(data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(v, got) {
			t.Errorf("round trip: want %#v, got %#v", v, got)
		}
	}
	if _, err := DecodeValue([]byte{0x01, 0x02}); err == nil {
		t.Errorf("trailing bytes accepted")
	}
}

func TestHostileFrames(t *testing.T) {
	tests := []struct {
		name  string
		input []byte
		want  string
	}{
		{"zero length", []byte{0, 0, 0, 0}, "out of range"},
		{"over cap", []byte{0xff, 0xff, 0xff, 0xff}, "out of range"},
		{"truncated body", []byte{0, 0, 0, 9, 1, 2}, "unexpected EOF"},
		{"truncated header", []byte{0, 0}, "unexpected EOF"},
	}
	for _, tt := range tests {
		_, err := NewFrameReader(bytes.NewReader(tt.input)).Next()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := NewFrameReader(bytes.NewReader(nil)).Next(); !errors.Is(err, io.EOF) {
		t.Errorf("empty stream: %v, want io.EOF", err)
	}
}

func TestHostileBodies(t *testing.T) {
	deep := bytes.Repeat([]byte{0x91}, MaxDepth+5)
	tests := []struct {
		name string
		body []byte
	}{
		{"not a map", []byte{0x91, 0x01}},
		{"garbage", []byte{0xc1}},
		{"array longer than frame", []byte("\x81\xa5cases\xdd\x7f\xff\xff\xff")},
		{"map longer than frame", append([]byte("\x81\xa5cases\x91"), 0xdf, 0x7f, 0xff, 0xff, 0xff)},
		{"too deep", append(append([]byte("\x81\xa5cases\x91"), deep...), 0xc0)},
		{"no type", []byte{0x80}},
		{"trailing bytes", []byte("\x81\xa4type\xa5batch\xc0")},
		{"result without digest", []byte("\x82\xa4type\xa7results\xa7results\x91\x81\xa9canonical\xc4\x01x")},
		{"short digest", []byte("\x82\xa4type\xa7results\xa7results\x91\x82\xa9canonical\xc4\x01x\xa6digest\xc4\x01x")},
		{"short digest alone", []byte("\x82\xa4type\xa7results\xa7results\x91\x81\xa6digest\xc4\x01x")},
		{"empty result", []byte("\x82\xa4type\xa7results\xa7results\x91\x80")},
		{"error and canonical", []byte("\x82\xa4type\xa7results\xa7results\x91\x82\xa5error\xa8too_deep\xa9canonical\xc4\x01x")},
		{"digest_only not a bool", []byte("\x82\xa4type\xa5batch\xabdigest_only\x01")},
	}
	for _, tt := range tests {
		var m Message
		if err := NewDecoder().Decode(tt.body, &m); err == nil {
			t.Errorf("%s: decoded without error: %+v", tt.name, m)
		}
	}
}

func TestResultsRoundTrip(t *testing.T) {
	in := []Result{{Canonical: []byte(`{"args":{},"tool_name":"t"}`), Digest: make([]byte, 32)}, {Error: "too_deep", Message: "deep"}, {Canonical: []byte{}, Digest: make([]byte, 32)}}
	frame, err := NewEncoder().Results(3, in)
	if err != nil {
		t.Fatal(err)
	}
	var m Message
	if err := NewDecoder().Decode(frame[4:], &m); err != nil {
		t.Fatal(err)
	}
	if m.ID != 3 || len(m.Results) != 3 || string(m.Results[0].Canonical) != string(in[0].Canonical) || m.Results[1].Error != "too_deep" || m.Results[2].Canonical == nil {
		t.Errorf("got %+v", m)
	}
}

// A results response may say what its batch cost the worker; without the
// field, the cost is 0, unknown.
func TestTimedResultsRoundTrip(t *testing.T) {
	in := []Result{{Digest: make([]byte, DigestSize)}}
	for _, cpu := range []uint64{0, 1, 123456789} {
		frame, err := NewEncoder().TimedResults(5, in, cpu)
		if err != nil {
			t.Fatal(err)
		}
		var m Message
		if err := NewDecoder().Decode(frame[4:], &m); err != nil {
			t.Fatal(err)
		}
		if m.Type != TypeResults || m.ID != 5 || len(m.Results) != 1 || m.BatchCPUNS != cpu {
			t.Errorf("cpu %d: got %+v", cpu, m)
		}
	}
}

// A digest_only batch says so, and its answers may leave the text out: the
// digests come back, each in its own 32 bytes.
func TestDigestOnlyRoundTrip(t *testing.T) {
	cases, err := EncodeCases([]any{"a", int64(1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, digestOnly := range []bool{false, true} {
		head, err := NewEncoder().BatchHead(9, cases, digestOnly)
		if err != nil {
			t.Fatal(err)
		}
		frame := append(bytes.Clone(head), cases...)
		if n := binary.BigEndian.Uint32(frame); int(n) != len(frame)-4 {
			t.Errorf("digestOnly %v: length prefix %d, frame body %d bytes", digestOnly, n, len(frame)-4)
		}
		var m Message
		if err := NewDecoder().Decode(frame[4:], &m); err != nil {
			t.Fatal(err)
		}
		if m.Type != TypeBatch || m.ID != 9 || len(m.Cases) != 2 || m.DigestOnly != digestOnly {
			t.Errorf("digestOnly %v: got %+v", digestOnly, m)
		}
	}
	d1, d2 := bytes.Repeat([]byte{1}, DigestSize), bytes.Repeat([]byte{2}, DigestSize)
	in := []Result{{Digest: d1}, {Error: "too_deep", Message: "deep"}, {Digest: d2}}
	frame, err := NewEncoder().Results(4, in)
	if err != nil {
		t.Fatal(err)
	}
	var m Message
	if err := NewDecoder().Decode(frame[4:], &m); err != nil {
		t.Fatal(err)
	}
	got := m.Results
	if len(got) != 3 || got[0].Canonical != nil || !bytes.Equal(got[0].Digest, d1) || got[1].Digest != nil || !bytes.Equal(got[2].Digest, d2) {
		t.Fatalf("got %+v", got)
	}
	// The digests share one allocation; appending to one must not reach the next.
	_ = append(got[0].Digest, 9)
	if !bytes.Equal(got[2].Digest, d2) || got[1].Error != "too_deep" {
		t.Errorf("digests overlap: %+v", got)
	}
}

// A string that is neither UTF-8 nor WTF-8 cannot go on the wire: the
// batch fails to encode rather than send bytes no worker could read alike.
func TestEncodeRefusesBrokenStrings(t *testing.T) {
	for _, s := range []string{"\xff", "a\xed\xa0", "\xc0\x80", "\xed\xa0\x80\xfe", strings.Repeat("\U0001F600", 200) + "\x80"} {
		if _, err := EncodeCases([]any{s}, nil); err == nil || !strings.Contains(err.Error(), "not UTF-8 or WTF-8") {
			t.Errorf("%q: error %v, want one saying it is not UTF-8 or WTF-8", s, err)
		}
	}
}

// TestAppendBig checks the stack path of big integers' digits against
// math/big: around each 10^19 chunk, at the word limit and past it (where
// math/big takes over), signed, and over random magnitudes of 1 to 9 words.
func TestAppendBig(t *testing.T) {
	pow := func(b, e int64) *big.Int { return new(big.Int).Exp(big.NewInt(b), big.NewInt(e), nil) }
	add := func(x *big.Int, d int64) *big.Int { return new(big.Int).Add(x, big.NewInt(d)) }
	values := []*big.Int{
		big.NewInt(0), big.NewInt(7), big.NewInt(-7),
		pow(10, 19), add(pow(10, 19), -1), add(pow(10, 19), 1), pow(10, 38), add(pow(10, 38), -1),
		pow(2, 64), add(pow(2, 64), -1), pow(2, 128), add(pow(2, 128), -1),
		add(pow(2, 512), -1), pow(2, 512), new(big.Int).Neg(add(pow(2, 512), -1)),
		new(big.Int).Neg(pow(2, 64)), new(big.Int).Neg(pow(10, 57)),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		words := make([]big.Word, 1+rng.IntN(9))
		for i := range words {
			words[i] = big.Word(rng.Uint64() >> rng.IntN(64))
		}
		v := new(big.Int).SetBits(words)
		if rng.IntN(2) == 0 {
			v.Neg(v)
		}
		values = append(values, v)
	}
	for _, v := range values {
		if got, want := string(appendBig([]byte("x"), v)), "x"+v.String(); got != want {
			t.Errorf("appendBig(%s) = %s", want[1:], got[1:])
		}
	}
}

// TestUTF16Form checks the ext 2 form of lone-surrogate strings, whose
// length is counted and whose ASCII runs are widened eight bytes at a
// time, against a rune at a time: over random mixes of ASCII runs, 2-, 3-
// and 4-byte characters and lone surrogates, at every alignment.
func TestUTF16Form(t *testing.T) {
	pieces := []string{"a", "abcdefgh", "0123456789abcdefghij", "\"\\\x00\x7f", "\u00e9", "\u20ac", "\U0001F600", "\xed\xa0\x80", "\xed\xbf\xbf"}
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 2000 {
		var b strings.Builder
		last := ""
		for range r.IntN(40) {
			p := pieces[r.IntN(len(pieces))]
			if last == "\xed\xa0\x80" && p == "\xed\xbf\xbf" {
				continue // a pair, which WTF-8 writes as one astral character
			}
			b.WriteString(p)
			last = p
		}
		b.WriteString("\xed\xa0\x80"[:3*(n%2)]) // half of them end on a lone one
		b.WriteString(strings.Repeat("x", n%9))
		s := b.String()
		want := 0
		for i := 0; i < len(s); {
			c, size := utf8.DecodeRuneInString(s[i:])
			if c == utf8.RuneError && size == 1 {
				c, size = surrogateAt(s, i)
			}
			want += max(utf16.RuneLen(c), 1) // -1 for a surrogate
			i += size
		}
		if got := utf16Len(s); got != want {
			t.Fatalf("utf16Len(%q) = %d, want %d", s, got, want)
		}
		data, err := EncodeValue(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		back, err := DecodeValue(data)
		if err != nil || back != s {
			t.Fatalf("%q came back as %q (%v)", s, back, err)
		}
	}
}

// A CaseEncoder given its cases one at a time makes EncodeCases' bytes, and
// refuses an array of the wrong length or a case it cannot encode, naming
// the case, with every later call.
func TestCaseEncoder(t *testing.T) {
	cases := []any{"a", int64(1), []any{Object{{Key: "k", Value: 1.5}}}, "\xed\xa0\x80"}
	want, err := EncodeCases(cases, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		n       int   // the array's announced length
		add     []any // the cases added
		wantErr string
	}{
		{"whole", len(cases), cases, ""},
		{"short", len(cases), cases[:2], "2 cases added to an array of 4"},
		{"long", 2, cases, "case 2 of an array of 2"},
		{"broken", 3, []any{"a", "\xff", int64(1)}, "case 1: string is not UTF-8 or WTF-8 at byte 0"},
		{"unencodable", 2, []any{struct{}{}, "a"}, "case 0: cannot encode struct {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ce := NewCaseEncoder([]byte("stale"), tt.n)
			for _, c := range tt.add {
				ce.Add(c, false)
			}
			got, err := ce.Bytes()
			if tt.wantErr == "" {
				if err != nil || !bytes.Equal(got, append([]byte("stale"), want...)) {
					t.Fatalf("Bytes = %x, %v; want %x after the stale prefix", got, err, want)
				}
				return
			}
			if err == nil || err.Error() != tt.wantErr {
				t.Fatalf("Bytes error %v, want %q", err, tt.wantErr)
			}
			if err := ce.Add("a", true); err == nil || err.Error() != tt.wantErr {
				t.Errorf("Add after the error: %v, want %q again", err, tt.wantErr)
			}
		})
	}
}
