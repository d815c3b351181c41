package scaffold

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/difffuzz/difffuzz/internal/version"
)

// One tag releases everything at one version (docs/releasing.md), under
// the names a team's skeleton asks for: each kit's manifest names the
// package of the constants above at the driver's version; the skeletons'
// ranges take that version; docs/your-sdk.md names the same packages and
// ranges; and the release workflow publishes each package from its kit's
// folder, checking the tag against that manifest.
func TestOneNameAndVersion(t *testing.T) {
	v := version.Version
	kits := []struct {
		kit, name, version string
	}{
		{"kits/python", pythonManifest(t).name, pythonManifest(t).version},
		{"kits/ts", tsManifest(t).Name, tsManifest(t).Version},
		{"kits/rust", rustManifest(t).Package.Name, rustManifest(t).Package.Version},
	}
	for i, want := range []string{PythonKit, TSKit, RustKit} {
		k := kits[i]
		if k.name != want || k.version != v {
			t.Errorf("%s is %s %s, want %s %s (the driver's version, internal/version)", k.kit, k.name, k.version, want, v)
		}
	}
	kitMod := read(t, GoKitFolder+"/go.mod")
	if m := regexp.MustCompile(`(?m)^module (.*)$`).FindStringSubmatch(kitMod); m == nil || m[1] != GoKitModule {
		t.Errorf("%s/go.mod's module is %q, want GoKitModule %s", GoKitFolder, m, GoKitModule)
	}
	if m := regexp.MustCompile(`(?m)^go (.*)$`).FindStringSubmatch(kitMod); m == nil || m[1] != GoVersion {
		t.Errorf("%s/go.mod's go directive is %q, want GoVersion %s", GoKitFolder, m, GoVersion)
	}
	if m := regexp.MustCompile(`(?m)^module (.*)$`).FindStringSubmatch(read(t, "go.mod")); m == nil || m[1] != GoDriverModule {
		t.Errorf("go.mod's module is %q, want GoDriverModule %s", m, GoDriverModule)
	}
	if GoKitVersion != "v"+v {
		t.Errorf("GoKitVersion %s, want v%s: the tag that releases the driver releases the Go kit (%s/%s)", GoKitVersion, v, GoKitFolder, GoKitVersion)
	}
	// The driver requires the kit at the release's version: the tag
	// kits/go/vX.Y.Z of the same commit (the repository's go.work resolves
	// it to the folder until then).
	if want := "\tgithub.com/difffuzz/difffuzz/kits/go " + GoKitVersion + "\n"; !strings.Contains(read(t, "go.mod"), want) {
		t.Errorf("go.mod does not require %s %s", GoKitModule, GoKitVersion)
	}

	ranges := []struct {
		name, rng string
		in        func(rng, v string) (bool, error)
	}{
		{"PythonKitRange", PythonKitRange, pep440Includes},
		{"TSKitRange", TSKitRange, func(r, v string) (bool, error) { return caretIncludes(strings.TrimPrefix(r, "^"), v) }},
		{"RustKitRange", RustKitRange, caretIncludes}, // Cargo's bare requirement is a caret
	}
	for _, r := range ranges {
		if ok, err := r.in(r.rng, v); err != nil || !ok {
			t.Errorf("%s %q does not take the kits' version %s (%v)", r.name, r.rng, v, err)
		}
	}

	// What a skeleton's manifest and docs/your-sdk.md say, and where.
	mentions := []struct{ file, want string }{
		{"harness/scaffold/testdata/python/requirements.txt", PythonKit + PythonKitRange},
		{"harness/scaffold/testdata/ts/package.json", fmt.Sprintf("%q: %q", TSKit, TSKitRange)},
		{"harness/scaffold/testdata/rust/Cargo.toml", fmt.Sprintf("%s = { version = %q,", RustKit, RustKitRange)},
		{"harness/scaffold/testdata/go/go.mod", "require " + GoKitModule + " " + GoKitVersion},
		{"docs/your-sdk.md", "`" + PythonKit + "` on PyPI"},
		{"docs/your-sdk.md", "`" + TSKit + "` on npm"},
		{"docs/your-sdk.md", "`" + RustKit + "` on crates.io"},
		{"docs/your-sdk.md", "`" + PythonKit + PythonKitRange + "`"},
		{"docs/your-sdk.md", fmt.Sprintf("`%q: %q`", TSKit, TSKitRange)},
		{"docs/your-sdk.md", fmt.Sprintf("`%s = { version = %q,", RustKit, RustKitRange)},
		{"docs/your-sdk.md", "`require " + GoKitModule + " " + GoKitVersion + "`"},
	}
	for _, m := range mentions {
		if !strings.Contains(read(t, m.file), m.want) {
			t.Errorf("%s does not say %s", m.file, m.want)
		}
	}

	// Each publish job of the release workflow: the folder it publishes
	// from, the manifest its tag is checked against, the package it names.
	jobs := workflowJobs(read(t, ".github/workflows/release.yml"))
	publish := []struct {
		job   string
		wants []string
	}{
		{"driver", []string{"scripts/release/version.sh driver ", "goreleaser/goreleaser-action@"}},
		{"pypi", []string{"scripts/release/version.sh python ", "python -m build --outdir out/release/python kits/python", "https://pypi.org/p/" + PythonKit}},
		{"npm", []string{"scripts/release/version.sh ts ", "working-directory: kits/ts", "npm publish --provenance --access public", "https://www.npmjs.com/package/" + TSKit}},
		{"crates", []string{"scripts/release/version.sh rust ", "cargo publish --locked --manifest-path kits/rust/Cargo.toml", "https://crates.io/crates/" + RustKit}},
		{"gokit", []string{"scripts/release/version.sh go ", "scripts/release/gokit.sh check", `tag="` + GoKitFolder + `/${GITHUB_REF#refs/tags/}"`}},
	}
	for _, p := range publish {
		body, ok := jobs[p.job]
		if !ok {
			t.Errorf("release.yml has no job %s", p.job)
			continue
		}
		for _, w := range p.wants {
			if !strings.Contains(body, w) {
				t.Errorf("release.yml: job %s does not say %s", p.job, w)
			}
		}
	}
}

// pythonManifest is kits/python's name (pyproject.toml) and version, which
// pyproject.toml takes from difffuzz_kit.__version__.
func pythonManifest(t *testing.T) (m struct{ name, version string }) {
	var py struct {
		Project struct{ Name string }
		Tool    struct {
			Setuptools struct {
				Dynamic struct{ Version struct{ Attr string } }
			}
		}
	}
	if err := toml.Unmarshal([]byte(read(t, "kits/python/pyproject.toml")), &py); err != nil {
		t.Fatalf("kits/python/pyproject.toml: %v", err)
	}
	if a := py.Tool.Setuptools.Dynamic.Version.Attr; a != "difffuzz_kit.__version__" {
		t.Fatalf("kits/python/pyproject.toml takes its version from %q, not difffuzz_kit.__version__", a)
	}
	v := regexp.MustCompile(`(?m)^__version__ = "(.*)"$`).FindStringSubmatch(read(t, "kits/python/src/difffuzz_kit/__init__.py"))
	if v == nil {
		t.Fatal("kits/python/src/difffuzz_kit/__init__.py sets no __version__")
	}
	m.name, m.version = py.Project.Name, v[1]
	return m
}

func tsManifest(t *testing.T) (m struct{ Name, Version string }) {
	if err := json.Unmarshal([]byte(read(t, "kits/ts/package.json")), &m); err != nil {
		t.Fatalf("kits/ts/package.json: %v", err)
	}
	return m
}

func rustManifest(t *testing.T) (m struct {
	Package struct{ Name, Version string }
}) {
	if err := toml.Unmarshal([]byte(read(t, "kits/rust/Cargo.toml")), &m); err != nil {
		t.Fatalf("kits/rust/Cargo.toml: %v", err)
	}
	return m
}

// workflowJobs is the text of each job of a workflow, by id: the lines
// under "jobs:" from one two-space-indented key to the next.
func workflowJobs(yml string) map[string]string {
	jobs := map[string]string{}
	key := regexp.MustCompile(`^  ([A-Za-z0-9_-]+):\s*$`)
	in, id := false, ""
	for _, line := range strings.Split(yml, "\n") {
		switch {
		case line == "jobs:":
			in = true
		case !in:
		case key.MatchString(line):
			id = key.FindStringSubmatch(line)[1]
		case id != "":
			jobs[id] += line + "\n"
		}
	}
	return jobs
}

// pep440Includes says whether v meets every comparison of spec, a PEP 440
// specifier set of >=, >, <=, <, == and != on release versions.
func pep440Includes(spec, v string) (bool, error) {
	for _, c := range strings.Split(spec, ",") {
		c = strings.TrimSpace(c)
		op := strings.TrimRight(c[:min(2, len(c))], "0123456789.")
		cmp, err := compareVersions(v, strings.TrimSpace(c[len(op):]))
		if err != nil {
			return false, err
		}
		ok := map[string]bool{">=": cmp >= 0, ">": cmp > 0, "<=": cmp <= 0, "<": cmp < 0, "==": cmp == 0, "!=": cmp != 0}
		met, known := ok[op]
		if !known {
			return false, fmt.Errorf("comparison %q: operator %q not handled", c, op)
		}
		if !met {
			return false, nil
		}
	}
	return true, nil
}

// caretIncludes says whether v is in the caret range of base, npm's ^base
// and Cargo's bare base: at least base, below the next release of its first
// non-zero part (^0.1.0 is <0.2.0).
func caretIncludes(base, v string) (bool, error) {
	b, err := parts(base)
	if err != nil {
		return false, err
	}
	lo, err := compareVersions(v, base)
	if err != nil || lo < 0 {
		return false, err
	}
	upper := make([]int, len(b))
	for i, n := range b {
		upper[i] = n
		if n != 0 || i == len(b)-1 {
			upper[i]++
			break
		}
	}
	vp, _ := parts(v)
	return compareParts(vp, upper) < 0, nil
}

// compareVersions compares two release versions (1.2.3, 0.1) part by part,
// the missing parts being 0.
func compareVersions(a, b string) (int, error) {
	pa, err := parts(a)
	if err != nil {
		return 0, err
	}
	pb, err := parts(b)
	if err != nil {
		return 0, err
	}
	return compareParts(pa, pb), nil
}

func parts(v string) ([]int, error) {
	var ps []int
	for _, f := range strings.Split(v, ".") {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("version %q: %w", v, err)
		}
		ps = append(ps, n)
	}
	return ps, nil
}

func compareParts(a, b []int) int {
	for i := range max(len(a), len(b)) {
		x, y := 0, 0
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// The range checks themselves, on the ranges' edges.
func TestRanges(t *testing.T) {
	tests := []struct {
		rng, v string
		in     func(rng, v string) (bool, error)
		want   bool
	}{
		{">=0.1,<0.2", "0.1.0", pep440Includes, true},
		{">=0.1,<0.2", "0.1.9", pep440Includes, true},
		{">=0.1,<0.2", "0.2.0", pep440Includes, false},
		{">=0.1,<0.2", "0.0.9", pep440Includes, false},
		{"==1.2.3", "1.2.3", pep440Includes, true},
		{"0.1", "0.1.0", caretIncludes, true},
		{"0.1", "0.1.7", caretIncludes, true},
		{"0.1", "0.2.0", caretIncludes, false},
		{"0.1.0", "0.0.9", caretIncludes, false},
		{"1.2.0", "1.9.0", caretIncludes, true},
		{"1.2.0", "2.0.0", caretIncludes, false},
		{"0.0.3", "0.0.4", caretIncludes, false},
	}
	for _, tt := range tests {
		if got, err := tt.in(tt.rng, tt.v); err != nil || got != tt.want {
			t.Errorf("%q includes %s = %v (%v), want %v", tt.rng, tt.v, got, err, tt.want)
		}
	}
	if _, err := pep440Includes("~=0.1", "0.1.0"); err == nil {
		t.Error("~=0.1: no error for an operator not handled")
	}
}
