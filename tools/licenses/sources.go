package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func command(dir, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// goModules lists the modules (other than the main one) that provide the
// packages of go list -deps ARGS..., as path -> "version\tdir".
func goModules(root string, args ...string) (map[string]string, error) {
	args = append([]string{"list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}}\t{{.Version}}\t{{.Dir}}{{end}}{{end}}"}, args...)
	out, err := command(root, "go", args...)
	if err != nil {
		return nil, err
	}
	mods := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if path, rest, ok := strings.Cut(line, "\t"); ok {
			mods[path] = rest
		}
	}
	return mods, nil
}

// goDeps: the driver's module, its tests, and the Go kit's (a module of
// its own, which the repository's go.work builds with the driver's; as a
// main module of the workspace it is no dependency of its own).
func goDeps(root string) ([]dep, error) {
	all, err := goModules(root, "-test", "./...", "./kits/go/...")
	if err != nil {
		return nil, err
	}
	driver, err := goModules(root, "./cmd/difffuzz")
	if err != nil {
		return nil, err
	}
	kit, err := goModules(root, "./kits/go/...")
	if err != nil {
		return nil, err
	}
	var deps []dep
	for path, rest := range all {
		version, dir, _ := strings.Cut(rest, "\t")
		d := dep{Eco: "go", Name: path, Version: version, License: goLicense(dir), Scope: "dev", UsedBy: "tests"}
		var users []string
		if _, ok := driver[path]; ok {
			users = append(users, "driver")
		}
		if _, ok := kit[path]; ok {
			users = append(users, "kits/go")
		}
		if len(users) > 0 {
			d.Scope, d.UsedBy = "runtime", strings.Join(users, ", ")
		}
		deps = append(deps, d)
	}
	return deps, nil
}

// goLicense classifies the license files at a module's root; several files
// must all be allowed (AND).
func goLicense(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var ids []string
	for _, e := range entries {
		up := strings.ToUpper(e.Name())
		if e.IsDir() || !(strings.HasPrefix(up, "LICENSE") || strings.HasPrefix(up, "LICENCE") || strings.HasPrefix(up, "COPYING")) {
			continue
		}
		text, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return ""
		}
		id := classify(string(text))
		if id == "" {
			return ""
		}
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return strings.Join(dedup(ids), " AND ")
}

func dedup(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// The requirements of difffuzz-kit, followed transitively through the
// installed distributions' metadata (no extras, markers evaluated).
const pythonScript = `
import importlib.metadata as md, json, re
from packaging.requirements import Requirement
seen, todo = {}, ["difffuzz-kit"]
while todo:
    name = todo.pop()
    dist = md.distribution(name)
    key = dist.metadata["Name"].lower()
    if key in seen:
        continue
    meta = dist.metadata
    lic = meta.get("License-Expression") or ""
    if not lic:
        cls = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or [] if c.startswith("License :: ")]
        lic = meta.get("License") or (cls[0] if cls else "")
    seen[key] = {"name": meta["Name"], "version": dist.version, "license": lic.strip()}
    for r in dist.requires or []:
        req = Requirement(r)
        if req.marker is None or req.marker.evaluate({"extra": ""}):
            todo.append(req.name)
for k in sorted(seen):
    print(json.dumps(seen[k]))
`

func pythonDeps(root, python string) ([]dep, error) {
	out, err := command(root, python, "-c", pythonScript)
	if err != nil {
		return nil, err
	}
	var deps []dep
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var d struct{ Name, Version, License string }
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, err
		}
		if strings.EqualFold(d.Name, "difffuzz-kit") {
			continue
		}
		deps = append(deps, dep{Eco: "python", Name: d.Name, Version: d.Version, License: normalize(d.License), Scope: "runtime", UsedBy: "kits/python"})
	}
	return deps, sc.Err()
}

// npmDeps reads the kit's lock file: every package it installs, dev ones
// marked so.
func npmDeps(dir string) ([]dep, error) {
	data, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return nil, err
	}
	var lock struct {
		Packages map[string]struct {
			Version string
			License string
			Dev     bool
		}
	}
	if err := json.Unmarshal(data, &lock); err != nil {
		return nil, err
	}
	var deps []dep
	for path, p := range lock.Packages {
		if path == "" {
			continue
		}
		name := path[strings.LastIndex(path, "node_modules/")+len("node_modules/"):]
		d := dep{Eco: "npm", Name: name, Version: p.Version, License: normalize(p.License), Scope: "runtime", UsedBy: "kits/ts"}
		if p.Dev {
			d.Scope, d.UsedBy = "dev", "kits/ts tests and build"
		}
		deps = append(deps, d)
	}
	return deps, nil
}

// rustDeps reads cargo metadata: a crate reached from the kit by normal or
// build edges is runtime, one reached only through dev-dependencies dev.
func rustDeps(dir string) ([]dep, error) {
	out, err := command(dir, "cargo", "metadata", "--format-version", "1", "--locked", "--features", "serde_json")
	if err != nil {
		return nil, err
	}
	var meta struct {
		Packages []struct{ ID, Name, Version, License string }
		Resolve  struct {
			Root  string
			Nodes []struct {
				ID   string
				Deps []struct {
					Pkg      string
					DepKinds []struct{ Kind *string } `json:"dep_kinds"`
				}
			}
		}
	}
	if err := json.Unmarshal(out, &meta); err != nil {
		return nil, err
	}
	edges := map[string][]string{} // id -> its normal and build dependencies
	for _, n := range meta.Resolve.Nodes {
		for _, d := range n.Deps {
			for _, k := range d.DepKinds {
				if k.Kind == nil || *k.Kind == "build" {
					edges[n.ID] = append(edges[n.ID], d.Pkg)
					break
				}
			}
		}
	}
	runtime := map[string]bool{}
	var walk func(string)
	walk = func(id string) {
		if runtime[id] {
			return
		}
		runtime[id] = true
		for _, next := range edges[id] {
			walk(next)
		}
	}
	walk(meta.Resolve.Root)
	var deps []dep
	for _, p := range meta.Packages {
		if p.ID == meta.Resolve.Root {
			continue
		}
		d := dep{Eco: "rust", Name: p.Name, Version: p.Version, License: p.License, Scope: "dev", UsedBy: "kits/rust tests"}
		if runtime[p.ID] {
			d.Scope, d.UsedBy = "runtime", "kits/rust"
		}
		deps = append(deps, d)
	}
	return deps, nil
}
