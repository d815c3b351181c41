package corpus

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/compare"
)

// A corpus file written before entries held their signatures typed reads
// back with each signature typed, and is written again byte for byte: the
// text on disk is compare.Signatures's MarshalText, unchanged. The file is
// the old code's output and has no -update: written by this code, it would
// prove nothing.
func TestGoldenEntry(t *testing.T) {
	path := filepath.Join("testdata", "entry-v1.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	want := compare.Signatures{
		{Kind: compare.KindNumber, Cause: "a number of 1e21 or more printed in full (want exponent form)", Deviants: []string{"go", "ts"}},
		{Kind: compare.KindString, Cause: `non-ASCII written raw (want \uXXXX)`, Deviants: []string{"python"}},
	}
	if len(e.Signatures) != len(want) || !e.Signatures[0].Equal(want[0]) || !e.Signatures[1].Equal(want[1]) {
		t.Errorf("signatures %#v, want %#v", e.Signatures, want)
	}
	if e.OldSignature || e.Contract != "jcs" || e.Seed != 42 || e.Index != 7 || len(e.Outcomes) != 2 {
		t.Errorf("read %+v", e)
	}
	if got := e.Marshal(); !bytes.Equal(got, data) {
		t.Errorf("written again as\n%s\nwant\n%s", got, data)
	}
}

// A signature of the form before causes leaves the entry readable, to be
// replayed, and marked; a malformed one makes the file malformed.
func TestEntrySignatureForms(t *testing.T) {
	entry := func(sig string) []byte {
		return []byte(`{"difffuzz_corpus": 1, "input": [], "kind": "divergence", "signature": ` + strings.ReplaceAll(`"SIG"`, "SIG", sig) + `}`)
	}
	for _, tt := range []struct {
		sig     string
		n       int  // signatures read
		old     bool // OldSignature
		wantErr bool
	}{
		{sig: "key_order: keys in UTF-16 order: ts", n: 1},
		{sig: "key_order: ts rust", old: true},
		{sig: "key_order: keys in UTF-16 order: ts; number: go", old: true},
		{sig: "key_order", wantErr: true},
	} {
		e, err := Unmarshal(entry(tt.sig))
		if tt.wantErr {
			if err == nil || errors.Is(err, compare.ErrOldSignature) {
				t.Errorf("%q: error %v, want a malformed signature", tt.sig, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.sig, err)
			continue
		}
		if len(e.Signatures) != tt.n || e.OldSignature != tt.old {
			t.Errorf("%q: %d signatures, old %v; want %d, %v", tt.sig, len(e.Signatures), e.OldSignature, tt.n, tt.old)
		}
	}
}
