package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/internal/testworker"
)

// A library that differs from the rfc8785 reference only where RFC 8785
// leaves the choice open (its own nesting limit of 100, integers read as
// the nearest double) passes a run under rfc8785: its differences are its
// profile, not divergences. Under a file closing those allowances, the
// same library fails.
func TestRunAllowedIsProfile(t *testing.T) {
	dir := t.TempDir()
	lenient := filepath.Join(dir, "lenient.toml")
	if err := os.WriteFile(lenient, []byte("base = \"rfc8785\"\nmax_depth = 100\n\n[numbers]\nbig_ints = \"double\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	closed := filepath.Join(dir, "closed.toml")
	if err := os.WriteFile(closed, []byte("base = \"rfc8785\"\n\n[allows]\ndepth_floor = 0\nbig_ints = \"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	worker := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/canonjson-worker")
	for _, tt := range []struct {
		name, contract string
		want           int
	}{
		{"rfc8785 allows it", "rfc8785", 0},
		{"closed", closed, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			code, stdout, errs := runCLI(t, "", "run", "-config", "", "-contract", tt.contract,
				"-adapters", "reference,sdk", "-adapter", "sdk="+worker+" -contract "+lenient,
				"-cases", "6000", "-seed", "3", "-workers", "1", "-minimize-time", "-1s",
				"-corpus", filepath.Join(out, "corpus"), "-report", filepath.Join(out, "report.json"))
			if code != tt.want {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tt.want, stdout, errs)
			}
			if tt.want != 0 {
				return
			}
			data, err := os.ReadFile(filepath.Join(out, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				Profiles []struct {
					Adapter string
					Traits  []struct{ Trait string }
				}
			}
			if err := json.Unmarshal(data, &rep); err != nil {
				t.Fatal(err)
			}
			var traits []string
			for _, p := range rep.Profiles {
				for _, tr := range p.Traits {
					traits = append(traits, p.Adapter+" "+tr.Trait)
				}
			}
			got := strings.Join(traits, ", ")
			for _, want := range []string{"sdk depth_limit", "sdk big_ints"} {
				if !strings.Contains(got, want) {
					t.Errorf("profile %q lacks %q\n%s", got, want, stdout)
				}
			}
			if !strings.Contains(stdout, "allowed by contract rfc8785") {
				t.Errorf("the summary shows no profile:\n%s", stdout)
			}
		})
	}
}

// An adapter with no contract key claims the config's: a run judged by
// another is refused, as one with its own key is.
func TestRunRefusesTheConfigsClaim(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "difffuzz.toml")
	if err := os.WriteFile(config, []byte("contract = \"rfc8785\"\n\n[[adapter]]\nname = \"sdk\"\ncommand = [\"true\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, "", "run", "-config", config, "-contract", "difffuzz", "-cases", "1")
	if code != 2 || !strings.Contains(errs, "adapter sdk claims the contract rfc8785, and this run is judged by difffuzz: run it with -contract rfc8785") {
		t.Errorf("exit %d, want 2 and why:\n%s", code, errs)
	}
}

// A finding judged by a contract file records the file, and a replay
// refusing it for its contract names the file by its path, a -contract
// that works.
func TestReplayNamesTheContractFile(t *testing.T) {
	dir := t.TempDir()
	delRaw := filepath.Join(dir, "del-raw.toml")
	if err := os.WriteFile(delRaw, []byte("[strings]\ndel = \"raw\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	worker := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/canonjson-worker")
	corpusDir := filepath.Join(dir, "corpus")
	sdk := "sdk=" + worker + " -contract difffuzz"
	code, stdout, errs := runCLI(t, "", "run", "-config", "", "-contract", delRaw, "-adapters", "reference,sdk", "-adapter", sdk,
		"-cases", "2000", "-seed", "5", "-workers", "1", "-minimize-time", "-1s", "-corpus", corpusDir, "-report", filepath.Join(dir, "report.json"))
	if code != 1 {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, errs)
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	if len(files) == 0 {
		t.Fatal("no finding")
	}
	code, _, errs = runCLI(t, "", "replay", "-config", "", "-adapters", "reference,sdk", "-adapter", sdk, files[0])
	if code != 2 || !strings.Contains(errs, "replay it with -contract "+delRaw) {
		t.Fatalf("replay under the default contract: exit %d, want 2 and the file\n%s", code, errs)
	}
	code, stdout, _ = runCLI(t, "", "replay", "-config", "", "-contract", delRaw, "-adapters", "reference,sdk", "-adapter", sdk, files[0])
	if code != 1 {
		t.Errorf("replay with the suggested -contract: exit %d, want 1 (it still diverges)\n%s", code, stdout)
	}
}

// A worker reference is held to -contract all the same: the run says so
// and is judged, and its cases drawn, by that contract.
func TestRunWorkerReferenceFollowsContract(t *testing.T) {
	worker := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/canonjson-worker")
	out := t.TempDir()
	code, stdout, errs := runCLI(t, "", "run", "-config", "", "-contract", "rfc8785", "-adapters", "ref,sdk",
		"-adapter", "ref="+worker+" -contract rfc8785", "-adapter", "sdk="+worker+" -contract rfc8785",
		"-cases", "2000", "-seed", "5", "-workers", "1", "-minimize-time", "-1s",
		"-corpus", filepath.Join(out, "corpus"), "-report", filepath.Join(out, "report.json"))
	if code != 0 || !strings.Contains(errs, "contract rfc8785 (the reference ref is a worker") {
		t.Fatalf("exit %d, want 0 and the contract said\n%s\n%s", code, stdout, errs)
	}
	data, _ := os.ReadFile(filepath.Join(out, "report.json"))
	if !strings.Contains(string(data), `"contract": "rfc8785"`) {
		t.Errorf("the report is not judged by rfc8785")
	}
}
