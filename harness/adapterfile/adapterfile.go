// Package adapterfile reads difffuzz.toml, the file that declares the adapters a
// run can use, so that adding, removing or replacing an implementation is a
// config edit and not a change to the driver.
package adapterfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/internal/tomlstrict"
)

// Adapter is one [[adapter]] table.
type Adapter struct {
	// Name is the adapter's name in flags and reports; unique.
	Name string `toml:"name"`
	// InProcess selects the Go implementation built into the driver; then
	// Command must be empty.
	InProcess bool `toml:"in_process"`
	// Command is the worker's argv. A relative program path (one with a
	// slash) is taken from Dir.
	Command []string `toml:"command"`
	// Dir is the worker's working folder, relative to the config file's
	// folder; "" means that folder.
	Dir string `toml:"dir"`
	// Env holds variables added to the worker's environment.
	Env map[string]string `toml:"env"`
	// Build is a shell command that builds the worker; make runs it, and
	// "difffuzz adapter check" prints it when the worker will not start.
	Build string `toml:"build"`
	// BatchTimeout and CaseTimeout make the batch deadline (Go durations,
	// "10s", "20ms"); "" means the driver's defaults.
	BatchTimeout string `toml:"batch_timeout"`
	CaseTimeout  string `toml:"case_timeout"`
	// Default says whether a run uses the adapter when -adapters is not
	// given; a missing key means true.
	Default *bool `toml:"default"`
	// Contract is the contract the implementation claims: a built-in or a
	// contract file, relative to this file's folder; "" means the file's
	// contract key. "difffuzz survey" judges each library by the contract it
	// claims; a run judges all its adapters by the run's one contract.
	Contract string `toml:"contract"`
	// ContractNote says why Contract was chosen when the implementation
	// claims no contract of its own (a library that only sorts keys is
	// judged by the nearest built-in); the survey's page shows it.
	ContractNote string `toml:"contract_note"`
}

// BuiltinReference is the name of the built-in reference: the Go
// implementation inside the driver, which a run compares with when its config
// names no reference of its own (Specs).
const BuiltinReference = "reference"

// File is a whole difffuzz.toml.
type File struct {
	// Reference names the adapter whose outcomes are the truth; "" means
	// the first default one, or the built-in reference (see Specs).
	Reference string `toml:"reference"`
	// Contract names the contract the in-process reference follows: a
	// built-in or a contract file, relative to this file's folder ("": this
	// project's; -contract overrides it).
	Contract string `toml:"contract"`
	// Adapters in order; none is allowed (the built-in reference and the
	// -adapter flags make a run).
	Adapters []Adapter `toml:"adapter"`

	// Root is the folder of the file; relative paths are taken from it.
	Root string `toml:"-"`
}

// None is the config of a folder without a difffuzz.toml: no adapter of its
// own, so that the built-in reference is the reference; relative paths are
// taken from the working folder.
func None() *File {
	root, _ := filepath.Abs(".")
	return &File{Root: root}
}

// Load reads and checks a config file. Errors name the file, and the line and
// key where the document says them.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	f, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("config %s:%w", path, err)
	}
	abs, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	f.Root = abs
	return f, nil
}

// Parse reads a config document; errors start with the line number.
func Parse(data []byte) (*File, error) {
	var f File
	if err := tomlstrict.Decode(data, &f); err != nil {
		return nil, err
	}
	if err := f.check(data); err != nil {
		return nil, err
	}
	return &f, nil
}

// check validates what TOML cannot: names, commands, durations.
func (f *File) check(data []byte) error {
	seen := map[string]bool{}
	for i, a := range f.Adapters {
		where := fmt.Sprintf("%d: adapter %d", lineOf(data, i), i+1)
		if a.Name != "" {
			where = fmt.Sprintf("%d: adapter %q", lineOf(data, i), a.Name)
		}
		switch {
		case a.Name == "" || strings.ContainsAny(a.Name, ",= \t"):
			return fmt.Errorf("%s: key \"name\" must be a non-empty word without , = or spaces", where)
		case seen[a.Name]:
			return fmt.Errorf("%s: key \"name\": a second adapter of this name", where)
		case a.InProcess && len(a.Command) > 0:
			return fmt.Errorf("%s: keys \"in_process\" and \"command\" exclude each other", where)
		case !a.InProcess && len(a.Command) == 0:
			return fmt.Errorf("%s: key \"command\" is missing (or set in_process = true)", where)
		}
		seen[a.Name] = true
		for key, d := range map[string]string{"batch_timeout": a.BatchTimeout, "case_timeout": a.CaseTimeout} {
			if _, err := Duration(d); err != nil {
				return fmt.Errorf("%s: key %q: %v", where, key, err)
			}
		}
	}
	if f.Reference != "" && !seen[f.Reference] {
		return fmt.Errorf("1: key \"reference\": no adapter is named %q", f.Reference)
	}
	return nil
}

// lineOf is the line of the i-th "[[adapter]]" header, for messages.
func lineOf(data []byte, i int) int {
	line := 1
	for _, l := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(bytes.TrimSpace(l), []byte("[[adapter]]")) {
			if i == 0 {
				return line
			}
			i--
		}
		line++
	}
	return 0
}

// Duration parses a duration key; "" is zero.
func Duration(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err == nil && d <= 0 {
		err = fmt.Errorf("%s is not positive", s)
	}
	return d, err
}

// Claim is the name or path of the contract a claims (a path is taken
// from f.Root): its own contract key, else the file's.
func (f *File) Claim(a *Adapter) string {
	if a.Contract != "" {
		return a.Contract
	}
	return f.Contract
}

// IsDefault says whether a run without -adapters uses a.
func (a *Adapter) IsDefault() bool { return a.Default == nil || *a.Default }

// Argv is the command with a relative program path resolved against root
// and the adapter's Dir.
func (a *Adapter) Argv(root string) []string {
	argv := append([]string(nil), a.Command...)
	if len(argv) > 0 && strings.Contains(argv[0], "/") && !filepath.IsAbs(argv[0]) {
		argv[0] = filepath.Join(a.WorkDir(root), argv[0])
	}
	return argv
}

// WorkDir is the adapter's working folder.
func (a *Adapter) WorkDir(root string) string {
	if filepath.IsAbs(a.Dir) {
		return a.Dir
	}
	return filepath.Join(root, a.Dir)
}

// EnvList is Env as KEY=VALUE strings, sorted.
func (a *Adapter) EnvList() []string {
	var out []string
	for k, v := range a.Env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// NamesReference reports whether the file chooses its own reference: with
// the key "reference", or by declaring the in-process adapter (then the
// first default adapter is the reference, as in the project's own file).
// A file that does not, such as a team's that declares only its worker, is
// compared with the built-in reference.
func (f *File) NamesReference() bool {
	if f.Reference != "" {
		return true
	}
	for _, a := range f.Adapters {
		if a.InProcess {
			return true
		}
	}
	return false
}

// Specs are the file's adapters as the driver runs them: the one
// description of an adapter from here to the process. Paths are resolved
// against the file's folder; the durations were checked by Load. The
// reference comes first: the one the file names, or else, when the file
// names none (NamesReference), the built-in one, BuiltinReference, in
// process, unless an adapter of the file has taken that name.
func (f *File) Specs() []adapter.Spec {
	specs := f.declared()
	switch {
	case f.Reference != "":
		for i, s := range specs {
			if s.Name == f.Reference {
				s.Default = true
				copy(specs[1:i+1], specs[:i])
				specs[0] = s
				break
			}
		}
	case !f.NamesReference() && !f.declares(BuiltinReference):
		specs = append([]adapter.Spec{{Name: BuiltinReference, InProcess: true, Default: true}}, specs...)
	}
	return specs
}

func (f *File) declares(name string) bool {
	for _, a := range f.Adapters {
		if a.Name == name {
			return true
		}
	}
	return false
}

// declared are the file's adapters in its order.
func (f *File) declared() []adapter.Spec {
	specs := make([]adapter.Spec, len(f.Adapters))
	for i, a := range f.Adapters {
		bt, _ := Duration(a.BatchTimeout)
		ct, _ := Duration(a.CaseTimeout)
		specs[i] = adapter.Spec{Name: a.Name, InProcess: a.InProcess, Build: a.Build, Default: a.IsDefault()}
		if !a.InProcess {
			specs[i].Command, specs[i].Dir, specs[i].Env = a.Argv(f.Root), a.WorkDir(f.Root), a.EnvList()
			specs[i].BatchTimeout, specs[i].CaseTimeout = bt, ct
		}
	}
	return specs
}
