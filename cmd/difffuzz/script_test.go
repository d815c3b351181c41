package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/internal/testworker"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts under testdata/script run difffuzz itself as a
// command, in a process of its own, as a user would.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"difffuzz": main})
}

// TestScripts runs the CLI's end-to-end scripts in a folder that holds a
// copy of the repository's difffuzz.toml, as the repository's root does.
// $FAKE is the fake worker, $KITS the checkout's kits/ (for difffuzz init
// -kit-source), $PYTHON the project's venv's interpreter (make python), which
// has the Python kit; the condition [python] says whether it is there. The
// go command gets the caches of this one, and no network.
func TestScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	fake := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/fakeworker")
	config, err := os.ReadFile("../../difffuzz.toml")
	if err != nil {
		t.Fatal(err)
	}
	kits, err := filepath.Abs("../../kits")
	if err != nil {
		t.Fatal(err)
	}
	goEnv := goCaches(t)
	python, err := filepath.Abs("../../adapters/python/.venv/bin/python")
	if err != nil {
		t.Fatal(err)
	}
	_, noPython := os.Stat(python)
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Condition: func(cond string) (bool, error) {
			if cond == "python" {
				return noPython == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("FAKE", fake)
			env.Setenv("KITS", kits)
			env.Setenv("PYTHON", python)
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			return os.WriteFile(filepath.Join(env.WorkDir, "difffuzz.toml"), config, 0o644)
		},
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
	})
}

// goCaches is the environment that lets a script's go command build from
// this one's caches alone: its build and module caches, no proxy and no
// checksum database.
func goCaches(t *testing.T) map[string]string {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	v := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(v) != 3 {
		t.Fatalf("go env: %q", out)
	}
	return map[string]string{"GOCACHE": v[0], "GOMODCACHE": v[1], "GOPATH": v[2],
		"GOPROXY": "off", "GOSUMDB": "off", "GOTOOLCHAIN": "local", "GOFLAGS": ""}
}

// The README's worked example is testdata/script/readme.txtar: every command
// the README prints is in the script, with the script's paths, so the page
// cannot drift from what is tested.
func TestReadmeExampleIsTested(t *testing.T) {
	script, err := os.ReadFile("testdata/script/readme.txtar")
	if err != nil {
		t.Fatal(err)
	}
	commands := readmeCommands(t, "../../README.md", "## A worked example")
	if len(commands) < 4 {
		t.Fatalf("found %d commands in the README's worked example, want its run, minimize and replays", len(commands))
	}
	for _, c := range commands {
		if !strings.Contains(string(script), c) {
			t.Errorf("the README's command\n  %s\nis not in testdata/script/readme.txtar", c)
		}
	}
}

// readmeCommands returns the "$ " lines of the console blocks in the
// section that starts with heading, in the script's spelling: bin/difffuzz
// is difffuzz, /tmp/fake (inside the README's single quotes) is $FAKE and
// /tmp/ is $WORK/.
func readmeCommands(t *testing.T, path, heading string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	repl := strings.NewReplacer("bin/difffuzz", "difffuzz", "/tmp/fake", "'$FAKE'", "/tmp/", "$WORK/")
	in, skipBuild := false, regexp.MustCompile(`^go build `)
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = strings.HasPrefix(line, heading)
		case in && strings.HasPrefix(line, "$ "):
			c := strings.TrimPrefix(line, "$ ")
			if !skipBuild.MatchString(c) { // the script's $FAKE is built by the test
				out = append(out, repl.Replace(c))
			}
		}
	}
	return out
}

// Each example of docs/your-sdk.md is a real file, byte for byte, and under
// 20 lines: the kits' tests run the files, so the page cannot rot.
func TestYourSDKExamplesAreTheFiles(t *testing.T) {
	doc, err := os.ReadFile("../../docs/your-sdk.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)<!-- file: (\\S+) -->\n```\\w*\n(.*?)\n```\n").FindAllSubmatch(doc, -1)
	if len(blocks) != 4 {
		t.Fatalf("%d example files in docs/your-sdk.md, want one per language", len(blocks))
	}
	for _, b := range blocks {
		path, body := string(b[1]), string(b[2])
		file, err := os.ReadFile(filepath.Join("../..", path))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if strings.TrimRight(string(file), "\n") != body {
			t.Errorf("docs/your-sdk.md shows %s otherwise than the file: copy the file into the page", path)
		}
		if n := strings.Count(string(file), "\n"); n >= 20 {
			t.Errorf("%s has %d lines, want under 20", path, n)
		}
	}
}

// At a terminal with no FILE, check says it is reading cases from it,
// instead of waiting in silence. util-linux's script gives it a terminal.
func TestCheckAtATerminalSaysSo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	scriptCmd, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to make a terminal")
	}
	bin := binary(t)
	cmd := exec.Command(scriptCmd, "-qec", bin+" check -config ../../difffuzz.toml -adapters go,go-worker", "/dev/null")
	cmd.Stdin = strings.NewReader("") // EOF at once: Ctrl-D at the terminal
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "reading cases from the terminal") || !strings.Contains(string(out), "no case: the input is empty") {
		t.Errorf("output %q: want the terminal hint, then the empty-input error", out)
	}
	// Piped input gets no hint.
	var errb strings.Builder
	pipe := exec.Command(bin, "check", "-config", "../../difffuzz.toml", "-adapters", "go,go-worker")
	pipe.Stdin, pipe.Stderr = strings.NewReader(`{"tool_name":"t","args":{}}`+"\n"), &errb
	if err := pipe.Run(); err != nil || strings.Contains(errb.String(), "terminal") {
		t.Errorf("piped check: %v, stderr %q", err, errb.String())
	}
}

// At a terminal the run's status line rewrites itself in place; into a
// pipe (a CI log) each is a plain line, with no \r or escape in it.
func TestRunStatusLineOnlyAtATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := binary(t)
	args := []string{bin, "run", "-config", "../../difffuzz.toml", "-adapters", "go,fake", "-adapter", wrongAdapter(t, "fake", "ok"),
		"-cases", "3000", "-batch", "256", "-workers", "1", "-seed", "1", "-status-every", "10ms",
		"-corpus", t.TempDir(), "-report", filepath.Join(t.TempDir(), "report.json")}

	var errb strings.Builder
	pipe := exec.Command(args[0], args[1:]...)
	pipe.Stderr = &errb
	if err := pipe.Run(); err != nil {
		t.Fatalf("piped run: %v\n%s", err, errb.String())
	}
	if s := errb.String(); strings.ContainsAny(s, "\r\x1b") || !regexp.MustCompile(`(?m)^ +\d+s  cases 3000  `).MatchString(s) {
		t.Errorf("piped run's stderr has a \\r or an escape, or no plain final status line:\n%q", s)
	}

	scriptCmd, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to make a terminal")
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	tty := exec.Command(scriptCmd, "-qec", strings.Join(quoted, " "), "/dev/null")
	out, err := tty.CombinedOutput()
	if err != nil {
		t.Fatalf("run at a terminal: %v\n%q", err, out)
	}
	if !regexp.MustCompile(`\r +\d+s  cases 3000  [^\r\n]*\x1b\[K\r?\n`).Match(out) {
		t.Errorf("run at a terminal: no status line rewritten in place, the last one kept:\n%q", out)
	}
}
