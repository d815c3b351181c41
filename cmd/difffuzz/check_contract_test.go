package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/internal/testworker"
)

// adapter check holds a worker to -contract, or else to the contract its
// config claims for it: a correct RFC 8785 implementation passes with no
// failure list, and one with a nesting limit of its own (100 levels, which
// RFC 8785 leaves open) passes too, its limit noted. Held to this
// project's contract, it fails.
func TestAdapterCheckUnderContract(t *testing.T) {
	worker := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/canonjson-worker")
	dir := t.TempDir()
	limit := filepath.Join(dir, "limit.toml")
	if err := os.WriteFile(limit, []byte("base = \"rfc8785\"\nmax_depth = 100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "difffuzz.toml")
	if err := os.WriteFile(config, []byte("contract = \"rfc8785\"\n\n[[adapter]]\nname = \"sdk\"\ncommand = [\""+worker+"\", \"-contract\", \"rfc8785\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"-contract", []string{"-config", "../../difffuzz.toml", "-contract", "rfc8785", worker + " -contract rfc8785"}, 0, "PASS generated (512 cases, seed 1)"},
		{"the config's claim", []string{"-config", config, "sdk"}, 0, "PASS error-codes/bad_envelope"},
		{"a limit of its own", []string{"-config", "../../difffuzz.toml", "-contract", "rfc8785", worker + " -contract " + limit}, 0, "allowed by rfc8785: depth_limit"},
		{"held to ours", []string{"-config", "../../difffuzz.toml", worker + " -contract rfc8785"}, 1, "FAIL spec-examples"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{"adapter", "check"}, quick(t)...), tt.args...)
			code, out, errs := runCLIRaw(t, args...)
			if code != tt.code || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, want %d and %q\n%s\n%s", code, tt.code, tt.want, out, errs)
			}
		})
	}
}
