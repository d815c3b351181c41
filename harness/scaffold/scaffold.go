// Package scaffold writes a team's difffuzz worker into the team's own
// repository ("difffuzz init"): the kit's example worker, which is the naive
// baseline, in the place where the team's SDK goes; the manifest that brings
// in the kit; an empty known-failures list, which "difffuzz adapter check
// -write-known" fills; and a difffuzz.toml
// naming the worker, so that "difffuzz adapter check" and "difffuzz run"
// work from that folder with nothing else (the built-in reference is
// implied). The templates are embedded, so the binary alone can do it.
//
// The workers are the kits' examples, byte for byte (the tests hold them
// to kits/*/example), so a skeleton is exactly what make conform checks.
package scaffold

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/internal/atomicfile"
)

// The kits as a team's manifest names them: the packages they will be
// published as, and the versions of kits/*/ (the tests hold them to the
// kits' manifests). Config.KitSource points a manifest at a kit's folder or
// package instead.
const (
	PythonKit      = "difffuzz-kit"
	PythonKitRange = ">=0.1,<0.2" // 0.x: the minor version is the breaking one
	TSKit          = "@difffuzz/kit"
	TSKitRange     = "^0.1.0"
	RustKit        = "difffuzz-kit"
	RustKitRange   = "0.1" // Cargo's caret: >=0.1.0, <0.2.0
)

// The Go kit is a module of its own, in the folder kits/go of the driver's
// repository, so that a worker requires nothing of the driver's.
// GoKitModule is its path, the one place a skeleton's go.mod takes it from.
// It is released by the same tag as the driver, as Go spells a tag of a
// module in a subfolder (kits/go/vX.Y.Z, docs/releasing.md).
const (
	GoKitModule  = "github.com/difffuzz/difffuzz/kits/go"
	GoKitImport  = GoKitModule + "/kit"
	GoKitVersion = "v0.1.0"
	// GoVersion is the go directive of the kit's module, which a module
	// requiring it must reach.
	GoVersion = "1.23"
	// GoDriverModule is the driver's module, whose checkout holds the kit
	// at GoKitFolder.
	GoDriverModule = "github.com/difffuzz/difffuzz"
	GoKitFolder    = "kits/go"
)

// Defaults of Config's zero values.
const (
	DefaultDir   = "difffuzz-worker"
	DefaultName  = "my-sdk"
	DefaultModel = "native"
)

// Models are the value models -model accepts, and why a skeleton of one
// cannot be written yet ("" when it can). A text skeleton's worker is the
// kit's text example (templates/LANG/text), which parses the case's JSON
// text as an SDK does its tool call's arguments.
var Models = map[string]string{
	"native": "",
	"text":   "",
	"exact":  "no kit has an exact-model example to start from: write the native skeleton, then change the worker's model as docs/your-sdk.md says (every kit has the exact model)",
}

// Config is one skeleton.
type Config struct {
	// Lang is the worker's language: python, ts, rust or go.
	Lang string
	// Model is the value model; "" means DefaultModel.
	Model string
	// Dir is the folder written; "" means DefaultDir. It may exist, but
	// none of the skeleton's files may.
	Dir string
	// Name is the adapter's name in difffuzz.toml; "" means DefaultName.
	Name string
	// Contract is the contract the team's SDKs claim, for difffuzz.toml's
	// contract key: a built-in's name, or a contract file's path from the
	// working folder (written relative to Dir). "" writes no key: the
	// default, this project's contract.
	Contract string
	// KitSource is where the manifest takes the kit from instead of its
	// registry ("" means the registry): the kit's folder (kits/LANG of a
	// difffuzz checkout); a package of make packages or of a release (a
	// wheel, an npm tarball, a .crate, which Files unpacks under
	// VendorDir, or for Go a module proxy folder); or a folder of packages,
	// of which the newest of Lang.
	KitSource string
}

// File is one file of a skeleton; Path is relative to Config.Dir.
type File struct {
	Path string
	Data []byte
}

// language is what a skeleton of one language holds.
type language struct {
	files   map[string]string // template (under templates/LANG) -> path in the skeleton
	worker  string            // the file where the SDK's function goes
	workerT string            // its template, which templates/LANG/text replaces for the text model
	command []string          // the worker's argv, from the skeleton's folder
	build   string            // the shell command that builds it
	ignore  []string          // its build outputs, for .gitignore
	install string            // how the team adds its SDK
}

var languages = map[string]language{
	"python": {
		files:   map[string]string{"worker.py": "worker.py", "requirements.txt": "requirements.txt"},
		worker:  "worker.py",
		workerT: "worker.py",
		command: []string{".venv/bin/python", "worker.py"},
		build:   "python3 -m venv .venv && .venv/bin/pip install -r requirements.txt",
		ignore:  []string{".venv/", "__pycache__/"},
		install: "add your SDK to requirements.txt",
	},
	"ts": {
		files:   map[string]string{"worker.ts": "src/worker.ts", "package.json": "package.json", "tsconfig.json": "tsconfig.json"},
		worker:  "src/worker.ts",
		workerT: "worker.ts",
		command: []string{"node", "dist/worker.js"},
		build:   "npm install && npm run build",
		ignore:  []string{"node_modules/", "dist/"},
		install: "npm install your SDK",
	},
	"rust": {
		files:   map[string]string{"main.rs": "src/main.rs", "Cargo.toml": "Cargo.toml"},
		worker:  "src/main.rs",
		workerT: "main.rs",
		command: []string{"target/release/worker"},
		build:   "cargo build --release",
		ignore:  []string{"target/"},
		install: "add your SDK to Cargo.toml's [dependencies]",
	},
	"go": {
		files:   map[string]string{"main.go": "main.go", "go.mod": "go.mod"},
		worker:  "main.go",
		workerT: "main.go",
		command: []string{"./worker"},
		build:   "go mod tidy && go build -o worker .",
		ignore:  []string{"/worker"},
		install: "go get your SDK's module (or add a replace to your checkout)",
	},
}

// Languages are the languages Lang accepts, sorted.
func Languages() []string {
	var out []string
	for l := range languages {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

//go:embed templates
var templates embed.FS

var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// check validates cfg and fills in its defaults.
func (cfg *Config) check() (language, error) {
	l, ok := languages[cfg.Lang]
	if !ok {
		return l, fmt.Errorf("unknown language %q (want one of %s)", cfg.Lang, strings.Join(Languages(), ", "))
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	why, ok := Models[cfg.Model]
	switch {
	case !ok:
		return l, fmt.Errorf("-model %s: want native or text (or exact, which init cannot write yet)", cfg.Model)
	case why != "":
		return l, fmt.Errorf("-model %s: not available yet: %s", cfg.Model, why)
	}
	if cfg.Dir == "" {
		cfg.Dir = DefaultDir
	}
	if cfg.Name == "" {
		cfg.Name = DefaultName
	}
	if !validName.MatchString(cfg.Name) {
		return l, fmt.Errorf("-name %q: want lower-case letters, digits, - and _ (it names the worker's package too)", cfg.Name)
	}
	if err := cfg.checkContract(); err != nil {
		return l, err
	}
	return l, nil
}

// checkContract resolves -contract: a built-in stays its name; a file must
// load, and is named relative to Dir, where difffuzz.toml takes it from.
func (cfg *Config) checkContract() error {
	if cfg.Contract == "" {
		return nil
	}
	if _, ok := contract.Builtin(cfg.Contract); ok {
		return nil
	}
	if _, err := contract.Resolve(cfg.Contract, "."); err != nil {
		return fmt.Errorf("-contract: %w", err)
	}
	file, err := filepath.Abs(cfg.Contract)
	if err != nil {
		return fmt.Errorf("-contract: %w", err)
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return fmt.Errorf("-contract: %w", err)
	}
	if rel, err := filepath.Rel(dir, file); err == nil {
		file = filepath.ToSlash(rel)
	}
	cfg.Contract = file
	return nil
}

// data is what the templates see.
type data struct {
	Config
	Lang, Worker, Build        string
	Command, Ignore            []string
	PythonKitRange, TSKitRange string
	RustKitRange, GoVersion    string
	GoKitModule, GoKitImport   string
	GoKitVersion, GoKitReplace string
	// KitEditable says that the Python kit is a folder (pip install -e).
	KitEditable bool
	// Vendor is the folder of the unpacked .crate ("" for none), which the
	// worker's workspace leaves out.
	Vendor string
	// GoProxyEnv is the environment of the go command when the Go kit's
	// module is in a module proxy folder ("" otherwise).
	GoProxyEnv string
}

// Files renders the skeleton of cfg without writing it. With a KitSource,
// the manifest names the kit by its path, relative to cfg.Dir within one
// git repository and absolute otherwise; a .crate's files are the
// skeleton's too, unpacked under VendorDir.
func Files(cfg Config) ([]File, error) {
	l, err := cfg.check()
	if err != nil {
		return nil, err
	}
	d := data{Config: cfg, Lang: cfg.Lang, Worker: l.worker, Build: l.build, Command: l.command, Ignore: l.ignore,
		PythonKitRange: PythonKitRange, TSKitRange: TSKitRange, RustKitRange: RustKitRange, GoVersion: GoVersion,
		GoKitModule: GoKitModule, GoKitImport: GoKitImport, GoKitVersion: GoKitVersion}
	var files []File
	if cfg.KitSource != "" {
		if files, err = d.useKit(); err != nil {
			return nil, err
		}
	}
	model := "" // the folder under templates/LANG of the model's worker
	if cfg.Model == "text" {
		model = "text/"
	}
	paths := map[string]string{"common/difffuzz.toml": "difffuzz.toml", "common/known-failures.txt": "known-failures.txt", "common/gitignore": ".gitignore"}
	for tmpl, path := range l.files {
		if tmpl == l.workerT {
			tmpl = model + tmpl
		}
		paths[cfg.Lang+"/"+tmpl] = path
	}
	for tmpl, path := range paths {
		b, err := render("templates/"+tmpl+".tmpl", d)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: path, Data: b})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

func render(name string, d data) ([]byte, error) {
	t, err := template.New(filepath.Base(name)).Funcs(template.FuncMap{"q": strconv.Quote}).ParseFS(templates, name)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// useKit points d's manifest at d.KitSource, resolved, and returns the
// files it adds to the skeleton (an unpacked .crate's).
func (d *data) useKit() ([]File, error) {
	src, err := resolveKitSource(d.Lang, d.KitSource)
	if err != nil {
		return nil, err
	}
	worker, err := filepath.Abs(d.Dir)
	if err != nil {
		return nil, err
	}
	d.KitSource = ""
	switch src.kind {
	case kitFolder:
		if d.Lang == "go" {
			d.GoKitReplace = manifestPath(worker, src.path)
			return nil, nil
		}
		d.KitSource, d.KitEditable = manifestPath(worker, src.path), d.Lang == "python"
	case kitWheel, kitTarball:
		d.KitSource = manifestPath(worker, src.path)
	case kitCrate:
		dir, files, err := unpackCrate(src.path)
		if err != nil {
			return nil, fmt.Errorf("-kit-source: %w", err)
		}
		d.KitSource, d.Vendor = dir, VendorDir
		return files, nil
	case kitGoProxy:
		d.GoKitVersion, d.GoProxyEnv = src.version, GoProxyEnv(src.path)
	}
	return nil, nil
}

// Paths are the paths of files for people: an unpacked crate's folder once
// (VendorDir/NAME-VERSION/), not its every file.
func Paths(files []File) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		p := f.Path
		if parts := strings.SplitN(p, "/", 3); len(parts) == 3 && parts[0] == VendorDir {
			p = parts[0] + "/" + parts[1] + "/"
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// Write renders the skeleton and writes it under cfg.Dir. It writes nothing
// when any of its files exists already, and names them all.
func Write(cfg Config) ([]File, error) {
	files, err := Files(cfg)
	if err != nil {
		return nil, err
	}
	dir := cfg.Dir
	if dir == "" {
		dir = DefaultDir
	}
	var exist []string
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(dir, f.Path)); !errors.Is(err, fs.ErrNotExist) {
			exist = append(exist, filepath.Join(dir, f.Path))
		}
	}
	if len(exist) > 0 {
		return nil, fmt.Errorf("will not overwrite %s: move them away, or give another -dir", strings.Join(exist, ", "))
	}
	for _, f := range files {
		if err := atomicfile.WriteAll(filepath.Join(dir, f.Path), f.Data); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// NextSteps is what to do after Write, for the team to read.
func NextSteps(cfg Config) string {
	l, err := cfg.check()
	if err != nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "next steps, in %s:\n", cfg.Dir)
	fmt.Fprintf(&b, "  1. build the worker:  %s\n", l.build)
	if cfg.Lang == "go" && cfg.KitSource != "" {
		if src, err := resolveKitSource(cfg.Lang, cfg.KitSource); err == nil && src.kind == kitGoProxy {
			fmt.Fprintf(&b, "     in the environment that takes the kit's module from %s (go.mod says it too):\n", src.path)
			fmt.Fprintf(&b, "       export %s\n", GoProxyEnv(src.path))
		}
	}
	fmt.Fprintf(&b, "  2. put your SDK's function where the naive baseline is, in %s, and %s\n", l.worker, l.install)
	fmt.Fprintf(&b, "  3. check it against the protocol:  difffuzz adapter check %s\n", cfg.Name)
	if cfg.Contract != "" {
		// The check follows difffuzz.toml's contract: what the contract
		// leaves open passes, so a failure is a break of the contract.
		fmt.Fprintf(&b, "     (it holds the worker to the contract %s, as runs do: what that leaves open passes)\n", cfg.Contract)
		fmt.Fprintf(&b, "     only if it breaks the contract somewhere you cannot fix yet, list those checks:\n")
		fmt.Fprintf(&b, "       difffuzz adapter check -write-known known-failures.txt %s\n", cfg.Name)
	} else {
		fmt.Fprintf(&b, "     list the checks it fails:  difffuzz adapter check -write-known known-failures.txt %s\n", cfg.Name)
	}
	fmt.Fprintf(&b, "     then hold it to them:  difffuzz adapter check -known known-failures.txt %s\n", cfg.Name)
	fmt.Fprintf(&b, "     (delete a line as your SDK comes to pass its check)\n")
	fmt.Fprintf(&b, "  4. fuzz it against the built-in reference:  difffuzz run -duration 60s\n")
	fmt.Fprintf(&b, "     (findings in out/corpus/, reports in out/; difffuzz replay re-runs them)\n")
	return b.String()
}
