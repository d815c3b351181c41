package kittest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"lukechampine.com/blake3"

	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/kits/go/kit/kittest"
)

// marshal is a naive SDK over encoding/json: right for the simple cases
// below, and a spec error for a JSON text it cannot read.
func marshal(dst []byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(dst, b...), err
}

func text(dst []byte, t []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(t, &v); err != nil {
		return nil, &kit.SpecError{Code: "unsupported_value", Message: err.Error()}
	}
	return marshal(dst, v)
}

var errPlain = errors.New("no")

func TestRunNative(t *testing.T) {
	got, err := kittest.Run(kit.Native(kit.Float64), marshal,
		[]any{"a", 1.5}, kit.Object{{Key: "k", Value: true}, {Key: "k", Value: false}})
	if err != nil {
		t.Fatal(err)
	}
	if string(got[0].Canonical) != `["a",1.5]` {
		t.Errorf("case 0: canonical %q", got[0].Canonical)
	}
	if sum := blake3.Sum256(got[0].Canonical); !bytes.Equal(got[0].Digest, sum[:]) {
		t.Errorf("case 0: digest %x, want BLAKE3 of the text", got[0].Digest)
	}
	if got[1].Inexpressible != "duplicate_key" {
		t.Errorf("case 1: %+v, want inexpressible duplicate_key", got[1])
	}
}

func TestRunText(t *testing.T) {
	got, err := kittest.Run(kit.Text, text, `{"b":1,"a":2}`, []byte(`{`))
	if err != nil {
		t.Fatal(err)
	}
	if string(got[0].Canonical) != `{"a":2,"b":1}` {
		t.Errorf("case 0: canonical %q", got[0].Canonical)
	}
	if got[1].Code != "unsupported_value" {
		t.Errorf("case 1: %+v, want the spec error unsupported_value", got[1])
	}
	if _, err := kittest.Run(kit.Text, text, 1.5); err == nil {
		t.Error("a text model's case that is no text: no error")
	}
}

func TestRunFailures(t *testing.T) {
	tests := []struct {
		name     string
		fn       kit.Func[[]byte]
		wantType string
	}{
		// errors.New's type names no cause: the kit leaves it out, and the
		// driver reads the message as a template instead.
		{"plain error", func([]byte, any) ([]byte, error) { return nil, errPlain }, ""},
		{"typed error", func([]byte, any) ([]byte, error) { return nil, &json.UnsupportedValueError{Str: "x"} }, "*json.UnsupportedValueError"},
		{"panic", func([]byte, any) ([]byte, error) { panic("boom") }, "panic"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := kittest.Run(kit.Exact, tt.fn, "x")
			if err != nil {
				t.Fatal(err)
			}
			if got[0].Code != "internal" || got[0].ErrorType != tt.wantType {
				t.Errorf("got %+v, want internal %s", got[0], tt.wantType)
			}
		})
	}
}

func TestRunSigned(t *testing.T) {
	own := bytes.Repeat([]byte{7}, 32)
	fn := func(dst []byte, v any) (kit.Signed, error) {
		return kit.Signed{Canonical: []byte(`"x"`), Digest: own}, nil
	}
	got, err := kittest.Run(kit.Exact, fn, "x")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got[0].Digest, own) {
		t.Errorf("digest %x, want the SDK's own", got[0].Digest)
	}
}
