package adapter

import (
	"bytes"
	"errors"
	"testing"

	canonjson "difffuzz/adapters/go"
	"difffuzz/harness/wire"
)

// TestBatchStorage checks that a batch encodes into the storage it is
// given, from its start, with the bytes a fresh encoding has; that the
// storage grows when it is short; and that a released batch cannot be sent.
func TestBatchStorage(t *testing.T) {
	cases := []any{
		canonjson.Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: canonjson.Object{{Key: "k", Value: []any{int64(1), "v", 1.5}}}}},
		canonjson.Object{{Key: "tool_name", Value: "u"}, {Key: "args", Value: canonjson.Object{}}},
	}
	want, err := wire.EncodeCases(cases, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		storage []byte
		reused  bool // the encoding lies in the storage given
	}{
		{"none", nil, false},
		{"room", append(make([]byte, 0, 4096), "stale bytes"...), true},
		{"short", make([]byte, 3), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Batch{Cases: cases, Storage: tt.storage}
			got, err := b.Encoded()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("Encoded = %x, want %x", got, want)
			}
			if reused := tt.storage != nil && &got[0] == &tt.storage[:1][0]; reused != tt.reused {
				t.Errorf("encoded in the storage given: %v, want %v", reused, tt.reused)
			}
			s := b.Release()
			if len(s) != 0 || cap(s) < len(want) {
				t.Errorf("Release = len %d cap %d, want len 0 and cap at least %d", len(s), cap(s), len(want))
			}
			if _, err := b.Encoded(); !errors.Is(err, errReleased) {
				t.Errorf("Encoded after Release: err %v, want %v", err, errReleased)
			}
		})
	}
}
