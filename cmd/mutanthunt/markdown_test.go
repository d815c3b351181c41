package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// The page from a fixed hunt matches testdata/mutants.md: a found mutant
// with its signature and minimized input, one found but not minimized, one
// not found, and cells that would break a table (a pipe, backticks, a line
// break, a long input cut at a character's start).
func TestMarkdown(t *testing.T) {
	rs := []Result{
		{Name: "utf16-key-order", Desc: "keys sorted by UTF-16 code units", Found: true, Seconds: 0.05, Cases: 256,
			Signature: "key_order: mutant", Minimized: `{"\uE000":0,"😀":0}`},
		{Name: "pipes", Desc: "a | in the bug, `ticks` and a\nline break", Found: true, Seconds: 1.5, Cases: 4096,
			Signature: "string_escape: mutant", Minimized: "[\"``|\"]"},
		{Name: "slow-minimize", Desc: "found, never minimized", Found: true, Seconds: 12.25, Cases: 80000,
			Signature: "number: mutant", Note: "not minimized within 3m0s"},
		{Name: "long", Desc: "a long input", Found: true, Seconds: 0.1, Cases: 256, Signature: "length: mutant",
			Minimized: `"` + strings.Repeat("é", 45) + `"`},
		{Name: "hidden", Desc: "never found", Note: "not found in 1000000 cases"},
	}
	h := Hunt{Duration: 10 * time.Second, MinimizeTime: 3 * time.Minute, Seed: "1", MD: "docs/mutants.md"}
	got := Markdown(rs, Page{Command: h.Command(), Limit: h.Duration, Took: 2*time.Minute + 25400*time.Millisecond})
	golden := filepath.Join("testdata", "mutants.md")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("Markdown differs from %s (go test -run TestMarkdown -update rewrites it):\n%s", golden, got)
	}
}

// The command on the page has the flags that change the results, and only
// those given.
func TestCommand(t *testing.T) {
	tests := []struct {
		h    Hunt
		want string
	}{
		{Hunt{Duration: time.Minute, MinimizeTime: 3 * time.Minute, Seed: "1"},
			"go run ./cmd/mutanthunt -duration 1m0s -minimize-time 3m0s -seed 1"},
		{Hunt{Duration: 10 * time.Second, MinimizeTime: time.Minute, Seed: "7", Cases: 5000, Only: []string{"a", "b"}, Config: "x.toml", MD: "docs/mutants.md"},
			"go run ./cmd/mutanthunt -duration 10s -minimize-time 1m0s -seed 7 -cases 5000 -only a,b -config x.toml -md docs/mutants.md"},
	}
	for _, tt := range tests {
		if got := tt.h.Command(); got != tt.want {
			t.Errorf("Command() = %q, want %q", got, tt.want)
		}
	}
}
