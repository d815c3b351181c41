package triage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/report"
)

func sample() *report.Report {
	return &report.Report{Seed: 7, Shards: 1, Divergences: 4, Distinct: []report.Group{
		{Signature: compare.MustParseSignature("key_order: keys in UTF-16 order: ts"), Kind: "key_order", Count: 3},
		{Signature: compare.MustParseSignature("number: 1e21 printed in full: go"), Kind: "number", Count: 1},
	}}
}

func TestKnownList(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "known.txt")
	tests := []struct {
		text, err string
	}{
		{"# only comments\n\n", ""},
		{"key_order: keys in UTF-16 order: ts # UTF-16 sort, fix in progress\n", ""},
		{"internal: Error: #N failed: ts # a cause may hold a #\n", ""},
		{"key_order: keys in UTF-16 order: ts\n", "known.txt:1: entry \"key_order: keys in UTF-16 order: ts\" has no reason"},
		{"key_order: keys in UTF-16 order: ts #\n", "known.txt:1: entry \"key_order: keys in UTF-16 order: ts\" has no reason"},
		{"nonsense # why\n", "is not a divergence signature"},
		{"number: x: go # a\nnumber: x: go # b\n", "known.txt:2: \"number: x: go\" is listed twice"},
		{"# old\nkey_order: ts # UTF-16 sort\n", "line 2 (and 0 more) names a bug the old way"},
	}
	for _, tt := range tests {
		os.WriteFile(path, []byte(tt.text), 0o644)
		_, err := LoadKnown(path)
		if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("LoadKnown(%q) = %v, want %q", tt.text, err, tt.err)
		}
	}
	// An old list updates to the new form, its reasons carried over.
	os.WriteFile(path, []byte("key_order: ts # UTF-16 sort\n"), 0o644)
	k, _ := LoadKnown(path)
	r := sample()
	if err := k.Update(path, r); err != nil {
		t.Fatal(err)
	}
	k, err := LoadKnown(path)
	if err != nil || len(k.Reasons) != 2 || !strings.HasPrefix(k.Reasons["number: 1e21 printed in full: go"], "TODO") ||
		!strings.HasPrefix(k.Reasons["key_order: keys in UTF-16 order: ts"], "UTF-16 sort (carried over from \"key_order: ts\"") {
		t.Errorf("updated list: %v %v", k.Reasons, err)
	}
	k.Mark(r, true)
	if code := Status(r, false); code != ExitOK {
		t.Errorf("a run that matches its list: exit %d", code)
	}
}

// The exit policy, in one table: an error beats an interruption, which
// beats findings; a known divergence passes, a new one or a stale entry
// fails.
func TestStatus(t *testing.T) {
	known := func(r *report.Report) *report.Report {
		for i := range r.Distinct {
			r.Distinct[i].KnownReason = "accepted"
		}
		return r
	}
	tests := []struct {
		name        string
		r           *report.Report
		interrupted bool
		want        int
	}{
		{"clean", &report.Report{}, false, ExitOK},
		{"new divergences", sample(), false, ExitDivergence},
		{"all known", known(sample()), false, ExitOK},
		{"a stale entry", &report.Report{Stale: []string{"number: 1e21 printed in full: go"}}, false, ExitDivergence},
		{"interrupted", sample(), true, ExitInterrupted},
		{"error", &report.Report{Error: "boom"}, true, ExitSetup},
	}
	for _, tt := range tests {
		if got := Status(tt.r, tt.interrupted); got != tt.want {
			t.Errorf("%s: Status = %d, want %d", tt.name, got, tt.want)
		}
	}
}
