package adapter

import (
	"bytes"
	"errors"
	"testing"

	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// TestBatchEncoding checks that a batch encodes its cases at first use,
// or returns the encoding (or error) it was given; and that a released
// batch hands back the encoding's storage and cannot be sent.
func TestBatchEncoding(t *testing.T) {
	cases := []any{
		value.Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: value.Object{{Key: "k", Value: []any{int64(1), "v", 1.5}}}}},
		value.Object{{Key: "tool_name", Value: "u"}, {Key: "args", Value: value.Object{}}},
	}
	want, err := wire.EncodeCases(cases, nil)
	if err != nil {
		t.Fatal(err)
	}
	given := append(make([]byte, 0, 4096), want...)
	broken := errors.New("case 1: cannot encode")
	tests := []struct {
		name    string
		use     func(b *Batch)
		want    []byte
		wantErr error
		reused  bool // Encoded returns the very bytes given
	}{
		{"encoded at first use", func(*Batch) {}, want, nil, false},
		{"given", func(b *Batch) { b.UseEncoding(given, nil) }, want, nil, true},
		{"given an error", func(b *Batch) { b.UseEncoding(nil, broken) }, nil, broken, false},
		{"given too late", func(b *Batch) { b.Encoded(); b.UseEncoding([]byte("stale"), nil) }, want, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Batch{Cases: cases}
			tt.use(b)
			got, err := b.Encoded()
			if !errors.Is(err, tt.wantErr) || !bytes.Equal(got, tt.want) {
				t.Fatalf("Encoded = %x, %v; want %x, %v", got, err, tt.want, tt.wantErr)
			}
			if reused := len(got) > 0 && &got[0] == &given[0]; reused != tt.reused {
				t.Errorf("Encoded returned the bytes given: %v, want %v", reused, tt.reused)
			}
			s := b.Release()
			if len(s) != 0 || cap(s) < len(tt.want) {
				t.Errorf("Release = len %d cap %d, want len 0 and cap at least %d", len(s), cap(s), len(tt.want))
			}
			if _, err := b.Encoded(); !errors.Is(err, errReleased) {
				t.Errorf("Encoded after Release: err %v, want %v", err, errReleased)
			}
		})
	}
}
