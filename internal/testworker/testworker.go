// Package testworker builds the programs that tests run as real processes
// (the fake worker, the Go worker, difffuzz itself), each once per test
// binary, and gives their command lines.
package testworker

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	mu     sync.Mutex
	builds = map[string]*build{}
)

type build struct {
	once sync.Once
	path string
	err  error
}

// Binary builds the main package pkg (an import path) on first use and
// returns the executable's path; a failed build fails the test.
func Binary(t testing.TB, pkg string) string {
	t.Helper()
	mu.Lock()
	b := builds[pkg]
	if b == nil {
		b = &build{}
		builds[pkg] = b
	}
	mu.Unlock()
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", filepath.Base(pkg))
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(dir, filepath.Base(pkg))
		if out, err := exec.Command("go", "build", "-o", b.path, pkg).CombinedOutput(); err != nil {
			b.err = &buildError{err, string(out)}
		}
	})
	if b.err != nil {
		t.Fatalf("build %s: %v", pkg, b.err)
	}
	return b.path
}

// Command returns the argv of a fake worker in the given mode (see
// github.com/difffuzz/difffuzz/cmd/fakeworker), building it on first use.
func Command(t testing.TB, mode string, args ...string) []string {
	t.Helper()
	return append([]string{Binary(t, "github.com/difffuzz/difffuzz/cmd/fakeworker"), mode}, args...)
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }
