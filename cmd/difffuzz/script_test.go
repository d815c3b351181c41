package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"difffuzz/internal/testworker"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts under testdata/script run difffuzz itself as a
// command, in a process of its own, as a user would.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"difffuzz": main})
}

// TestScripts runs the CLI's end-to-end scripts in a folder that holds a
// copy of the repository's difffuzz.toml, as the repository's root does.
// $FAKE is the fake worker.
func TestScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	fake := testworker.Binary(t, "difffuzz/internal/fakeworker")
	config, err := os.ReadFile("../../difffuzz.toml")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("FAKE", fake)
			return os.WriteFile(filepath.Join(env.WorkDir, "difffuzz.toml"), config, 0o644)
		},
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
	})
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
