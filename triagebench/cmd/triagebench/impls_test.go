package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImplsFolder loads the benchmark's own implementations: every file
// must parse, name itself, and compile its labels, and the issue asks for
// at least 12.
func TestImplsFolder(t *testing.T) {
	impls, err := LoadImpls("../../impls")
	if err != nil {
		t.Fatal(err)
	}
	if len(impls) < 12 {
		t.Errorf("%d implementations, want at least 12", len(impls))
	}
	for _, im := range impls {
		for _, m := range im.Models() {
			if len(im.CausesIn(m)) == 0 {
				t.Errorf("%s: no true cause shows in the %s model it runs in", im.Name, m)
			}
		}
	}
}

func TestLoadImplErrors(t *testing.T) {
	tests := []struct {
		name, file, want string
	}{
		{"other name", `name = "b"` + "\n" + `origin = "own"` + "\n[commands]\nnative = \"w\"\n" + cause("x", "^a", "native"), `name "b", want the file's base name "a"`},
		{"bad origin", `name = "a"` + "\n" + `origin = "ours"` + "\n[commands]\nnative = \"w\"\n" + cause("x", "^a", "native"), `origin "ours"`},
		{"no command", `name = "a"` + "\n" + `origin = "own"` + "\n" + cause("x", "^a", "native"), "no command"},
		{"bad model", `name = "a"` + "\n" + `origin = "own"` + "\n[commands]\nexact = \"w\"\n" + cause("x", "^a", "native"), `model "exact"`},
		{"no cause", `name = "a"` + "\n" + `origin = "own"` + "\n[commands]\nnative = \"w\"\n", "no cause"},
		{"both in one model", `name = "a"` + "\n" + `origin = "own"` + "\n[commands]\nnative = \"w\"\n" + cause("x", "^a", "both"), "shows in both models"},
		{"model without command", `name = "a"` + "\n" + `origin = "own"` + "\n[commands]\nnative = \"w\"\n" + cause("x", "^a", "text"), "shows in text, which has no command"},
		{"bad label", `name = "a"` + "\n" + `origin = "own"` + "\n[commands]\nnative = \"w\"\n" + cause("x", "(", "native"), "cause x: label"},
		{"repeated id", `name = "a"` + "\n" + `origin = "own"` + "\n[commands]\nnative = \"w\"\n" + cause("x", "^a", "native") + cause("x", "^b", "native"), `id "x" empty or repeated`},
		{"unknown field", `name = "a"` + "\n" + `origin = "own"` + "\nlabel = \"x\"\n[commands]\nnative = \"w\"\n" + cause("x", "^a", "native"), "missing in the target struct"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "a.toml"), []byte(tt.file), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadImpls(dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestLoadImplsCollectsEveryFile: one bad file does not hide another's problem.
func TestLoadImplsCollectsEveryFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a", "b"} {
		if err := os.WriteFile(filepath.Join(dir, name+".toml"), []byte(`name = "`+name+`"`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := LoadImpls(dir)
	if err == nil || !strings.Contains(err.Error(), "a.toml") || !strings.Contains(err.Error(), "b.toml") {
		t.Fatalf("error %v, want both files named", err)
	}
}

func cause(id, label, shows string) string {
	return "[[cause]]\nid = \"" + id + "\"\nlabel = '" + label + "'\nshows = \"" + shows + "\"\n"
}
