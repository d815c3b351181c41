package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
)

// Build outputs and installed dependencies that must stay out of the build
// context (the image makes its own), and sources the build must see.
var (
	mustIgnore = []string{
		".git", "bin", "out",
		"adapters/python/.venv", "adapters/ts/node_modules", "adapters/ts/dist", "adapters/rust/target",
	}
	mustKeep = []string{
		"Makefile", "go.mod", "go.sum", "difffuzz.toml", "known-divergences.txt",
		"cmd", "harness", "internal", "adapters", "corpus", "docs", "tests",
	}
)

// checkDockerignore checks .dockerignore with the build context's own
// pattern matcher: every build output is excluded, and no tracked file the
// build or the image needs is.
func checkDockerignore(r *repo) (string, []string) {
	var p problems
	data, err := r.read(".dockerignore")
	if err != nil {
		p.add("%v", err)
		return "", p
	}
	patterns, err := ignorefile.ReadAll(bytes.NewReader(data))
	if err != nil {
		p.add(".dockerignore: %v", err)
		return "", p
	}
	pm, err := patternmatcher.New(patterns)
	if err != nil {
		p.add(".dockerignore: %v", err)
		return "", p
	}
	for _, f := range mustIgnore {
		if ok, _ := pm.MatchesOrParentMatches(f); !ok {
			p.add(".dockerignore does not exclude %s", f)
		}
	}
	for _, f := range mustKeep {
		if !r.exists(f) {
			p.add("%s is missing from the repository (the image copies it)", f)
		}
	}
	tracked, err := trackedFiles(r)
	if err != nil {
		p.add("%v", err)
		return "", p
	}
	kept := 0
	for _, f := range tracked {
		if !underAny(f, mustKeep) {
			continue
		}
		if ok, _ := pm.MatchesOrParentMatches(f); ok {
			p.add(".dockerignore excludes %s, which the build needs", f)
			continue
		}
		kept++
	}
	return fmt.Sprintf("%d patterns exclude every build output and keep the %d tracked source files the build reads", len(patterns), kept), p
}

func underAny(f string, roots []string) bool {
	for _, r := range roots {
		if f == r || strings.HasPrefix(f, r+"/") {
			return true
		}
	}
	return false
}

// trackedFiles lists the files git tracks (and those it would add), relative;
// outside a git work tree, every file but the build outputs.
func trackedFiles(r *repo) ([]string, error) {
	cmd := exec.Command("git", "-C", r.root, "rev-parse", "--show-prefix")
	if prefix, err := cmd.Output(); err == nil && strings.TrimSpace(string(prefix)) == "" {
		cmd = exec.Command("git", "-C", r.root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("git ls-files: %v", err)
		}
		return strings.FieldsFunc(string(out), func(c rune) bool { return c == 0 }), nil
	}
	var out []string
	err := filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(r.root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && (underAny(rel, mustIgnore) || d.Name() == "__pycache__") {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}
