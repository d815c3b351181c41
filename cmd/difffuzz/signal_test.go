package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/events"
	"github.com/difffuzz/difffuzz/internal/testworker"
)

// binary builds difffuzz itself once: signals need a real process.
func binary(t *testing.T) string {
	return testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/difffuzz")
}

// children lists the pids of a process's children, from /proc.
func children(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "children"))
	for _, f := range tasks {
		data, _ := os.ReadFile(f)
		for _, s := range strings.Fields(string(data)) {
			n, _ := strconv.Atoi(s)
			out = append(out, n)
		}
	}
	return out
}

// waitChildren waits until pid has n children (the workers started).
func waitChildren(t *testing.T, pid, n int) []int {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if kids := children(pid); len(kids) >= n {
			return kids
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("process %d never had %d children", pid, n)
	return nil
}

func alive(pid int) bool {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	// A zombie is dead but not yet reaped; an orphan would be reaped by init.
	return err == nil && !strings.Contains(string(data), ") Z ")
}

// assertGone fails for each pid still alive (not even a zombie) a few
// seconds on, and kills it so that the test leaves nothing behind.
func assertGone(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		deadline := time.Now().Add(3 * time.Second)
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(pid) {
			t.Errorf("worker %d outlived the driver", pid)
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill() // SIGKILL
			}
		}
	}
}

// driver is difffuzz run as a process of its own, and where the test sees it
// get somewhere.
type driver struct {
	cmd *exec.Cmd
	// says is the file its fake workers say where they are in
	// (testworker.SaysEnv), events its -events stream.
	says, events string
	// interrupted is seen once the driver says it took the first Ctrl-C.
	interrupted *testworker.Mark
}

func startRun(t *testing.T, dir, mode string, extra ...string) *driver {
	r := &driver{says: filepath.Join(dir, "says"), events: filepath.Join(dir, "events.jsonl"),
		interrupted: testworker.NewMark("difffuzz: interrupted; ")}
	args := append([]string{"run", "-config", "../../difffuzz.toml", "-adapters", "go,fake", "-events", r.events,
		"-adapter", "fake=" + strings.Join(testworker.Command(t, mode, "tool_name"), " "),
		"-workers", "2", "-duration", "2m", "-seed", "1", "-corpus", filepath.Join(dir, "corpus"),
		// Batches of 256, not the default 2,048: on a loaded machine a
		// batch must still finish before the test's Ctrl-C.
		"-batch", "256", "-report", filepath.Join(dir, "report.json"),
		// A progress event every 20 ms, not every 10 s: what waitProgress waits for.
		"-status-every", "20ms"}, extra...)
	r.cmd = exec.Command(binary(t), args...)
	r.cmd.Env = append(os.Environ(), testworker.SaysEnv+"="+r.says)
	r.cmd.Stdout, r.cmd.Stderr = os.Stderr, io.MultiWriter(os.Stderr, r.interrupted)
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return r
}

// waitProgress waits for a progress event of the run that counts four
// batches judged: with two lanes, the first batch among them, so that the
// done prefix a repeat line runs is not empty.
func (r *driver) waitProgress(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(r.events)
		for _, line := range strings.Split(string(data), "\n") {
			var e events.Event
			if json.Unmarshal([]byte(line), &e) == nil && e.Type == events.TypeProgress && e.Progress.Cases >= 4*256 {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no progress event with four batches judged within a minute")
}

func TestCtrlCWritesReportAndLeavesNoWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	tests := []struct {
		name     string
		mode     string // the fake worker
		ready    string // what the test waits for before its Ctrl-C: "progress", or what n workers say
		n        int
		sigs     int // how many SIGINTs
		wantCode int
		report   bool
		extra    []string
		repeat   bool // a batch finished, so the report repeats what ran
	}{
		{"one ctrl-c writes the findings", "number", "progress", 0, 1, 130, true, nil, true},
		// Every case is marked: no batch finishes, and -cases 0 would
		// mean no limit, so there is no repeat line.
		{"one ctrl-c abandons a hanging batch", "hang", "hanging", 2, 1, 130, true, nil, false},
		// The run ends at once and the driver is left stopping workers that
		// ignore stdin's end and SIGINT (3s of escalation): the second
		// Ctrl-C must cut that short and still leave no worker behind.
		// The run itself finished, so only the second Ctrl-C's way out
		// exits 130.
		{"second ctrl-c exits at once", "stubborn", "stubborn: input ended", 1, 2, 130, false, []string{"-cases", "256"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			r := startRun(t, dir, tt.mode, append([]string{"-timeout", "1m"}, tt.extra...)...)
			cmd := r.cmd
			workers := waitChildren(t, cmd.Process.Pid, 2)
			if tt.ready == "progress" {
				r.waitProgress(t)
			} else {
				testworker.Said(t, r.says, tt.ready, tt.n)
			}
			for i := 0; i < tt.sigs; i++ {
				cmd.Process.Signal(syscall.SIGINT)
				if i == 0 && tt.sigs > 1 {
					r.interrupted.Wait(t) // two SIGINTs sent back to back may coalesce
				}
			}
			err := cmd.Wait()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d", code, tt.wantCode)
			}
			assertGone(t, workers)
			data, err := os.ReadFile(filepath.Join(dir, "report.json"))
			if !tt.report {
				return
			}
			var rep struct {
				Interrupted bool
				Cases       uint64
				Divergences uint64
				Command     string
				Exit        int
			}
			if err != nil || json.Unmarshal(data, &rep) != nil || !rep.Interrupted {
				t.Fatalf("no complete report: %v %s", err, data)
			}
			// The repeat line runs a prefix of what ran, by case count.
			if rep.Exit != 130 {
				t.Errorf("report exit %d, want 130", rep.Exit)
			}
			switch {
			case !tt.repeat && rep.Command != "":
				t.Errorf("command %q: want none, since no batch finished", rep.Command)
			case tt.repeat && (!strings.Contains(rep.Command, " -cases ") || strings.Contains(rep.Command, " -cases 0") || strings.Contains(rep.Command, "-duration")):
				t.Errorf("command %q: want a -cases repeat of what ran, without -duration", rep.Command)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "corpus", "*.json"))
			if uint64(len(files)) > rep.Divergences || (rep.Divergences > 0 && len(files) == 0) {
				t.Errorf("%d corpus files for %d divergences", len(files), rep.Divergences)
			}
		})
	}
}

// A Ctrl-C while the run minimizes writes the report, which says the run
// was interrupted and which buckets it left as they came, and exits 130.
func TestCtrlCWhileMinimizing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	dir := t.TempDir()
	cmd := exec.Command(binary(t), "run", "-config", "../../difffuzz.toml", "-adapters", "go,fake",
		"-adapter", "fake="+strings.Join(testworker.Command(t, "differ"), " "), "-workers", "1", "-cases", "2000", "-seed", "6",
		"-batch", "256", "-corpus", filepath.Join(dir, "corpus"), "-report", filepath.Join(dir, "report.json"), "-minimize-time", "1m")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "  minimizing 1/") {
			cmd.Process.Signal(syscall.SIGINT)
			break
		}
	}
	io.Copy(io.Discard, stderr) // Wait closes the pipe: read it to its end first
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("exit %v, want 130", err)
	}
	var rep reportGroups
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil || json.Unmarshal(data, &rep) != nil || !rep.Interrupted || rep.Exit != 130 {
		t.Fatalf("the report does not say the run was interrupted: %v\n%.2000s", err, data)
	}
	left := 0
	for _, g := range rep.Distinct {
		if g.NotMinimized == "interrupted" {
			left++
		}
	}
	if left == 0 {
		t.Errorf("no bucket says the interruption left it:\n%.3000s", data)
	}
}

// TestDriverKilledLeavesNoWorker stands for every way the driver can die
// without cleaning up (SIGKILL, a panic in any goroutine): the workers' parent
// death signal must take them down with it.
func TestDriverKilledLeavesNoWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	r := startRun(t, t.TempDir(), "ok")
	workers := waitChildren(t, r.cmd.Process.Pid, 2)
	r.cmd.Process.Kill()
	r.cmd.Wait()
	assertGone(t, workers)
}

// TestCtrlCStopsBench: a bench interrupted in one of its runs gives no
// ratio (the figures would be those of a fraction of the run) and exits
// 130, instead of printing "ratio: 0.00".
func TestCtrlCStopsBench(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	dir := t.TempDir()
	cmd := exec.Command(binary(t), "bench", "-config", "../../difffuzz.toml", "-adapters", "go,fake",
		"-adapter", "fake="+strings.Join(testworker.Command(t, "number", "tool_name"), " "),
		"-sample", "50", "-run", "1m", "-warmup", "1s", "-o", filepath.Join(dir, "bench.json"))
	// Files, not buffers: the test reads stdout while the command writes it.
	stdoutPath := filepath.Join(dir, "stdout")
	out, err := os.Create(stdoutPath)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	var stderr strings.Builder
	// The bench starts with the driver-only run, a minute long: the signal,
	// sent once that run has said it started, interrupts it.
	started := testworker.NewMark("difffuzz: seed ")
	cmd.Stdout, cmd.Stderr = out, io.MultiWriter(&stderr, started)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	printed := func() string { data, _ := os.ReadFile(stdoutPath); return string(data) }
	started.Wait(t)
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 130 || strings.Contains(printed(), "ratio:") || !strings.Contains(stderr.String(), "interrupted; no ratio") {
		t.Errorf("exit %d, stdout %q, stderr %q: want 130, no ratio and the reason", code, printed(), stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "bench.json")); err == nil {
		t.Error("an interrupted bench wrote its figures")
	}
}
