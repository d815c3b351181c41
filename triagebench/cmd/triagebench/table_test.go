package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestTable holds the Markdown table to testdata/table.md.
func TestTable(t *testing.T) {
	impls := []Impl{
		{Name: "py-sdk", Language: "python", Origin: "own", Commands: map[string]string{modelNative: "n", modelText: "t"}},
		{Name: "lib", Language: "go", Origin: "library", Commands: map[string]string{modelNative: "n"}},
		{Name: "broken", Language: "rust", Origin: "own", Commands: map[string]string{modelNative: "n"}},
	}
	scores := []Score{
		{Name: "py-sdk", Causes: 4, Found: 3, Shown: 5, Buckets: 9, Right: 8, Mixed: 1, Minimized: 8, MinimizeSeconds: 12.34, Untimed: 1, Cases: 1000},
		{Name: "lib", Causes: 2, Found: 2, Shown: 2, Buckets: 2, Right: 2, Minimized: 2, Untimed: 2, Cases: 500},
		{Name: "broken", Causes: 3, Err: "broken (native): the run wrote no report"},
	}
	got := Table(impls, scores)
	golden := filepath.Join("testdata", "table.md")
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
		t.Errorf("table differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
}

func TestSplice(t *testing.T) {
	begin, end := markers("before")
	page := "# T\n" + begin + "\nold\n" + end + "\nafter\n"
	got, err := splice(page, "before", "new\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "# T\n" + begin + "\nnew\n" + end + "\nafter\n"; got != want {
		t.Errorf("splice = %q, want %q", got, want)
	}
	for _, bad := range []string{"# T\n", end + "\n" + begin + "\n", begin + begin + end} {
		if _, err := splice(bad, "before", "x"); err == nil || !strings.Contains(err.Error(), begin) {
			t.Errorf("splice(%q): error %v, want one naming the markers", bad, err)
		}
	}
}
