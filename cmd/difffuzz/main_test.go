package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/events"
	"github.com/difffuzz/difffuzz/internal/testworker"
	"github.com/difffuzz/difffuzz/value"
)

// runCLI runs the command in process and returns its exit status and output.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	c := &CLI{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(stdin)}
	code := c.Main(context.Background(), append(args[:1:1], append([]string{"-config", "../../difffuzz.toml"}, args[1:]...)...))
	return code, out.String(), errb.String()
}

func wrongAdapter(t *testing.T, name, mode string) string {
	return name + "=" + strings.Join(testworker.Command(t, mode), " ")
}

func TestRunCatchesWrongWorkers(t *testing.T) {
	tests := []struct {
		mode string
		kind string
	}{
		{"keyorder", "key_order: keys in UTF-16 order: wrong"},
		{"number", "number: a number of 1e21 or more printed in full (want exponent form): wrong"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			report := filepath.Join(dir, "report.json")
			code, out, errs := runCLI(t, "", "run", "-adapters", "go,wrong", "-adapter", wrongAdapter(t, "wrong", tt.mode),
				"-cases", "3000", "-seed", "7", "-workers", "1", "-corpus", filepath.Join(dir, "corpus"), "-report", report, "-minimize-time", "5s")
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errs)
			}
			var rep reportGroups
			data, _ := os.ReadFile(report)
			if err := json.Unmarshal(data, &rep); err != nil {
				t.Fatal(err)
			}
			if len(rep.Distinct) != 1 || rep.Distinct[0].Signature != tt.kind {
				t.Fatalf("distinct = %+v, want one %q", rep.Distinct, tt.kind)
			}
			if m := rep.Distinct[0].MinimizedInput; m == "" || len(m) > 60 {
				t.Errorf("minimized to %q, want a tiny input", m)
			}
			if p := rep.Distinct[0].Passes; len(p) == 0 || p[0].Name != "replace" {
				t.Errorf("the report has no minimizer's passes: %+v", p)
			}
			e, err := corpus.Load(rep.Distinct[0].First)
			if err != nil {
				t.Fatalf("finding not on disk: %v", err)
			}
			if len(e.Outcomes) != 2 || e.Outcomes[0].Impl != "canonjson-go" || e.Outcomes[1].Impl != "fakeworker-"+tt.mode || e.Outcomes[1].Version != "0.0.1" {
				t.Errorf("the finding does not record who disagreed: %+v", e.Outcomes)
			}
		})
	}
}

// reportGroups is the part of a JSON report these tests read.
type reportGroups struct {
	Interrupted bool
	Exit        int
	Distinct    []struct {
		Signature      string
		MinimizedInput string `json:"minimized_input"`
		NotMinimized   string `json:"not_minimized"`
		First          string
		Passes         []struct{ Name string } `json:"minimize_passes"`
	}
}

func TestTwoWrongWorkersTwoBugs(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "report.json")
	code, out, errs := runCLI(t, "", "run", "-adapters", "go,keys,nums", "-adapter", wrongAdapter(t, "keys", "keyorder"),
		"-adapter", wrongAdapter(t, "nums", "number"), "-cases", "4000", "-seed", "3", "-workers", "1",
		"-corpus", filepath.Join(dir, "corpus"), "-report", report)
	if code != 1 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	var rep reportGroups
	data, _ := os.ReadFile(report)
	json.Unmarshal(data, &rep)
	var sigs []string
	for _, g := range rep.Distinct {
		sigs = append(sigs, g.Signature+" => "+g.MinimizedInput)
		if g.MinimizedInput == "" || len(g.MinimizedInput) > 60 {
			t.Errorf("%s minimized to %q", g.Signature, g.MinimizedInput)
		}
	}
	if len(rep.Distinct) != 2 {
		t.Fatalf("%d distinct bugs, want 2:\n%s", len(rep.Distinct), strings.Join(sigs, "\n"))
	}
}

func TestReplayFollowsTheFix(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "case.json")
	os.WriteFile(input, []byte(`{"tool_name":"","args":{"a":1e21}}`), 0o644)
	code, out, _ := runCLI(t, "", "replay", "-adapters", "go,wrong", "-adapter", wrongAdapter(t, "wrong", "number"), dir)
	if code != 1 || !strings.Contains(out, "DIVERGES") || !strings.Contains(out, "replay: 0 passed, 1 failed") {
		t.Fatalf("with the wrong worker: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "replay", "-v", "-adapters", "go,wrong", "-adapter", wrongAdapter(t, "wrong", "ok"), dir)
	if code != 0 || !strings.Contains(out, "agrees") || !strings.Contains(out, "replay: 1 passed, 0 failed") {
		t.Fatalf("with the fixed worker: exit %d\n%s", code, out)
	}
}

func TestMinimizeFile(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "big.json")
	var sb strings.Builder
	sb.WriteString(`{"tool_name":"some_tool","args":{`)
	for i := 0; i < 120; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`"key` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `":[1.5,"text",{"n":null,"t":true}]`)
	}
	sb.WriteString(`,"big":1e300}}`)
	os.WriteFile(input, []byte(sb.String()), 0o644)
	code, out, errs := runCLI(t, "", "minimize", "-v", "-adapters", "go,wrong", "-adapter", wrongAdapter(t, "wrong", "number"), input)
	if code != 1 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"before (number: a number of 1e21 or more printed in full (want exponent form): wrong)", "after (", `"args":{"":1e+21}`, "wrote "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// -v shows what each pass did: a row a pass under the table's head,
	// and the first pass, which shrinks such an input, with a hit.
	if !regexp.MustCompile(`(?m)^\s*pass\s+tried\s+hits\s+shrinks\s+bytes removed\s+seconds\s*$`).MatchString(out) {
		t.Errorf("-v shows no table of the passes:\n%s", out)
	}
	if m := regexp.MustCompile(`(?m)^\s*replace\s+(\d+)\s+(\d+)\s`).FindStringSubmatch(out); m == nil || m[2] == "0" {
		t.Errorf("-v's table has no hit of the replace pass (%q):\n%s", m, out)
	}
	files, _ := corpus.Files([]string{dir})
	if len(files) != 2 {
		t.Errorf("corpus has %d files, want the input and the minimized case", len(files))
	}
}

func TestCheck(t *testing.T) {
	in := `{"tool_name": "ping", "args": {}}
{"tool_name":"t","args":{"x":NaN,"y":-Infinity,"z":-0.0}}

{"tool_name":"t","args":{"a":1,"a":2}}
`
	code, out, errs := runCLI(t, in, "check", "-json", "-adapters", "go,gw", "-adapter", wrongAdapter(t, "gw", "ok"))
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{
		`{"line":1,"agree":true,"results":{"go":{"canonical":"{\"args\":{},\"tool_name\":\"ping\"}","digest":"`,
		`{"line":2,"agree":true,"results":{"go":{"canonical":"{\"args\":{\"x\":NaN,\"y\":-Infinity,\"z\":0},\"tool_name\":\"t\"}"`,
		`{"line":4,"agree":true,"results":{"go":{"error":"duplicate_key"},"gw":{"error":"duplicate_key"}}}`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) {
			t.Errorf("line %d:\n got %s\nwant %s...", i+1, lines[i], want[i])
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "-shard", "3/2"}, "want I/N"},
		{[]string{"run", "-adapters", "go,nope"}, `unknown adapter "nope"`},
		{[]string{"run", "-adapters", "go"}, "at least two"},
		{[]string{"run", "-adapter", "x"}, "NAME=COMMAND"},
		{[]string{"run", "-adapters", "go,bad", "-adapter", "bad=/nonexistent/worker", "-cases", "1", "-corpus", t.TempDir(), "-report", ""}, "no such file"},
		{[]string{"check", "-adapters", "go,go-worker", "/nonexistent"}, "no such file"},
		{[]string{"frobnicate"}, "unknown command"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		c := &CLI{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")}
		args := tt.args
		if args[0] != "frobnicate" {
			args = append([]string{args[0], "-config", "../../difffuzz.toml"}, args[1:]...)
		}
		if code := c.Main(context.Background(), args); code != 2 || !strings.Contains(errb.String()+out.String(), tt.want) {
			t.Errorf("%v: exit %d, output %q; want 2 and %q", tt.args, code, errb.String(), tt.want)
		}
	}
}

func TestCheckMalformedInput(t *testing.T) {
	code, _, errs := runCLI(t, "{\"tool_name\": \"t\"}\n{\"a\": [1,}\n", "check", "-adapters", "go,gw", "-adapter", wrongAdapter(t, "gw", "ok"))
	if code != 2 || !strings.Contains(errs, "stdin:2:") {
		t.Fatalf("exit %d, stderr %q; want 2 and the line", code, errs)
	}
}

func TestPromote(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "min.json")
	e := &corpus.Entry{Input: mustParse(t, `{"tool_name":"","args":{"":1e21}}`), Kind: "divergence", Signatures: compare.Signatures{compare.MustParseSignature("number: a number of 1e21 or more printed in full (want exponent form): ts")}}
	os.WriteFile(input, e.Marshal(), 0o644)
	list := filepath.Join(dir, "regressions.jsonl")
	for i := 0; i < 2; i++ {
		var out, errb bytes.Buffer
		c := &CLI{Stdout: &out, Stderr: &errb}
		if code := c.Main(context.Background(), []string{"promote", "-list", list, input}); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
	}
	data, _ := os.ReadFile(list)
	if string(data) != `{"category":"regression_number","input":"{\"tool_name\":\"\",\"args\":{\"\":1e+21}}"}`+"\n" {
		t.Errorf("list is %q", data)
	}
}

func mustParse(t *testing.T, s string) any {
	v, err := value.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// bench prints every figure, "harness ratio:" then "ratio:" last, and
// writes them as JSON, the CPU times of every implementation included. Its
// ratios are measured inside the full run; with a worker that does not say
// what its batches cost (a version 1 worker), they are the isolated ones.
func TestBench(t *testing.T) {
	if testing.Short() {
		t.Skip("two real timed benches of a few seconds each; run without -short")
	}
	for _, mode := range []string{"ok", "v1"} {
		t.Run(mode, func(t *testing.T) { testBench(t, mode) })
	}
}

func testBench(t *testing.T, mode string) {
	out := filepath.Join(t.TempDir(), "bench.json")
	args := []string{"bench", "-adapters", "go,fake", "-adapter", wrongAdapter(t, "fake", mode),
		"-run", "1s", "-warmup", "300ms", "-sample", "100", "-workers", "1", "-batch", "256", "-o", out}
	if mode == "ok" {
		args = append(args, "-diverge-worker", testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/fakeworker"))
	}
	code, stdout, errs := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, errs)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	want := []string{"in-process go ", "in-process fake ", "limit (", "driver (generate + Go + compare) ",
		"pair 1: ", "pair 3: ", "full run (go,fake), pair ", "after a 300ms warm-up", "cpu fake workers", "driver peak RSS",
		"isolated (the implementations alone over the full run): harness ratio "}
	silent := "adapter fake does not say what its batches cost (batch_cpu_ns): the ratios below are the isolated ones"
	if mode == "ok" {
		want = append(want, "in the run, per case: every process ", "; the implementations go ", ", fake ",
			"findings: ", " cases/s with 0.10 of cases diverging (")
	} else {
		want = append(want, silent)
	}
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("no %q in:\n%s", w, stdout)
		}
	}
	if mode == "ok" && strings.Contains(stdout, silent) {
		t.Errorf("a worker on the kit called silent:\n%s", stdout)
	}
	if mode == "v1" && strings.Contains(stdout, "in the run, per case") {
		t.Errorf("in-run figures of a run that could not measure them:\n%s", stdout)
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "ratio: ") {
		t.Errorf("last line %q, want ratio: X.XX", last)
	}
	if prev := lines[len(lines)-2]; !strings.HasPrefix(prev, "harness ratio: ") {
		t.Errorf("line before the last %q, want harness ratio: X.XX", prev)
	}
	var res struct {
		Impl []struct {
			Name   string
			CPU    float64 `json:"cpu_ns_per_case"`
			Decode float64 `json:"decode_cpu_ns_per_case"`
		} `json:"implementations"`
		Harness         float64 `json:"harness_ratio"`
		IsolatedHarness float64 `json:"isolated_harness_ratio"`
		Full            float64 `json:"full_cases_per_second"`
		FullWhole       float64 `json:"full_cases_per_second_whole_run"`
		Warmup          float64 `json:"warmup_seconds"`
		Ratio           float64 `json:"ratio"`
		IsolatedRatio   float64 `json:"isolated_ratio"`
		Findings        *struct {
			Clean     float64 `json:"clean_cases_per_second"`
			Diverging float64 `json:"diverging_cases_per_second"`
			Ratio     float64
			Found     uint64 `json:"divergences"`
		}
		InRun []struct {
			Name string
			CPU  float64 `json:"cpu_ns_per_case"`
		} `json:"in_run"`
		Pairs []struct {
			Full    float64 `json:"full_cpu_ns_per_case"`
			InRun   float64 `json:"in_run_cpu_ns_per_case"`
			Harness float64 `json:"harness_ratio"`
		} `json:"pairs"`
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Impl) != 2 || res.Full <= 0 || res.FullWhole <= 0 || res.Warmup != 0.3 || res.Ratio <= 0 || res.Harness < res.Ratio ||
		res.IsolatedRatio <= 0 || res.IsolatedHarness < res.IsolatedRatio || len(res.Pairs) != 3 || res.Pairs[0].Full <= 0 {
		t.Errorf("figures %+v", res)
	}
	for _, im := range res.Impl {
		if im.CPU <= 0 || im.Decode < im.CPU*0.5 {
			t.Errorf("%s: cpu %.0f ns, with decoding %.0f ns: want both measured", im.Name, im.CPU, im.Decode)
		}
	}
	switch mode {
	case "ok": // measured in the run: a share of it, each implementation's part said
		if res.Harness >= 1 || len(res.InRun) != 2 || res.InRun[0].CPU <= 0 || res.InRun[1].CPU <= 0 || res.Pairs[0].InRun <= 0 {
			t.Errorf("in-run figures %+v", res)
		}
		if f := res.Findings; f == nil || f.Found == 0 || f.Clean <= 0 || f.Diverging <= 0 || f.Ratio != f.Diverging/f.Clean {
			t.Errorf("findings figures %+v", f)
		}
	case "v1":
		if res.Harness != res.IsolatedHarness || res.Ratio != res.IsolatedRatio {
			t.Errorf("ratios %.3f, %.3f, want the isolated %.3f, %.3f", res.Harness, res.Ratio, res.IsolatedHarness, res.IsolatedRatio)
		}
	}
}

// Every flag is checked before any work starts, and a bad one gets one
// line that says what was wrong and what to write instead.
func TestEarlyFlagErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	os.WriteFile(file, nil, 0o644)
	corpusDir := filepath.Join(dir, "corpus")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"batch 0", []string{"run", "-batch", "0"}, "-batch 0: want at least 1"},
		{"batch negative", []string{"run", "-batch", "-5"}, "-batch -5: want at least 1"},
		{"workers negative", []string{"run", "-workers", "-1"}, "-workers -1: want 0"},
		{"report under a file", []string{"run", "-report", filepath.Join(file, "r.json")}, "is a file"},
		{"corpus is a file", []string{"run", "-corpus", file}, "-corpus " + file + ": is a file"},
		{"seed", []string{"run", "-seed", "abc"}, `-seed: want a whole number from 0 to 18446744073709551615, got "abc"`},
		{"duration unit", []string{"run", "-duration", "5"}, "want a duration with its unit, such as 90s"},
		{"cases not a number", []string{"run", "-cases", "many"}, `invalid value "many" for flag -cases: parse error; want a whole number`},
		{"max-memory", []string{"run", "-max-memory", "2gigs"}, `"2gigs" is not a size: want a number of bytes with a unit, such as 2GiB`},
		{"unknown flag", []string{"run", "-frobnicate"}, "flag provided but not defined: -frobnicate (difffuzz run -h lists the flags)"},
		{"replay of nothing", []string{"replay", "-adapters", "go,go-worker", dir}, "no case in " + dir},
		{"check of nothing", []string{"check", "-adapters", "go,go-worker", "/dev/null"}, "no case: the input is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			c := &CLI{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")}
			args := append([]string{tt.args[0], "-config", "../../difffuzz.toml", "-corpus", corpusDir}, tt.args[1:]...)
			if tt.args[0] != "run" {
				args = append([]string{tt.args[0], "-config", "../../difffuzz.toml"}, tt.args[1:]...)
			}
			code := c.Main(context.Background(), args)
			lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
			if code != 2 || !strings.Contains(errb.String(), tt.want) || len(lines) != 1 || out.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and one line with %q", code, out.String(), errb.String(), tt.want)
			}
			if _, err := os.Stat(corpusDir); err == nil {
				t.Errorf("a failed setup made the corpus folder")
			}
		})
	}
}

// Help goes to stdout, so that it can be paged, and exits 0; so does the
// version.
func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"run", "-h"}, {"check", "-h"}, {"version"}, {"--version"}} {
		var out, errb bytes.Buffer
		c := &CLI{Stdout: &out, Stderr: &errb}
		code := c.Main(context.Background(), args)
		want := "usage: difffuzz"
		if strings.Contains(args[0], "version") {
			want = "difffuzz 0."
		}
		if code != 0 || !strings.HasPrefix(out.String(), want) || errb.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %.200q, stderr %q", args, code, out.String(), errb.String())
		}
	}
}

// Outside the repository the error names the path it looked for and the
// flag that names another.
func TestConfigNotFound(t *testing.T) {
	var out, errb bytes.Buffer
	c := &CLI{Stdout: &out, Stderr: &errb}
	missing := filepath.Join(t.TempDir(), "difffuzz.toml")
	code := c.Main(context.Background(), []string{"run", "-config", missing})
	if code != 2 || !strings.Contains(errb.String(), "no adapter config at "+missing) || !strings.Contains(errb.String(), "-config FILE") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// An adapter that cannot start ends the run with its error alone: no
// summary, no coverage line, no corpus folder.
func TestSetupErrorHasNoSummary(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI(t, "", "run", "-adapters", "go,bad", "-adapter", "bad=/nonexistent/worker", "-cases", "10",
		"-corpus", filepath.Join(dir, "corpus"), "-report", filepath.Join(dir, "r.json"))
	if code != 2 || strings.Contains(out+errs, "edge-class coverage") || strings.Contains(out, "cases in") || !strings.Contains(errs, "no such file") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "corpus")); err == nil {
		t.Errorf("a failed setup made the corpus folder")
	}
}

// The package doc's usage block and -h both name every command of the
// table, so that a new command cannot be left out of either.
func TestUsageNamesEveryCommand(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	var help bytes.Buffer
	(&CLI{Stdout: &help, Stderr: io.Discard}).Main(context.Background(), []string{"-h"})
	for _, cmd := range commands {
		if !strings.Contains(string(src), "//\tdifffuzz "+cmd.name+" ") {
			t.Errorf("the package doc's usage does not name %q", cmd.name)
		}
		if !strings.Contains(help.String(), "\n  "+cmd.name+" ") {
			t.Errorf("-h does not name %q:\n%s", cmd.name, help.String())
		}
	}
}

// -events writes the run as JSON lines a program can follow: start first,
// the bucket as it is found, its minimization, and the summary last, with
// the exit status; "-" puts them on stdout and the summary on stderr.
func TestRunEvents(t *testing.T) {
	dir := t.TempDir()
	for _, to := range []string{filepath.Join(dir, "sub", "events.jsonl"), "-"} {
		code, stdout, errs := runCLI(t, "", "run", "-adapters", "go,wrong", "-adapter", wrongAdapter(t, "wrong", "keyorder"),
			"-cases", "2000", "-seed", "7", "-workers", "1", "-corpus", filepath.Join(dir, "corpus"), "-report", filepath.Join(dir, "report.json"),
			"-minimize-time", "5s", "-events", to)
		if code != 1 {
			t.Fatalf("-events %s: exit %d, want 1\n%s\n%s", to, code, stdout, errs)
		}
		stream := stdout
		if to != "-" {
			data, err := os.ReadFile(to)
			if err != nil {
				t.Fatal(err)
			}
			stream = string(data)
		} else if !strings.Contains(errs, "difffuzz: 1 divergence") && !strings.Contains(errs, "distinct") {
			t.Errorf("-events -: the summary is not on stderr:\n%s", errs)
		}
		var got []events.Event
		if err := events.Read(strings.NewReader(stream), func(e events.Event) error { got = append(got, e); return nil }); err != nil {
			t.Fatalf("-events %s: %v\n%s", to, err, stream)
		}
		if len(got) < 4 || got[0].Type != events.TypeStart || got[len(got)-1].Type != events.TypeSummary {
			t.Fatalf("-events %s: want start first and summary last, got %d events:\n%s", to, len(got), stream)
		}
		if s := got[0].Start; s.Seed != 7 || len(s.Adapters) != 2 || s.Adapters[1].Name != "wrong" {
			t.Errorf("-events %s: start %+v", to, s)
		}
		if s := got[len(got)-1].Summary; s.Exit != 1 || s.Buckets != 1 || s.Cases != 2000 {
			t.Errorf("-events %s: summary %+v", to, s)
		}
		var bucket, minimized bool
		for _, e := range got {
			switch e.Type {
			case events.TypeBucket:
				bucket = e.Bucket.Kind == "key_order" && e.Bucket.Deviants[0] == "wrong" && e.Bucket.Path != ""
			case events.TypeMinimized:
				minimized = e.Minimized.Input != "" && e.Minimized.Signature == "key_order: keys in UTF-16 order: wrong"
			}
		}
		if !bucket || !minimized {
			t.Errorf("-events %s: bucket event %v, minimized event %v:\n%s", to, bucket, minimized, stream)
		}
	}
}

// "difffuzz flags" lists a command's flags as JSON, a boolean flag as one
// that takes no value, so that programs need not read -h's text.
func TestFlagsCommand(t *testing.T) {
	for _, tc := range []struct {
		args           []string
		command        string
		valued, toggle string
	}{
		{[]string{"flags", "run"}, "run", "duration", "keep-all"},
		{[]string{"flags", "corpus", "merge"}, "corpus merge", "o", ""},
		{[]string{"flags", "adapter", "check"}, "adapter check", "known", ""},
	} {
		code, stdout, errs := mainOf(tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", tc.args, code, errs)
		}
		var got struct {
			Command string
			Flags   []Flag
		}
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatalf("%v: %v\n%s", tc.args, err, stdout)
		}
		takes := map[string]bool{}
		for _, f := range got.Flags {
			takes[f.Name] = f.TakesValue
		}
		if got.Command != tc.command || !takes[tc.valued] {
			t.Errorf("%v: command %q, flags %v", tc.args, got.Command, takes)
		}
		if v, ok := takes[tc.toggle]; tc.toggle != "" && (!ok || v) {
			t.Errorf("%v: -%s should be listed as taking no value: %v", tc.args, tc.toggle, takes)
		}
	}
	if code, _, errs := mainOf("flags", "nope"); code != 2 || !strings.Contains(errs, `unknown command "nope"`) {
		t.Errorf("flags nope: exit %d\n%s", code, errs)
	}
}

// mainOf runs the CLI on args as they are (runCLI adds -config).
func mainOf(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	c := &CLI{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")}
	code := c.Main(context.Background(), args)
	return code, out.String(), errb.String()
}
