// Licenses lists every dependency of the driver and of the four worker kits,
// direct and transitive, with its license, and fails when one is outside an
// allow list (scripts/check-licenses.sh, make check-licenses):
//
//	go run ./licenses -root .. -python ../adapters/python/.venv/bin/python -md ../docs/licenses.md
//
// Where each list comes from:
//
//	go      go list -deps [-test] ./... ./kits/go/... of the repository's
//	        workspace (the driver, its tests, and kits/go, the Go kit's module,
//	        which go.work builds with it); the license
//	        is read from the LICENSE (COPYING, ...) file in the module cache
//	python  the requirements of the installed difffuzz-kit, followed through
//	        the Python given (importlib.metadata: License-Expression, License,
//	        or the license classifier)
//	npm     kits/ts/package-lock.json (each package's license field)
//	rust    cargo metadata of kits/rust with the serde_json feature (each
//	        crate's license field); every platform's dependencies
//
// A license is an SPDX expression: OR needs one allowed side, AND both, and
// an exception (WITH) is permissive by definition here, so only its license
// counts. A dependency whose license cannot be told fails as well.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The permissive licenses that an MIT project (LICENSE) can depend on and
// ship with, keeping their notices.
const defaultAllow = "MIT,MIT-0,Apache-2.0,BSD-2-Clause,BSD-3-Clause,ISC,0BSD,CC0-1.0,Unlicense,Zlib,BSL-1.0,PSF-2.0,Unicode-3.0,Unicode-DFS-2016"

// Dependencies under a license outside the allow list that were looked at and
// accepted, each with the license it was accepted under (a new version under
// another license fails again) and why.
var reviewed = map[string]struct{ license, why string }{
	"github.com/ajstarks/svgo": {"CC-BY-4.0", "the survey's SVG chart (harness/survey): CC BY 4.0 is no software license but asks only for attribution; " +
		"credit it where the driver is distributed, or replace it"},
	"minimatch":                       {"BlueOak-1.0.0", "ESLint's glob matching (kits/ts's lint, dev only): a permissive license that asks only for its notice"},
	"@isaacs/nonrecursive-glob-match": {"BlueOak-1.0.0", "minimatch's, for ESLint (kits/ts's lint, dev only): a permissive license that asks only for its notice"},
}

// A dep is one dependency of one part of the project.
type dep struct {
	Eco     string // go, python, npm, rust
	Name    string
	Version string
	License string // an SPDX expression, or "" when unknown
	Scope   string // runtime: shipped to or pulled in by users; dev: tests and builds only
	UsedBy  string // which part of the project needs it
}

func main() {
	root := flag.String("root", ".", "the repository's root `folder`")
	python := flag.String("python", "adapters/python/.venv/bin/python", "the Python with difffuzz-kit installed (relative to -root)")
	allow := flag.String("allow", defaultAllow, "comma-separated allowed SPDX license `ids`")
	md := flag.String("md", "", "write the list as Markdown to this `file` (relative to -root; empty: none)")
	flag.Parse()
	os.Exit(run(*root, *python, *allow, *md, os.Stdout, os.Stderr))
}

func run(root, python, allowList, md string, stdout, stderr io.Writer) int {
	allow := map[string]bool{}
	for _, id := range strings.Split(allowList, ",") {
		allow[strings.TrimSpace(id)] = true
	}
	var deps []dep
	var errs []string
	for _, src := range []struct {
		name string
		list func() ([]dep, error)
	}{
		{"go", func() ([]dep, error) { return goDeps(root) }},
		{"python", func() ([]dep, error) { return pythonDeps(root, python) }},
		{"npm", func() ([]dep, error) { return npmDeps(filepath.Join(root, "kits/ts")) }},
		{"rust", func() ([]dep, error) { return rustDeps(filepath.Join(root, "kits/rust")) }},
	} {
		d, err := src.list()
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", src.name, err))
		}
		deps = append(deps, d...)
	}
	sort.SliceStable(deps, func(i, j int) bool {
		a, b := deps[i], deps[j]
		if a.Eco != b.Eco {
			return ecoOrder(a.Eco) < ecoOrder(b.Eco)
		}
		return a.Name < b.Name
	})
	var bad []dep
	for _, d := range deps {
		if r, ok := reviewed[d.Name]; ok && r.license == d.License {
			continue
		}
		if !allowed(d.License, allow) {
			bad = append(bad, d)
		}
	}
	for _, d := range bad {
		lic := d.License
		if lic == "" {
			lic = "unknown"
		}
		fmt.Fprintf(stderr, "licenses: %s %s %s (%s, %s): %s is not in the allow list\n", d.Eco, d.Name, d.Version, d.Scope, d.UsedBy, lic)
	}
	for _, e := range errs {
		fmt.Fprintf(stderr, "licenses: %s\n", e)
	}
	if md != "" {
		if err := os.WriteFile(filepath.Join(root, md), markdown(deps, allowList), 0o644); err != nil {
			fmt.Fprintf(stderr, "licenses: %v\n", err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "licenses: %s; %d outside the allow list\n", summary(deps), len(bad))
	if len(bad) > 0 || len(errs) > 0 {
		return 1
	}
	return 0
}

func ecoOrder(eco string) int {
	return strings.Index("go python npm rust", eco)
}

// summary is the count of dependencies and of each license.
func summary(deps []dep) string {
	count := map[string]int{}
	for _, d := range deps {
		count[d.License]++
	}
	var ids []string
	for id := range count {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if count[ids[i]] != count[ids[j]] {
			return count[ids[i]] > count[ids[j]]
		}
		return ids[i] < ids[j]
	})
	var parts []string
	for _, id := range ids {
		name := id
		if name == "" {
			name = "unknown"
		}
		parts = append(parts, fmt.Sprintf("%s %d", name, count[id]))
	}
	return fmt.Sprintf("%d dependencies (%s)", len(deps), strings.Join(parts, ", "))
}

func markdown(deps []dep, allowList string) []byte {
	var b strings.Builder
	b.WriteString("# Licenses of the dependencies\n\n")
	b.WriteString("difffuzz is under the MIT license ([LICENSE](../LICENSE)). This page lists every\n")
	b.WriteString("dependency of the driver and of the four worker kits, direct and transitive,\n")
	b.WriteString("with its license. It is written by `make check-licenses`\n")
	b.WriteString("(scripts/check-licenses.sh, tools/licenses), which fails on a license outside\n")
	b.WriteString("the allow list:\n\n")
	fmt.Fprintf(&b, "> %s\n\n", strings.ReplaceAll(allowList, ",", ", "))
	b.WriteString("*runtime*: a user of the driver or of a kit gets it; *dev*: the project's\n")
	b.WriteString("tests and builds only. A Rust crate is listed for every platform.\n\n")
	if len(reviewed) > 0 {
		b.WriteString("Accepted outside the allow list, after review (tools/licenses, `reviewed`):\n\n")
		var names []string
		for name := range reviewed {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			fmt.Fprintf(&b, "- %s (%s): %s\n", name, reviewed[name].license, reviewed[name].why)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Summary: %s.\n", summary(deps))
	titles := map[string]string{
		"go":     "Go: the driver and kits/go (go list -deps -test ./... ./kits/go/...)",
		"python": "Python: kits/python (difffuzz-kit's requirements, as installed)",
		"npm":    "npm: kits/ts (package-lock.json)",
		"rust":   "Rust: kits/rust with the serde_json feature (cargo metadata)",
	}
	last := ""
	for _, d := range deps {
		if d.Eco != last {
			fmt.Fprintf(&b, "\n## %s\n\n| dependency | version | license | scope | needed by |\n|---|---|---|---|---|\n", titles[d.Eco])
			last = d.Eco
		}
		lic := d.License
		if lic == "" {
			lic = "unknown"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", d.Name, d.Version, lic, d.Scope, d.UsedBy)
	}
	return []byte(b.String())
}
