package inprocess

import (
	"context"
	"math"
	"testing"

	"lukechampine.com/blake3"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// TestNewFor checks that the adapter answers by its contract, in both
// batch kinds, and that New keeps this project's.
func TestNewFor(t *testing.T) {
	rfc, err := NewFor("go-jcs", contract.RFC8785)
	if err != nil {
		t.Fatal(err)
	}
	cases := []any{
		[]any{int64(1)},
		value.Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: value.Object{{Key: "s", Value: "é\x7f"}}}},
		math.NaN(),
	}
	type want struct{ text, code string }
	for _, tc := range []struct {
		g    *Go
		want []want
	}{
		{New(""), []want{{code: "bad_envelope"}, {text: `{"args":{"s":"\u00e9\u007f"},"tool_name":"t"}`}, {code: "bad_envelope"}}},
		{rfc, []want{{text: "[1]"}, {text: "{\"args\":{\"s\":\"é\x7f\"},\"tool_name\":\"t\"}"}, {code: "unsupported_value"}}},
	} {
		for _, digestOnly := range []bool{false, true} {
			out := make([]wire.Result, len(cases))
			if err := tc.g.RunBatch(context.Background(), &adapter.Batch{Cases: cases, DigestOnly: digestOnly}, out); err != nil {
				t.Fatal(err)
			}
			for i, r := range out {
				w := tc.want[i]
				if r.Error != w.code {
					t.Errorf("%s (%s) case %d digestOnly=%v: error %q (%s), want %q", tc.g.Name(), tc.g.Contract(), i, digestOnly, r.Error, r.Message, w.code)
				}
				if w.code != "" {
					continue
				}
				if d := blake3.Sum256([]byte(w.text)); string(r.Digest) != string(d[:]) {
					t.Errorf("%s case %d digestOnly=%v: digest is not BLAKE3 of %s", tc.g.Name(), i, digestOnly, w.text)
				}
				if !digestOnly && string(r.Canonical) != w.text {
					t.Errorf("%s case %d: text %s, want %s", tc.g.Name(), i, r.Canonical, w.text)
				}
			}
		}
	}
	if New("").Contract() != contract.Default.Name || rfc.Contract() != contract.RFC8785.Name || rfc.Name() != "go-jcs" {
		t.Errorf("contracts %q %q, name %q", New("").Contract(), rfc.Contract(), rfc.Name())
	}
}

// TestNewForChecks checks that a contract failing its Check is refused.
func TestNewForChecks(t *testing.T) {
	c := contract.RFC8785
	c.MaxDepth = 0
	if _, err := NewFor("go", c); err == nil {
		t.Error("NewFor(max_depth = 0) succeeded")
	}
}
