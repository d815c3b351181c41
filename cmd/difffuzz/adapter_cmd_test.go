package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/conform"
	"github.com/difffuzz/difffuzz/internal/testworker"
)

const fixturesDir = "../../tests/fixtures/canonical-json-fuzz"

// quick is the flags of a check that tests what a fake worker does rather
// than the fixtures: 512 generated cases, and of the fixtures only those
// made by hand (edge cases, out-of-domain inputs, regressions), not the
// 10,000 random ones, a fifth of a check's CPU. The Go worker's check
// (TestAdapterCheckGoWorker) sends them all.
func quick(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"edge.jsonl", "out-of-domain.jsonl", "regressions.jsonl"} {
		abs, err := filepath.Abs(filepath.Join(fixturesDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return []string{"-fixtures", dir, "-cases", "512", "-timeout", "5s"}
}

var summaryLine = regexp.MustCompile(`(?m)^(\d+) passed, (\d+) failed\n\z`)

// checkAdapter runs "difffuzz adapter check" on a command line.
func checkAdapter(t *testing.T, command string, flags ...string) (int, string, string) {
	t.Helper()
	args := append([]string{"adapter", "check", "-config", "../../difffuzz.toml", "-fixtures", fixturesDir}, flags...)
	code, out, errs := runCLIRaw(t, append(args, command)...)
	if !summaryLine.MatchString(out) {
		t.Errorf("output does not end with the summary line:\n%s", out)
	}
	return code, out, errs
}

// runCLIRaw runs the command in process with exactly these arguments.
func runCLIRaw(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	c := &CLI{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")}
	code := c.Main(t.Context(), args)
	return code, out.String(), errb.String()
}

// failed lists the checks of the FAIL lines.
func failed(out string) []string {
	var names []string
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "FAIL "); ok {
			name, _, _ := strings.Cut(rest, ":")
			names = append(names, name)
		}
	}
	return names
}

// buildGoWorker builds cmd/canonjson-worker once per test binary.
func buildGoWorker(t *testing.T) string {
	return testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/canonjson-worker")
}

// knownGoWorkerFailures are the checks the Go worker fails today, each a bug
// in the worker against docs/adapter-protocol.md. Like protobuf's failure
// lists it cannot go stale: the test fails when a listed check passes. (The
// four it once held, non-UTF-8 str keys and values and input ending inside a
// frame, are fixed.)
var knownGoWorkerFailures = []string{}

func TestAdapterCheckGoWorker(t *testing.T) {
	t.Parallel()
	code, out, errs := checkAdapter(t, buildGoWorker(t))
	got := failed(out)
	for _, name := range got {
		if !slices.Contains(knownGoWorkerFailures, name) {
			t.Errorf("new failure of the Go worker: %s", name)
		}
	}
	for _, name := range knownGoWorkerFailures {
		if !slices.Contains(got, name) {
			t.Errorf("%s now passes: remove it from knownGoWorkerFailures", name)
		}
	}
	if want := min(len(got), 1); code != want {
		t.Errorf("exit %d, want %d", code, want)
	}
	for _, check := range []string{"PASS handshake (protocol 4 on descriptors 3,4, language go, name canonjson-go, version ", "PASS spec-examples (17 examples)",
		"PASS fixtures/edge.jsonl", "PASS generated (10000 cases, seed 1)", "PASS digest-only (2000 cases, texts left out, batch cost ", "PASS eof"} {
		if !strings.Contains(out, check) {
			t.Errorf("no %q line", check)
		}
	}
	if t.Failed() {
		t.Logf("stdout:\n%s\nstderr:\n%s", out, errs)
	}
}

func TestAdapterCheckCatchesWrongWorkers(t *testing.T) {
	tests := []struct {
		mode   []string
		check  string // the first check that must fail
		reason string // in its FAIL line
	}{
		{[]string{"keyorder"}, "spec-examples", `example 7 {"tool_name":"t","args":{"\uff61":1,"\ud83d\ude00":2}}: canonical text differs at byte 12 (key_order)`},
		{[]string{"number"}, "spec-examples", "example 4 {\"tool_name\":\"t\",\"args\":{\"f\":1e21,\"i\":1000000000000000000000}}: canonical text differs at byte 14 (number)"},
		{[]string{"wrong-id"}, "spec-examples", "answer id 2, want 1"},
		{[]string{"garbage"}, "spec-examples", "protocol: frame: msgpack"},
		{[]string{"lie-digest"}, "spec-examples", "is not BLAKE3 of the canonical text"},
		{[]string{"crash", "ping"}, "spec-examples", "crash: worker exited with status 3"},
		{[]string{"exit-at-start"}, "handshake", "worker ended before its hello (exited with status 1)"},
		{[]string{"bad-hello"}, "handshake", "protocol 99"},
	}
	// Not parallel with the other tests (their workers would be counted
	// below); its own checks run in parallel, in a group that ends when
	// they all have.
	t.Run("group", func(t *testing.T) {
		for _, tt := range tests {
			t.Run(tt.mode[0], func(t *testing.T) {
				t.Parallel()
				checkCatches(t, tt.mode, tt.check, tt.reason)
			})
		}
	})
	if pids := running(t, testworker.Command(t, "ok")[0]); len(pids) > 0 {
		t.Errorf("fake workers still running after the checks: %v", pids)
	}
}

// checkCatches checks the worker of the fake mode mode[0] (with the
// arguments mode[1:]) and wants check to be the first to fail, for reason.
func checkCatches(t *testing.T, mode []string, check, reason string) {
	argv := testworker.Command(t, mode[0], mode[1:]...)
	code, out, errs := checkAdapter(t, strings.Join(argv, " "), quick(t)...)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	line := "FAIL " + check + ": "
	i := strings.Index(out, line)
	if i < 0 || !strings.Contains(out[i:i+strings.Index(out[i:], "\n")], reason) {
		t.Errorf("no line %q...%q", line, reason)
	}
	if f := failed(out); len(f) == 0 || f[0] != check {
		t.Errorf("first failed check %v, want %s", f, check)
	}
	if t.Failed() {
		t.Logf("stdout:\n%s\nstderr:\n%s", out, errs)
	}
}

// The digest-only check holds a digest to the text it stands for, also
// when the text is left out, and reports what the worker said the batch
// cost (a version 1 worker says nothing).
func TestAdapterCheckDigestOnly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode string
		line string
	}{
		{"ok", "PASS digest-only (2000 cases, texts left out, batch cost "},
		{"v1", "PASS digest-only (2000 cases, texts left out, batch cost not said"},
		{"lie-digest", "FAIL digest-only: "},
		{"keyorder", "FAIL digest-only: "},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			_, out, _ := checkAdapter(t, strings.Join(testworker.Command(t, tt.mode), " "), quick(t)...)
			i := strings.Index(out, tt.line)
			if i < 0 {
				t.Fatalf("no line %q in:\n%s", tt.line, out)
			}
			line := out[i : i+strings.Index(out[i:], "\n")]
			if tt.mode == "lie-digest" || tt.mode == "keyorder" {
				if !strings.Contains(line, "differs from BLAKE3 of the wanted text") || strings.Contains(line, "got ``") {
					t.Errorf("line %q does not say the digest stands for another text", line)
				}
			}
		})
	}
}

// A worker passes wherever it speaks: on the driver's descriptors, printing
// or not, in protocol 4 or 3 (a text worker of 3 spelling its cases
// itself), or on stdin and stdout as a worker of protocol 2 does.
func TestAdapterCheckChannels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode, handshake string
	}{
		{"ok", "PASS handshake (protocol 4 on descriptors 3,4, "},
		{"chatty", "PASS handshake (protocol 4 on descriptors 3,4, "},
		{"v3", "PASS handshake (protocol 3 on descriptors 3,4, "},
		{"v3-text", "PASS handshake (protocol 3 on descriptors 3,4, "},
		{"v2", "PASS handshake (protocol 2 on stdin and stdout, "},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			code, out, errs := checkAdapter(t, strings.Join(testworker.Command(t, tt.mode), " "), quick(t)...)
			if code != 0 || !strings.Contains(out, tt.handshake) {
				t.Errorf("exit %d, want 0 and a line %q\nstdout:\n%s\nstderr:\n%s", code, tt.handshake, out, errs)
			}
		})
	}
}

func TestAdapterCheckStopsWithoutHello(t *testing.T) {
	_, out, _ := checkAdapter(t, strings.Join(testworker.Command(t, "exit-at-start"), " "))
	if !strings.HasSuffix(out, "0 passed, 1 failed\n") || strings.Count(out, "\n") != 2 {
		t.Errorf("want the handshake line and the summary only, got:\n%s", out)
	}
}

func TestAdapterCheckUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no subcommand", []string{"adapter"}, "usage: difffuzz adapter check"},
		{"unknown subcommand", []string{"adapter", "frob"}, `unknown subcommand "frob"`},
		{"no argument", []string{"adapter", "check", "-config", "../../difffuzz.toml"}, "want one NAME or COMMAND, got 0"},
		{"two arguments", []string{"adapter", "check", "-config", "../../difffuzz.toml", "node", "worker.js"}, "quote a command line"},
		{"unknown name", []string{"adapter", "check", "-config", "../../difffuzz.toml", "nosuchworker"}, `"nosuchworker" is neither an adapter of ../../difffuzz.toml (python, go, ts, rust, go-worker) nor a command`},
		{"in process", []string{"adapter", "check", "-config", "../../difffuzz.toml", "go"}, `adapter "go" runs inside the driver`},
		{"bad config", []string{"adapter", "check", "-config", "nosuch.toml", "python"}, "no adapter config at "},
		{"negative cases", []string{"adapter", "check", "-config", "../../difffuzz.toml", "-cases", "-1", "python"}, "-cases: want 0 or more"},
		{"no fixtures", []string{"adapter", "check", "-config", "../../difffuzz.toml", "-fixtures", t.TempDir(), "/bin/true"}, "fixtures: no *.jsonl files in"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLIRaw(t, tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errs, tt.want) {
				t.Errorf("stderr %q, want %q", errs, tt.want)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}

// running lists the processes whose program is path.
func running(t *testing.T, path string) []string {
	t.Helper()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var pids []string
	for _, d := range dirs {
		cmdline, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err == nil && strings.HasPrefix(string(cmdline), path+"\x00") {
			pids = append(pids, filepath.Base(d))
		}
	}
	return pids
}

// A native or text worker passes when its inexpressible answers are
// declared and true, and fails when it hides cases its model can hold.
func TestAdapterCheckNativeModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode   string
		code   int
		lines  []string
		refuse string
	}{
		{"native", 0, []string{"PASS generated (512 cases, seed 1)", "PASS digest-only", "PASS spec-examples", "PASS error-codes/duplicate_key"}, "FAIL"},
		{"overclaim", 1, []string{"FAIL generated: ", "for a case that holds no such thing"}, ""},
		{"text", 0, []string{"model text)", "PASS generated (512 cases, seed 1)", "PASS error-codes/duplicate_key", "PASS error-codes/lone_surrogate"}, "FAIL"},
		{"textclaim", 1, []string{"FAIL generated: ", "in the text model, which spells everything but"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			code, out, _ := checkAdapter(t, strings.Join(testworker.Command(t, tt.mode), " "), quick(t)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s", code, tt.code, out)
			}
			for _, l := range tt.lines {
				if !strings.Contains(out, l) {
					t.Errorf("no %q in:\n%s", l, out)
				}
			}
			if tt.refuse != "" && strings.Contains(out, tt.refuse) {
				t.Errorf("unexpected %q in:\n%s", tt.refuse, out)
			}
		})
	}
}

// A failure list excuses exactly the checks it names: the run passes when
// they fail, fails when one of them passes, and refuses a name that is no
// check.
func TestAdapterCheckKnownFailures(t *testing.T) {
	t.Parallel()
	keyorder := strings.Join(testworker.Command(t, "keyorder"), " ")
	flags := quick(t)
	_, out, _ := checkAdapter(t, keyorder, flags...)
	fails := failed(out)
	if len(fails) == 0 {
		t.Fatalf("the keyorder worker failed no check:\n%s", out)
	}
	list := func(names ...string) string {
		p := filepath.Join(t.TempDir(), "known.txt")
		if err := os.WriteFile(p, []byte("# the worker's failure list\n\n"+strings.Join(names, "  # why\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	args := func(known string) []string {
		return append([]string{"adapter", "check", "-config", "../../difffuzz.toml", "-known", known}, flags...)
	}

	// The three lists' runs are independent checks of the worker: in
	// parallel.
	t.Run("every failure listed", func(t *testing.T) {
		t.Parallel()
		code, out, _ := runCLIRaw(t, append(args(list(fails...)), keyorder)...)
		if want := fmt.Sprintf(" 0 failed, %d known\n", len(fails)); code != 0 || !strings.HasSuffix(out, want) {
			t.Errorf("exit %d, want 0 and a summary ending %q:\n%s", code, want, out)
		}
		if !strings.Contains(out, "FAIL "+fails[0]+" (known): ") {
			t.Errorf("no known FAIL line for %s:\n%s", fails[0], out)
		}
	})
	t.Run("a passing check listed", func(t *testing.T) {
		t.Parallel()
		code, out, _ := runCLIRaw(t, append(args(list(slices.Concat(fails, []string{"eof"})...)), keyorder)...)
		if code != 1 || !strings.Contains(out, "FAIL eof: passes now, but the failure list says it fails") || !strings.HasSuffix(out, " 1 failed, "+strconv.Itoa(len(fails))+" known\n") {
			t.Errorf("exit %d, want 1 and a stale FAIL line:\n%s", code, out)
		}
	})
	t.Run("a failure left off", func(t *testing.T) {
		t.Parallel()
		code, out, _ := runCLIRaw(t, append(args(list(fails[1:]...)), keyorder)...)
		if code != 1 || !strings.Contains(out, "FAIL "+fails[0]+": ") {
			t.Errorf("exit %d, want 1:\n%s", code, out)
		}
	})
	t.Run("a misspelt check", func(t *testing.T) {
		code, _, errs := runCLIRaw(t, append(args(list("eof", "genrated")), keyorder)...)
		if code != 2 || !strings.Contains(errs, `failure list: "genrated" is no check of this run`) {
			t.Errorf("exit %d, want 2; stderr %q", code, errs)
		}
	})
}

// -write-known writes the checks the worker fails as its failure list,
// which -known then holds it to; a worker that does not start gets none.
func TestAdapterCheckWriteKnown(t *testing.T) {
	t.Parallel()
	keyorder := strings.Join(testworker.Command(t, "keyorder"), " ")
	base := append([]string{"adapter", "check", "-config", "../../difffuzz.toml"}, quick(t)...)
	path := filepath.Join(t.TempDir(), "known-failures.txt")
	os.WriteFile(path, []byte("# difffuzz init's empty list\n"), 0o644)

	code, out, errs := runCLIRaw(t, append(base, "-write-known", path, keyorder)...)
	fails := failed(out)
	if code != 0 || len(fails) == 0 || !strings.Contains(out, fmt.Sprintf("wrote %d failing checks to %s;", len(fails), path)) {
		t.Fatalf("-write-known: exit %d, want 0 and a wrote line:\n%s\n%s", code, out, errs)
	}
	known, err := conform.LoadKnown(path)
	if err != nil || !slices.Equal(known, fails) {
		t.Errorf("the list holds %q (%v), want the failed checks %q", known, err, fails)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "# The checks of difffuzz adapter check that ") || !strings.Contains(string(data), "#   difffuzz adapter check -known "+path+" '") {
		t.Errorf("the list's header does not say how to use it:\n%s", data)
	}

	code, out, _ = runCLIRaw(t, append(base, "-known", path, keyorder)...)
	if want := fmt.Sprintf(" 0 failed, %d known\n", len(fails)); code != 0 || !strings.HasSuffix(out, want) {
		t.Errorf("-known of the written list: exit %d, want 0 and a summary ending %q:\n%s", code, want, out)
	}

	gone := filepath.Join(t.TempDir(), "never.txt")
	code, _, errs = runCLIRaw(t, append(base, "-timeout", "1s", "-write-known", gone, "/bin/true")...)
	if _, err := os.Stat(gone); code != 2 || err == nil || !strings.Contains(errs, "did not start, so "+gone+" was not written") {
		t.Errorf("a worker without hello: exit %d (want 2), list there: %v; stderr %q", code, err == nil, errs)
	}
}
