// Package testworker builds the fake worker of the fault tests once per test
// binary and gives its command lines.
package testworker

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	once sync.Once
	path string
	err  error
)

// Command returns the argv of a fake worker in the given mode (see
// difffuzz/internal/fakeworker), building it on first use.
func Command(t testing.TB, mode string, args ...string) []string {
	t.Helper()
	once.Do(func() {
		dir, e := os.MkdirTemp("", "fakeworker")
		if e != nil {
			err = e
			return
		}
		path = filepath.Join(dir, "fakeworker")
		out, e := exec.Command("go", "build", "-o", path, "difffuzz/internal/fakeworker").CombinedOutput()
		if e != nil {
			err = &buildError{e, string(out)}
		}
	})
	if err != nil {
		t.Fatalf("build fake worker: %v", err)
	}
	return append([]string{path, mode}, args...)
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }
