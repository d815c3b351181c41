package kit_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/kits/go/wire"

	"lukechampine.com/blake3"
)

func obj(kv ...any) kit.Object {
	var o kit.Object
	for i := 0; i < len(kv); i += 2 {
		o = append(o, kit.Member{Key: kv[i].(string), Value: kv[i+1]})
	}
	return o
}

// A worker's answer (Compute, wire.Answer behind the kit) turns every way an implementation can end into one result: text
// and digest, a spec code, or internal for a panic or an uncoded error.
// libraryError is an implementation's own error type carrying a spec code,
// as canonjson.Error does.
type libraryError struct{}

func (libraryError) Error() string     { return "the key \"a\" is duplicated" }
func (libraryError) ErrorCode() string { return "duplicate_key" }

// library fails as an implementation does, its coded error wrapped.
func library(dst []byte, _ any) ([]byte, error) {
	return dst, fmt.Errorf("canonical: %w", libraryError{})
}

func TestCompute(t *testing.T) {
	boom := func([]byte, any) ([]byte, error) { panic("boom") }
	plain := func([]byte, any) ([]byte, error) { return nil, errors.New("no") }
	coded := func([]byte, any) ([]byte, error) { return nil, &kit.SpecError{Code: "too_deep", Message: "deep"} }
	wrapped := func([]byte, any) ([]byte, error) {
		return nil, fmt.Errorf("sdk: %w", &kit.SpecError{Code: "unsupported_value"})
	}
	notSpec := func([]byte, any) ([]byte, error) { return nil, &kit.SpecError{Code: "internal", Message: "x"} }
	typed := func([]byte, any) ([]byte, error) {
		return nil, fmt.Errorf("args: %w", json.Unmarshal([]byte("{"), new(any)))
	}
	ok := func(dst []byte, v any) ([]byte, error) { return append(dst, "null"...), nil }
	sum := blake3.Sum256([]byte("null"))
	tests := []struct {
		name    string
		fn      kit.Func[[]byte]
		digest  bool
		want    wire.Result
		message string
	}{
		{"text", ok, false, wire.Result{Canonical: []byte("null"), Digest: sum[:]}, ""},
		{"digest only", ok, true, wire.Result{Digest: sum[:]}, ""},
		{"panic", boom, false, wire.Result{Error: wire.ErrorInternal, ErrorType: kit.PanicType}, "panic: boom"},
		{"uncoded error", plain, false, wire.Result{Error: wire.ErrorInternal}, "no"},
		{"typed error", typed, false, wire.Result{Error: wire.ErrorInternal, ErrorType: "*json.SyntaxError"}, "args: unexpected end"},
		{"coded error", coded, true, wire.Result{Error: "too_deep"}, "too_deep: deep"},
		{"wrapped spec error", wrapped, false, wire.Result{Error: "unsupported_value"}, "sdk: unsupported_value"},
		{"not a spec code", notSpec, false, wire.Result{Error: wire.ErrorInternal, ErrorType: "*kit.SpecError"}, `not a spec error code "internal"`},
		{"library error", library, false, wire.Result{Error: "duplicate_key"}, "duplicate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s wire.Scratch
			got := kit.Compute(kit.Exact, tt.fn, obj("a", 1, "a", 2), tt.digest, &s)
			if !strings.Contains(got.Message, tt.message) {
				t.Errorf("message %q, want it to contain %q", got.Message, tt.message)
			}
			got.Message = ""
			got.Frames = nil
			if !reflect.DeepEqual(tt.want, got) {
				t.Errorf("result\nwant %+v\n got %+v", tt.want, got)
			}
		})
	}
}

// The native model never converts lossily: each case it cannot hold gets
// its reason, and the rest arrive as encoding/json would produce them.
func TestNative(t *testing.T) {
	big70 := new(big.Int).Lsh(big.NewInt(1), 70)
	tests := []struct {
		name    string
		numbers kit.Numbers
		in      any
		want    any
		reason  string
	}{
		{"object", kit.Float64, obj("b", int64(1), "a", []any{"x", nil, true}), map[string]any{"a": []any{"x", nil, true}, "b": 1.0}, ""},
		{"proto key", kit.Float64, obj("__proto__", 0.5), map[string]any{"__proto__": 0.5}, ""},
		{"repeated key", kit.Float64, obj("a", 1.0, "b", obj("k", 1.0, "k", 2.0)), nil, wire.ReasonDuplicateKey},
		{"repeated key far apart", kit.Float64, obj("k", 1.0, "x", 1.0, "y", 1.0, "k", 2.0), nil, wire.ReasonDuplicateKey},
		{"2^53 fits", kit.Float64, int64(1 << 53), float64(1 << 53), ""},
		{"2^53+1", kit.Float64, int64(1<<53 + 1), nil, wire.ReasonBigInt},
		{"-2^53-1", kit.Float64, int64(-(1 << 53) - 1), nil, wire.ReasonBigInt},
		{"big as float64", kit.Float64, big70, nil, wire.ReasonBigInt},
		{"big as json.Number", kit.JSONNumber, big70, json.Number(big70.String()), ""},
		{"int as json.Number", kit.JSONNumber, int64(-7), json.Number("-7"), ""},
		{"lone surrogate value", kit.Float64, []any{"a\xed\xa0\x80"}, nil, wire.ReasonLoneSurrogate},
		{"lone surrogate key", kit.Float64, obj("\xed\xbf\xbf", 1.0), nil, wire.ReasonLoneSurrogate},
		{"non-string key", kit.Float64, kit.RawObject{{Key: int64(1), Value: 1.0}}, nil, wire.ReasonNonStringKey},
		{"bin", kit.Float64, wire.Unsupported{Reason: "bin"}, nil, wire.ReasonUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := kit.Native(tt.numbers)
			got, err := m.Convert(tt.in)
			bad, _ := err.(*kit.Inexpressible)
			if err != nil && bad == nil {
				t.Fatalf("Convert: %v, want an *Inexpressible", err)
			}
			switch {
			case tt.reason != "":
				if bad == nil || bad.Reason != tt.reason {
					t.Fatalf("Convert = %v, %+v; want reason %s", got, bad, tt.reason)
				}
				if !contains(m.Reasons(), bad.Reason) {
					t.Errorf("reason %s not declared in %v", bad.Reason, m.Reasons())
				}
			case bad != nil:
				t.Fatalf("Convert: inexpressible %+v", bad)
			default:
				if !reflect.DeepEqual(tt.want, got) {
					t.Errorf("Convert = %#v, want %#v", got, tt.want)
				}
			}
		})
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Serve answers a hello, a batch (with an inexpressible case, and its
// cost), a bench and a request it cannot read, then ends cleanly at EOF.
func TestServe(t *testing.T) {
	enc, dec := wire.NewEncoder(), wire.NewDecoder()
	var in bytes.Buffer
	batch, _ := enc.Batch(1, []any{obj("a", 1.0), obj("a", 1.0, "a", 2.0)})
	in.Write(batch)
	bench, _ := enc.Bench(2, []any{obj("a", 1.0)}, 3)
	in.Write(bench)
	in.Write(wire.Raw([]byte{0x93, 1, 2, 3})) // an array, not a map
	var out, logs bytes.Buffer
	opts := kit.Options{Name: "t", Version: "1"}
	fn := func(dst []byte, v any) ([]byte, error) { // encoding/json sorts a map's keys
		b, err := json.Marshal(v)
		return append(dst, b...), err
	}
	if code := kit.Serve(kit.Channel{In: &in, Out: &out}, &logs, opts, kit.Native(kit.Float64), fn); code != 0 {
		t.Fatalf("Serve = %d, want 0; log %s", code, logs.String())
	}
	frames := wire.NewFrameReader(&out)
	var msgs []wire.Message
	for {
		body, err := frames.Next()
		if err != nil {
			break
		}
		var m wire.Message
		if err := dec.Decode(body, &m); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	if len(msgs) != 4 {
		t.Fatalf("%d frames, want 4", len(msgs))
	}
	if h := msgs[0].Hello; h.Protocol != 2 || h.Model != "native" || !contains(h.Inexpressible, "duplicate_key") {
		t.Errorf("hello %+v", h)
	}
	if r := msgs[1].Results; len(r) != 2 || string(r[0].Canonical) != `{"a":1}` || r[1].Inexpressible != "duplicate_key" {
		t.Errorf("results %+v", r)
	}
	if msgs[1].BatchCPUNS == 0 {
		t.Error("results do not say what the batch cost (batch_cpu_ns)")
	}
	if b := msgs[2].Bench; b.Count != 3 || b.ElapsedNS == 0 || b.DecodeElapsedNS == 0 {
		t.Errorf("bench %+v", b)
	}
	if msgs[3].Type != wire.TypeError {
		t.Errorf("unreadable request answered %q, want error", msgs[3].Type)
	}
}

// A frame length out of range ends the worker with status 2: the stream
// cannot be resynchronised.
func TestServeBadFrame(t *testing.T) {
	for _, in := range [][]byte{{0, 0, 0, 0}, {0xff, 0xff, 0xff, 0xff}, {0, 0, 0, 9, 0x80}} {
		var out, logs bytes.Buffer
		if code := kit.Serve(kit.Channel{In: bytes.NewReader(in), Out: &out}, &logs, kit.Options{Name: "t", Version: "1"}, kit.Exact, kit.Func[[]byte](nil)); code != 2 {
			t.Errorf("input %x: status %d, want 2", in, code)
		}
	}
}

// The digests one Scratch hands out stay each case's own, across slabs,
// and a sent text never shares the reused buffer.
func TestScratchNeverReusesADigest(t *testing.T) {
	var s wire.Scratch
	fn := func(dst []byte, v any) ([]byte, error) { return strconv.AppendInt(dst, v.(int64), 10), nil }
	var results []wire.Result
	for i := range 600 { // over two slabs
		results = append(results, kit.Compute(kit.Exact, fn, int64(i), i%2 == 0, &s))
	}
	for i, r := range results {
		text := fmt.Sprint(i)
		if sum := blake3.Sum256([]byte(text)); !bytes.Equal(r.Digest, sum[:]) {
			t.Fatalf("case %d: digest overwritten by a later case", i)
		}
		if i%2 == 1 && string(r.Canonical) != text {
			t.Fatalf("case %d: text %q, want %q", i, r.Canonical, text)
		}
	}
}

// A digest-only answer with a Scratch costs no allocation of its own (the
// slab's one in 256 rounds down to none), for either kind of Output: the
// in-process adapter runs Compute on the fuzzing loop's hot path.
func TestComputeAllocations(t *testing.T) {
	own := bytes.Repeat([]byte{7}, 32)
	text := func(dst []byte, _ any) ([]byte, error) { return append(dst, "null"...), nil }
	signed := func(dst []byte, _ any) (kit.Signed, error) {
		return kit.Signed{Canonical: append(dst, "null"...), Digest: own}, nil
	}
	var s wire.Scratch
	textCall, signedCall := kit.Call(kit.Exact, text), kit.Call(kit.Exact, signed)
	for name, compute := range map[string]func(){
		"text":   func() { wire.Answer(textCall, nil, true, &s) },
		"signed": func() { wire.Answer(signedCall, nil, true, &s) },
	} {
		if n := testing.AllocsPerRun(1000, compute); n != 0 {
			t.Errorf("%s: %v allocations a case, want 0", name, n)
		}
	}
}

// A text is hashed a chunk at a time up to serialHashMax and in one call
// past it: either way, and at every boundary, the digest is BLAKE3's.
func TestDigestOfEveryLength(t *testing.T) {
	var s wire.Scratch
	for _, n := range []int{0, 1, 64, 1023, 1024, 1025, 2048, 5000, 16383, 16384, 16385, 40000, 1 << 20} {
		text := bytes.Repeat([]byte{'x', 0x80, 7}, n/3+1)[:n]
		fn := func(dst []byte, _ any) ([]byte, error) { return append(dst, text...), nil }
		want := blake3.Sum256(text)
		for _, digestOnly := range []bool{true, false} {
			if r := kit.Compute(kit.Exact, fn, nil, digestOnly, &s); !bytes.Equal(r.Digest, want[:]) {
				t.Errorf("%d bytes (digest only %v): digest %x, want %x", n, digestOnly, r.Digest, want)
			}
		}
	}
}

// A signing SDK's digest is the one sent, in full and digest-only answers
// alike, even when it is not BLAKE3 of the text (the driver judges that);
// one that is not 32 bytes long is an internal result, and a signing SDK
// fails as any other.
func TestComputeSigned(t *testing.T) {
	own := bytes.Repeat([]byte{7}, 32)
	sign := func(d []byte) kit.Func[kit.Signed] {
		return func(dst []byte, _ any) (kit.Signed, error) {
			return kit.Signed{Canonical: append(dst, "null"...), Digest: d}, nil
		}
	}
	coded := func([]byte, any) (kit.Signed, error) {
		return kit.Signed{}, &kit.SpecError{Code: "too_deep", Message: "deep"}
	}
	tests := []struct {
		name    string
		fn      kit.Func[kit.Signed]
		digest  bool
		want    wire.Result
		message string
	}{
		{"text", sign(own), false, wire.Result{Canonical: []byte("null"), Digest: own}, ""},
		{"digest only", sign(own), true, wire.Result{Digest: own}, ""},
		{"short digest", sign(own[:31]), false, wire.Result{Error: wire.ErrorInternal}, "digest is 31 bytes long, want 32"},
		{"no digest", sign(nil), true, wire.Result{Error: wire.ErrorInternal}, "digest is 0 bytes long"},
		{"coded error", coded, false, wire.Result{Error: "too_deep"}, "deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s wire.Scratch
			got := kit.Compute(kit.Exact, tt.fn, nil, tt.digest, &s)
			if !strings.Contains(got.Message, tt.message) {
				t.Errorf("message %q, want it to contain %q", got.Message, tt.message)
			}
			got.Message = ""
			got.Frames = nil
			if !reflect.DeepEqual(tt.want, got) {
				t.Errorf("result\nwant %+v\n got %+v", tt.want, got)
			}
		})
	}
}

// Serve answers a batch with a signing SDK's own digest.
func TestServeSigned(t *testing.T) {
	own := bytes.Repeat([]byte{9}, 32)
	fn := func(dst []byte, _ any) (kit.Signed, error) {
		return kit.Signed{Canonical: append(dst, "1"...), Digest: own}, nil
	}
	enc, dec := wire.NewEncoder(), wire.NewDecoder()
	var in, out, logs bytes.Buffer
	cases, err := wire.EncodeCases([]any{int64(1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, digestOnly := range []bool{false, true} {
		head, err := enc.BatchHead(1, cases, digestOnly)
		if err != nil {
			t.Fatal(err)
		}
		in.Write(head)
		in.Write(cases)
	}
	if code := kit.Serve(kit.Channel{In: &in, Out: &out}, &logs, kit.Options{Name: "t", Version: "1"}, kit.Exact, fn); code != 0 {
		t.Fatalf("Serve = %d, want 0; log %s", code, logs.String())
	}
	frames := wire.NewFrameReader(&out)
	frames.Next() // the hello
	for i, wantText := range []string{"1", ""} {
		body, err := frames.Next()
		var m wire.Message
		if err == nil {
			err = dec.Decode(body, &m)
		}
		if err != nil {
			t.Fatal(err)
		}
		if r := m.Results; len(r) != 1 || string(r[0].Canonical) != wantText || !bytes.Equal(r[0].Digest, own) {
			t.Errorf("batch %d: results %+v, want text %q and the SDK's digest", i, r, wantText)
		}
	}
}

// The text model hands fn the driver's bytes as they came, and refuses a
// case that is not text rather than show fn a value.
func TestTextModel(t *testing.T) {
	var got []byte
	echo := func(dst, text []byte) ([]byte, error) {
		got = text
		return append(dst, "null"...), nil
	}
	in := []byte(" {\"a\" :\t1.0E0}\n")
	if r := kit.Compute(kit.Text, echo, in, false, nil); r.Error != "" || &got[0] != &in[0] || len(got) != len(in) {
		t.Errorf("result %+v; fn got %q at %p, sent %q at %p", r, got, got, in, in)
	}
	for _, v := range []any{kit.Object{}, "{}", nil} {
		r := kit.Compute(kit.Text, echo, v, false, nil)
		if r.Error != wire.ErrorInternal || !strings.Contains(r.Message, "the driver's JSON text (bin)") {
			t.Errorf("%#v: %+v", v, r)
		}
	}
}
