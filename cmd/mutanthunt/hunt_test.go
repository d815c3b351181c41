package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/internal/testworker"
)

// The short hunt, part of make test: a few mutants, each from a different
// edge class, must each be found within a case budget by the real driver
// and worker processes. A generator change that loses one of these classes
// fails here. The budgets are several times what the full hunt needed
// (docs/mutants.md).
func TestShortHunt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts difffuzz and the mutant worker")
	}
	hunts := []struct {
		mutant string
		cases  uint64
	}{
		{"utf16-key-order", 5000},
		{"html-escape", 5000},
		{"bigint-double", 5000},
		{"lone-surrogate-fffd", 10000},
		{"depth-513", 10000},
	}
	difffuzz := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/difffuzz")
	mutant := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/mutant")
	for _, tt := range hunts {
		t.Run(tt.mutant, func(t *testing.T) {
			var out bytes.Buffer
			h := Hunt{Difffuzz: difffuzz, Mutant: mutant, Config: "../../difffuzz.toml", Duration: 30 * time.Second, Cases: tt.cases,
				MinimizeTime: 10 * time.Second, Seed: "1", Out: t.TempDir(), Only: []string{tt.mutant}, Stdout: &out}
			rs, err := h.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) != 1 || !rs[0].Found {
				t.Fatalf("not found within %d cases:\n%s", tt.cases, out.String())
			}
			if rs[0].Minimized == "" {
				t.Errorf("found but not minimized: %s", rs[0].Note)
			}
			if !strings.Contains(out.String(), "mutants: 1/1 found") {
				t.Errorf("no summary line:\n%s", out.String())
			}
		})
	}
}

// The summary's median runs over every mutant; one not found is slower than
// any found.
func TestSummary(t *testing.T) {
	found := func(s float64) Result { return Result{Found: true, Seconds: s} }
	tests := []struct {
		rs   []Result
		want string
	}{
		{[]Result{found(1), found(3), found(2)}, "mutants: 3/3 found, median 2.00 s"},
		{[]Result{found(1), found(3)}, "mutants: 2/2 found, median 2.00 s"},
		{[]Result{found(1), {}, found(0.5)}, "mutants: 2/3 found, median 1.00 s"},
		{[]Result{found(1), {}, {}}, "mutants: 1/3 found, median over the limit, s"},
		{nil, "mutants: 0/0 found, median - s"},
	}
	for _, tt := range tests {
		if got := Summary(tt.rs); got != tt.want {
			t.Errorf("Summary(%v) = %q, want %q", tt.rs, got, tt.want)
		}
	}
}

// The stateful mutants are hunted for a nondeterministic bucket of the
// mutant alone, kept as found; each is found within a case budget.
func TestStatefulHunt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts difffuzz and the mutant worker")
	}
	difffuzz := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/difffuzz")
	mutant := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/mutant")
	for _, name := range []string{"sort-skip-nth", "length-cache", "reused-buffer", "seeded-order"} {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			h := Hunt{Difffuzz: difffuzz, Mutant: mutant, Config: "../../difffuzz.toml", Duration: 30 * time.Second, Cases: 20000,
				MinimizeTime: 10 * time.Second, Seed: "1", Out: t.TempDir(), Only: []string{name}, Stdout: &out}
			rs, err := h.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) != 1 || !rs[0].Found || rs[0].Signature != "nondeterministic: gives one input two digests: mutant" {
				t.Fatalf("hunt: %+v\n%s", rs, out.String())
			}
			if rs[0].Minimized != "" || !strings.Contains(rs[0].Note, "not minimized (nondeterministic)") {
				t.Errorf("minimized %q, note %q: want it kept as found", rs[0].Minimized, rs[0].Note)
			}
		})
	}
}
