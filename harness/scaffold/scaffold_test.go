package scaffold

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden skeletons under testdata/")

// The skeleton of each language and model, with the published kits, is
// testdata/LANG/ (native) or testdata/LANG-text/ file for file (go test
// -update rewrites them).
func TestGolden(t *testing.T) {
	for _, lang := range Languages() {
		for _, model := range []string{"native", "text"} {
			t.Run(lang+"-"+model, func(t *testing.T) { golden(t, Config{Lang: lang, Model: model}) })
		}
	}
}

// golden compares the skeleton of cfg with its folder under testdata/.
func golden(t *testing.T, cfg Config) {
	files, err := Files(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("testdata", cfg.Lang)
	if cfg.Model == "text" {
		dir += "-text"
	}
	if *update {
		os.RemoveAll(dir)
		for _, f := range files {
			p := filepath.Join(dir, f.Path)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var golden []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			golden = append(golden, p)
		}
		return err
	})
	if len(golden) != len(files) {
		t.Errorf("%d files, %d golden ones in %s (go test -update)", len(files), len(golden), dir)
	}
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Errorf("%v (go test -update)", err)
			continue
		}
		if string(want) != string(f.Data) {
			t.Errorf("%s differs from its golden file (go test -update):\n%s", f.Path, f.Data)
		}
	}
}

// The skeleton's worker is the kit's example of its model, byte for
// byte, and its known-failures list the example's checks: what make
// conform checks is what a team starts from.
func TestWorkerIsTheKitsExample(t *testing.T) {
	examples := []struct {
		lang, model       string
		worker, kit, list string // the skeleton's worker; the kit's and its list, in kits/LANG/example
	}{
		{"python", "native", "worker.py", "worker.py", "known-failures.txt"},
		{"ts", "native", "worker.ts", "worker.ts", "known-failures.txt"},
		{"rust", "native", "src/main.rs", "src/main.rs", "known-failures.txt"},
		{"go", "native", "main.go", "main.go", "known-failures.txt"},
		{"python", "text", "worker.py", "text_worker.py", "text-known-failures.txt"},
		{"ts", "text", "worker.ts", "text_worker.ts", "text-known-failures.txt"},
		{"rust", "text", "src/main.rs", "src/bin/text_worker.rs", "text-known-failures.txt"},
		{"go", "text", "main.go", "text/main.go", "text-known-failures.txt"},
	}
	for _, ex := range examples {
		lang := ex.lang + " " + ex.model
		files, err := Files(Config{Lang: ex.lang, Model: ex.model})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range files {
			got[f.Path] = string(f.Data)
		}
		kit := filepath.Join("kits", ex.lang, "example", ex.kit)
		if want := read(t, kit); got[ex.worker] != want {
			t.Errorf("%s: %s is not %s: copy the example into templates/%s", lang, ex.worker, kit, ex.lang)
		}
		kitKnown := checks(read(t, filepath.Join("kits", ex.lang, "example", ex.list)))
		if kitKnown == "" || checks(got["known-failures.txt"]) != kitKnown {
			t.Errorf("%s: known-failures.txt lists\n%s\nthe kit's example\n%s", lang, checks(got["known-failures.txt"]), kitKnown)
		}
	}
}

// checks are a failure list's check names, one a line.
func checks(list string) string {
	var out []string
	for _, l := range strings.Split(list, "\n") {
		l, _, _ = strings.Cut(l, "#")
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// -kit-source points each manifest at a local kit; for Go, at the module
// that holds it.
func TestKitSource(t *testing.T) {
	root, _ := filepath.Abs("../..")
	tests := []struct{ lang, file, want string }{
		{"python", "requirements.txt", "\n-e " + root + "/kits/python\n"},
		{"ts", "package.json", `"@difffuzz/kit": "file:` + root + `/kits/ts"`},
		{"rust", "Cargo.toml", `difffuzz-kit = { path = "` + root + `/kits/rust", features = ["serde_json"] }`},
		{"go", "go.mod", "\nreplace github.com/difffuzz/difffuzz => " + root + "\n"},
	}
	for _, tt := range tests {
		files, err := Files(Config{Lang: tt.lang, KitSource: "../../kits/" + tt.lang})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if f.Path == tt.file && !strings.Contains(string(f.Data), tt.want) {
				t.Errorf("%s: %s does not hold %q:\n%s", tt.lang, tt.file, tt.want, f.Data)
			}
		}
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Lang: "cobol"}, `unknown language "cobol" (want one of go, python, rust, ts)`},
		{Config{Lang: "go", Model: "exact"}, "-model exact: not available yet: no kit has an exact-model example"},
		{Config{Lang: "go", Model: "lossy"}, "-model lossy: want native or text"},
		{Config{Lang: "go", Name: "My SDK"}, `-name "My SDK"`},
		{Config{Lang: "go", KitSource: "/nonexistent"}, "not a folder"},
		{Config{Lang: "go", KitSource: os.TempDir()}, "no go.mod of module " + GoKitModule},
	}
	for _, tt := range tests {
		if _, err := Files(tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.cfg, err, tt.want)
		}
	}
}

// Write makes the folder, and writes nothing when a file of the skeleton
// is there already, naming every one in the way.
func TestWriteRefusesToOverwrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "w")
	if _, err := Write(Config{Lang: "python", Dir: dir}); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "worker.py"))
	_, err := Write(Config{Lang: "python", Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "will not overwrite "+dir+"/.gitignore, ") || strings.Contains(err.Error(), "worker.py") {
		t.Fatalf("second Write: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "worker.py")); err == nil {
		t.Errorf("a refused Write wrote worker.py")
	}
}
