package corpus

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/compare"
)

// A nondeterministic entry keeps both answers (Earlier), and one with calls
// to run first keeps them in order, as format 2, which this reader takes
// and writes again byte for byte; an entry without them stays format 1.
// Each is named by its kind, so that it never takes the file of its
// input's divergence.
func TestSequenceEntry(t *testing.T) {
	sig := compare.Signature{Kind: compare.KindNondeterministic, Cause: "depends on an earlier call", Deviants: []string{"sdk"}}
	e := &Entry{Input: "cd", Kind: KindNondeterministic, Signatures: compare.Signatures{sig}, Before: []any{"ab", []byte{1}},
		Outcomes: []Outcome{{Adapter: "go", Canonical: `"cd"`}, {Adapter: "sdk", Canonical: `"ab"`}},
		Earlier:  []Outcome{{Adapter: "sdk", Digest: "00"}}}
	data := e.Marshal()
	if !bytes.HasPrefix(data, []byte(`{`+"\n"+`  "difffuzz_corpus": 2`)) {
		t.Fatalf("written as\n%s\nwant format 2", data)
	}
	got, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Before) != 2 || got.Before[0] != "ab" || !bytes.Equal(got.Before[1].([]byte), []byte{1}) || len(got.Earlier) != 1 || got.Earlier[0].Digest != "00" {
		t.Errorf("read %+v", got)
	}
	if again := got.Marshal(); !bytes.Equal(again, data) {
		t.Errorf("written again as\n%s\nwant\n%s", again, data)
	}
	plain := &Entry{Input: "cd", Kind: "divergence"}
	if !bytes.Contains(plain.Marshal(), []byte(`"difffuzz_corpus": 1`)) {
		t.Errorf("an entry without Before is not format 1:\n%s", plain.Marshal())
	}
	if EntryPath("d", e) == EntryPath("d", plain) || EntryPath("d", plain) != filepath.Join("d", Name("cd")) {
		t.Error("a nondeterministic entry takes its input's file")
	}
	alone := *e
	alone.Before = nil
	if EntryPath("d", e) == EntryPath("d", &alone) {
		t.Error("an entry with calls before it is named as its input alone")
	}
	if _, err := Unmarshal([]byte(`{"difffuzz_corpus": 2, "input": 1}`)); err == nil || !strings.Contains(err.Error(), "before_0") {
		t.Errorf("format 2 without calls: %v", err)
	}
	if _, err := Unmarshal([]byte(`{"difffuzz_corpus": 3, "input": 1}`)); err == nil {
		t.Error("format 3 read")
	}
}
