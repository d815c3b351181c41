package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/value"
	"github.com/google/go-cmp/cmp"
)

// TestRead reads a run's folder as a benchmark leaves it: a report with a
// field the benchmark does not know, a corpus, and a replay log in which
// one kept example of a bucket shows another label.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	corpusDir := filepath.Join(dir, "corpus")
	write := func(key, sig string) string {
		t.Helper()
		in := value.Object{{Key: "tool_name", Value: key}, {Key: "args", Value: value.Object{}}}
		p, err := corpus.Write(corpusDir, &corpus.Entry{Input: in, Kind: "divergence", Signatures: compare.Signatures{compare.MustParseSignature(sig)}})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	const raw, nan = "string_escape: non-ASCII written raw (want \\uXXXX): sdk", "internal: SyntaxError: … on valid input: sdk"
	a, b, c := write("a", raw), write("b", raw), write("c", nan)
	report := fmt.Sprintf(`{"cases": 100, "seconds": 1.5, "field_of_tomorrow": [1], "distinct": [
		{"signature": %q, "count": 7, "first": %q, "minimized": true, "minimized_input": "{}", "minimize_seconds": 0.25},
		{"signature": %q, "count": 2, "first": %q, "minimized": true, "minimized_input": "{}", "minimize_incomplete": true}]}`, raw, a, nan, c)
	replay := strings.Join([]string{
		"DIVERGES   " + a + "  " + raw,
		"DIVERGES   " + b + "  number: a decimal: sdk",
		"DIVERGES   " + c + "  " + nan,
	}, "\n")
	for name, text := range map[string]string{"report.json": report, "replay.log": replay} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := read(dir, Impl{Name: "sdk"}, modelText)
	if err != nil {
		t.Fatal(err)
	}
	quarter := 0.25
	want := Run{Model: modelText, Cases: 100, Buckets: []Bucket{
		{Signature: compare.MustParseSignature(raw), Label: strings.TrimSuffix(raw, ": sdk"), Count: 7, Minimized: true, MinimizeSeconds: &quarter,
			Rechecked: []string{"number: a decimal", strings.TrimSuffix(raw, ": sdk")}, Kept: 2},
		{Signature: compare.MustParseSignature(nan), Label: strings.TrimSuffix(nan, ": sdk"), Count: 2, Rechecked: []string{strings.TrimSuffix(nan, ": sdk")}, Kept: 1},
	}}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("read (-want +got):\n%s", diff)
	}
}

func TestReadWithoutReport(t *testing.T) {
	_, err := read(t.TempDir(), Impl{Name: "sdk"}, modelNative)
	if err == nil || !strings.Contains(err.Error(), "the run wrote no report") {
		t.Fatalf("error %v, want the missing report named", err)
	}
}
