package triage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"difffuzz/harness/report"
)

func sample() *report.Report {
	return &report.Report{Seed: 7, Shards: 1, Divergences: 4, Distinct: []report.Group{
		{Signature: "key_order: ts", Kind: "key_order", Count: 3},
		{Signature: "number: go", Kind: "number", Count: 1},
	}}
}

func TestKnownList(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "known.txt")
	tests := []struct {
		text, err string
	}{
		{"# only comments\n\n", ""},
		{"key_order: ts # UTF-16 sort, fix in progress\n", ""},
		{"key_order: ts\n", "known.txt:1: entry \"key_order: ts\" has no reason"},
		{"nonsense # why\n", "is not a divergence signature"},
		{"number: go # a\nnumber: go # b\n", "known.txt:2: \"number: go\" is listed twice"},
	}
	for _, tt := range tests {
		os.WriteFile(path, []byte(tt.text), 0o644)
		_, err := LoadKnown(path)
		if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("LoadKnown(%q) = %v, want %q", tt.text, err, tt.err)
		}
	}
	k, _ := LoadKnown(filepath.Join(dir, "missing.txt"))
	r := sample()
	if err := k.Update(path, r); err != nil {
		t.Fatal(err)
	}
	k, err := LoadKnown(path)
	if err != nil || len(k.Reasons) != 2 || !strings.HasPrefix(k.Reasons["number: go"], "TODO") {
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
		{"a stale entry", &report.Report{Stale: []string{"number: go"}}, false, ExitDivergence},
		{"interrupted", sample(), true, ExitInterrupted},
		{"error", &report.Report{Error: "boom"}, true, ExitSetup},
	}
	for _, tt := range tests {
		if got := Status(tt.r, tt.interrupted); got != tt.want {
			t.Errorf("%s: Status = %d, want %d", tt.name, got, tt.want)
		}
	}
}
