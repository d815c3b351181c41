// Infracheck validates difffuzz's CI, container and Kubernetes files offline,
// with the parsers of the tools that read them: BuildKit's Dockerfile
// frontend and its build checks, compose-go (the loader and JSON schema of
// Docker Compose), the Kubernetes API types with strict decoding, and a
// POSIX shell parser for the command lines inside them. On top of each parse
// it checks the rules this project depends on (docs/nightly.md), and it
// checks every difffuzz command line in these files against the flags of the
// CLI built from this checkout.
//
// Usage (from scripts/check-infra.sh):
//
//	infracheck -root DIR -cli BIN
//
// It prints one line per check, "ok" or "FAIL" with the problems indented
// below, and exits 1 if any check failed, 2 on a usage error.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// check is one named check; run returns a one-line detail on success, or the
// problems found.
type check struct {
	name string
	run  func(*repo) (string, []string)
}

func main() {
	root := flag.String("root", ".", "the repository `folder`")
	cli := flag.String("cli", "bin/difffuzz", "the difffuzz `binary` built from this checkout")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: infracheck -root DIR -cli BIN")
		os.Exit(2)
	}
	abs, err := filepath.Abs(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "infracheck:", err)
		os.Exit(2)
	}
	r := &repo{root: abs, cli: *cli}
	checks := allChecks()
	failed := 0
	for _, c := range checks {
		detail, problems := c.run(r)
		if len(problems) == 0 {
			fmt.Printf("ok   %s: %s\n", c.name, detail)
			continue
		}
		failed++
		fmt.Printf("FAIL %s\n", c.name)
		seen := map[string]bool{}
		shown := 0
		for _, p := range problems {
			if seen[p] {
				continue
			}
			seen[p] = true
			if shown++; shown > 20 {
				fmt.Printf("       ... and more\n")
				break
			}
			fmt.Printf("       %s\n", strings.ReplaceAll(p, "\n", "\n       "))
		}
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// allChecks lists the checks in the order they run: later ones read what
// earlier ones learned.
func allChecks() []check {
	return []check{
		{"dockerfile build checks", checkDockerfileLint},
		{"dockerfile layout", checkDockerfileLayout},
		{"dockerignore", checkDockerignore},
		{"compose", checkCompose},
		{"kubernetes manifests", checkKubernetes},
		{"workflows", checkWorkflows},
		{"github action", checkAction},
		{"toolchain versions", checkVersions},
		// Last: it reads the command lines the checks above collected.
		{"difffuzz command lines", checkInvocations},
	}
}

// repo is the checkout under test and what the checks learn about it.
type repo struct {
	root string
	cli  string

	// Filled in by the checks, read by later ones.
	dockerfile  *dockerfileInfo
	composeInfo *composeInfo
	invocations []invocation
}

func (r *repo) path(rel string) string { return filepath.Join(r.root, filepath.FromSlash(rel)) }

func (r *repo) read(rel string) ([]byte, error) { return os.ReadFile(r.path(rel)) }

func (r *repo) exists(rel string) bool {
	_, err := os.Stat(r.path(rel))
	return err == nil
}

// problems collects messages, formatted.
type problems []string

func (p *problems) add(format string, a ...any) { *p = append(*p, fmt.Sprintf(format, a...)) }
