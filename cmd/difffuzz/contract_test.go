package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/internal/testworker"
)

// -contract judges a run by the contract it names: the Go worker following
// a contract agrees with the in-process reference following the same one,
// and diverges from it under another; a team's file that writes DEL raw
// makes a worker that writes DEL raw agree, and one that escapes it
// diverge. No config file is read: this folder has no difffuzz.toml.
func TestRunByContract(t *testing.T) {
	dir := t.TempDir()
	delRaw := filepath.Join(dir, "del-raw.toml")
	if err := os.WriteFile(delRaw, []byte("name = \"our-sdk\"\n\n[strings]\ndel = \"raw\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	worker := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/canonjson-worker")
	tests := []struct {
		name, contract, workerContract string
		want                           int
		cause                          string // in the report when it diverges
	}{
		{"rfc8785 both", "rfc8785", "rfc8785", 0, ""},
		{"rfc8785 judge, ours worker", "rfc8785", "difffuzz", 1, "\"contract\": \"rfc8785\""},
		{"DEL raw both", delRaw, delRaw, 0, ""},
		{"DEL raw judge, DEL escaped worker", delRaw, "difffuzz", 1, "U+007F"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			code, stdout, errs := runCLI(t, "", "run", "-config", "", "-contract", tt.contract,
				"-adapters", "reference,sdk", "-adapter", "sdk="+worker+" -contract "+tt.workerContract,
				"-cases", "4000", "-seed", "5", "-workers", "1", "-minimize-time", "-1s",
				"-corpus", filepath.Join(out, "corpus"), "-report", filepath.Join(out, "report.json"))
			if code != tt.want {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tt.want, stdout, errs)
			}
			report, err := os.ReadFile(filepath.Join(out, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			if tt.cause != "" && !strings.Contains(string(report), tt.cause) {
				t.Errorf("the report does not say %q:\n%s", tt.cause, stdout)
			}
		})
	}
}

// A -contract that names no built-in and no file is a setup error that
// lists the built-ins.
func TestRunUnknownContract(t *testing.T) {
	code, _, errs := runCLI(t, "", "run", "-config", "", "-contract", "jcs", "-adapter", "x=true", "-cases", "1")
	if code != 2 || !strings.Contains(errs, "built-ins: difffuzz, rfc8785") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
}

// A finding records the contract it was judged by, and a replay under
// another contract refuses it, saying which to replay it with.
func TestReplayKeepsItsContract(t *testing.T) {
	worker := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/canonjson-worker")
	out := t.TempDir()
	corpusDir := filepath.Join(out, "corpus")
	sdk := "sdk=" + worker + " -contract difffuzz"
	code, stdout, errs := runCLI(t, "", "run", "-config", "", "-contract", "rfc8785", "-adapters", "reference,sdk", "-adapter", sdk,
		"-cases", "2000", "-seed", "5", "-workers", "1", "-minimize-time", "-1s", "-corpus", corpusDir, "-report", filepath.Join(out, "report.json"))
	if code != 1 {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, errs)
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	if len(files) == 0 {
		t.Fatal("no finding")
	}
	data, _ := os.ReadFile(files[0])
	if !strings.Contains(string(data), `"contract": "rfc8785"`) {
		t.Errorf("the finding does not record its contract:\n%s", data)
	}
	code, _, errs = runCLI(t, "", "replay", "-config", "", "-adapters", "reference,sdk", "-adapter", sdk, files[0])
	if code != 2 || !strings.Contains(errs, "replay it with -contract rfc8785") {
		t.Errorf("replay under the default contract: exit %d, want 2 and why\n%s", code, errs)
	}
	code, stdout, _ = runCLI(t, "", "replay", "-config", "", "-contract", "rfc8785", "-adapters", "reference,sdk", "-adapter", sdk, files[0])
	if code != 1 {
		t.Errorf("replay under its contract: exit %d, want 1 (it still diverges)\n%s", code, stdout)
	}
}

// An adapter that claims a contract (its contract key in the config) is not
// run under another: its contract's choices would all be reported as bugs.
// Under the contract it claims, the run goes on.
func TestRunRefusesAnotherClaim(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "difffuzz.toml")
	if err := os.WriteFile(config, []byte("[[adapter]]\nname = \"sdk\"\ncommand = [\"true\"]\ncontract = \"rfc8785\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, "", "run", "-config", config, "-cases", "1")
	if code != 2 || !strings.Contains(errs, "adapter sdk claims the contract rfc8785, and this run is judged by difffuzz: run it with -contract rfc8785") {
		t.Errorf("exit %d, want 2 and why:\n%s", code, errs)
	}
	code, _, errs = runCLI(t, "", "run", "-config", config, "-contract", "rfc8785", "-cases", "1")
	if strings.Contains(errs, "claims the contract") {
		t.Errorf("under its own contract, exit %d:\n%s", code, errs)
	}
}
