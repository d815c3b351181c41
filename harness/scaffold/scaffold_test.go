package scaffold

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
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
// byte: what make conform checks is what a team starts from. Its
// known-failures list names no check (the team's SDK, not the baseline,
// is what it will describe) and says how to write one.
func TestWorkerIsTheKitsExample(t *testing.T) {
	examples := []struct {
		lang, model string
		worker, kit string // the skeleton's worker; the kit's, in kits/LANG/example
	}{
		{"python", "native", "worker.py", "worker.py"},
		{"ts", "native", "src/worker.ts", "worker.ts"},
		{"rust", "native", "src/main.rs", "src/main.rs"},
		{"go", "native", "main.go", "main.go"},
		{"python", "text", "worker.py", "text_worker.py"},
		{"ts", "text", "src/worker.ts", "text_worker.ts"},
		{"rust", "text", "src/main.rs", "src/bin/text_worker.rs"},
		{"go", "text", "main.go", "text/main.go"},
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
		known := got["known-failures.txt"]
		if checks(known) != "" || !strings.Contains(known, "difffuzz adapter check -write-known known-failures.txt my-sdk\n") {
			t.Errorf("%s: known-failures.txt lists checks, or does not say how to write them:\n%s", lang, known)
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

// -kit-source points each manifest at a kit's folder (for Go, at the
// kit's module, which is that folder), absolute from a worker outside its repository and
// relative from one inside it.
func TestKitSource(t *testing.T) {
	root, _ := filepath.Abs("../..")
	outside := filepath.Join(t.TempDir(), "w")
	inside := filepath.Join(root, "harness/scaffold/testdata/w")
	tests := []struct{ lang, dir, file, want string }{
		{"python", outside, "requirements.txt", "\n-e " + root + "/kits/python\n"},
		{"ts", outside, "package.json", `"@difffuzz/kit": "file:` + root + `/kits/ts"`},
		{"rust", outside, "Cargo.toml", `difffuzz-kit = { path = "` + root + `/kits/rust", features = ["serde_json"] }`},
		{"go", outside, "go.mod", "\nreplace github.com/difffuzz/difffuzz/kits/go => " + root + "/kits/go\n"},
		{"python", inside, "requirements.txt", "\n-e ../../../../kits/python\n"},
		{"go", inside, "go.mod", "\nreplace github.com/difffuzz/difffuzz/kits/go => ../../../../kits/go\n"},
	}
	for _, tt := range tests {
		files, err := Files(Config{Lang: tt.lang, Dir: tt.dir, KitSource: "../../kits/" + tt.lang})
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
		{Config{Lang: "go", KitSource: "/nonexistent"}, "-kit-source /nonexistent: no such file or folder"},
		{Config{Lang: "go", KitSource: os.TempDir()}, "no go kit in it or above it"},
		{Config{Lang: "python", KitSource: "."}, "no python kit in it"},
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

// A skeleton without -kit-source asks each registry for the kit by the
// name it is published as (PyPI, npm, crates.io; Go's module path), in the
// kit's range.
func TestPublishedNames(t *testing.T) {
	tests := []struct{ lang, file, want string }{
		{"python", "requirements.txt", "\n" + PythonKit + PythonKitRange + "\n"},
		{"ts", "package.json", "\n    " + strconv.Quote(TSKit) + ": " + strconv.Quote(TSKitRange) + "\n"},
		{"rust", "Cargo.toml", "\n" + RustKit + ` = { version = "` + RustKitRange + `", features = ["serde_json"] }` + "\n"},
		{"go", "go.mod", "\nrequire " + GoKitModule + " " + GoKitVersion + "\n"},
	}
	published := map[string]string{"python": "difffuzz-kit", "ts": "@difffuzz/kit", "rust": "difffuzz-kit", "go": "github.com/difffuzz/difffuzz"}
	for _, tt := range tests {
		if !strings.Contains(tt.want, published[tt.lang]) {
			t.Errorf("%s: the kit's name is not %s", tt.lang, published[tt.lang])
		}
		files, err := Files(Config{Lang: tt.lang})
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

// -contract writes difffuzz.toml's contract key: a built-in by name, a
// file by its path from the skeleton's folder; a bad one is refused, and
// none writes no key.
func TestContract(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ours.toml")
	if err := os.WriteFile(file, []byte("[strings]\ndel = \"raw\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ contract, want, err string }{
		{"", "", ""},
		{"rfc8785", `contract = "rfc8785"`, ""},
		{file, `contract = "../ours.toml"`, ""},
		{"jcs", "", "no built-in of that name"},
	} {
		files, err := Files(Config{Lang: "python", Dir: filepath.Join(dir, "w"), Contract: tt.contract})
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("-contract %q: %v, want an error with %q", tt.contract, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("-contract %q: %v", tt.contract, err)
		}
		var toml string
		for _, f := range files {
			if f.Path == "difffuzz.toml" {
				toml = string(f.Data)
			}
		}
		if got := strings.Contains(toml, "\ncontract = "); got != (tt.want != "") || !strings.Contains(toml, tt.want) {
			t.Errorf("-contract %q: difffuzz.toml\n%s\nwant %q", tt.contract, toml, tt.want)
		}
	}
}

// Under a contract, the next steps say that adapter check follows it, and
// offer -write-known only for what breaks it: correct behaviour is never
// listed as a failure.
func TestNextStepsUnderContract(t *testing.T) {
	steps := NextSteps(Config{Lang: "python", Dir: t.TempDir(), Name: "sdk", Contract: "rfc8785"})
	if !strings.Contains(steps, "holds the worker to the contract rfc8785") || !strings.Contains(steps, "only if it breaks the contract") {
		t.Errorf("next steps under rfc8785:\n%s", steps)
	}
	if steps := NextSteps(Config{Lang: "python", Dir: t.TempDir(), Name: "sdk"}); strings.Contains(steps, "holds the worker") {
		t.Errorf("next steps under ours mention a contract:\n%s", steps)
	}
}
