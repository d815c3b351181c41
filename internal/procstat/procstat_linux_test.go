package procstat

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"testing"
	"time"
)

// The thread clock counts this thread's work, not the wall clock: it moves
// while the thread computes and stands still while it sleeps.
func TestThreadCPU(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if worked, x := spin(ThreadCPU, 20*time.Millisecond); worked < 20*time.Millisecond {
		t.Fatalf("10 s of work took %v of thread CPU (x=%d)", worked, x)
	}
	before := ThreadCPU()
	time.Sleep(50 * time.Millisecond)
	if slept := ThreadCPU() - before; slept > 10*time.Millisecond {
		t.Errorf("50 ms of sleep took %v of thread CPU", slept)
	}
}

// ProcessCPU reads a process's CPU clock: for this process it agrees with
// getrusage to well under a clock tick, and with /proc to a tick or two.
func TestProcessCPU(t *testing.T) {
	_, x := spin(SelfCPU, 50*time.Millisecond)
	self, clock, stat := SelfCPU(), ProcessCPU(os.Getpid()), statCPU(os.Getpid())
	if d := clock - self; d < -2*time.Millisecond || d > 2*time.Millisecond {
		t.Errorf("ProcessCPU = %v, getrusage %v (x=%d)", clock, self, x)
	}
	if d := clock - stat; d < -20*time.Millisecond || d > 20*time.Millisecond {
		t.Errorf("ProcessCPU = %v, /proc %v", clock, stat)
	}
	if clock < 50*time.Millisecond {
		t.Errorf("ProcessCPU = %v after 50 ms of CPU by getrusage", clock)
	}
	if got := ProcessCPU(-1); got != 0 {
		t.Errorf("ProcessCPU(-1) = %v, want 0", got)
	}
}

// RSS, PeakRSS, Children and Cmdline of this process and of a child it
// started: the peak is at least the current set, and the child is listed.
func TestMemoryAndChildren(t *testing.T) {
	rss, peak := RSS(os.Getpid()), PeakRSS(os.Getpid())
	if rss <= 0 || peak < rss {
		t.Errorf("RSS = %d, PeakRSS = %d; want 0 < RSS <= PeakRSS", rss, peak)
	}
	if got := RSS(-1); got != 0 {
		t.Errorf("RSS(-1) = %d, want 0", got)
	}
	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	defer cmd.Process.Kill()
	if !slices.Contains(Children(os.Getpid()), cmd.Process.Pid) {
		t.Errorf("Children = %v, want %d among them", Children(os.Getpid()), cmd.Process.Pid)
	}
	// A process just started may show an empty command line for a moment
	// on a loaded host (the kernel fills it in at exec): wait for it.
	got := Cmdline(cmd.Process.Pid)
	for deadline := time.Now().Add(2 * time.Second); got == "" && time.Now().Before(deadline); got = Cmdline(cmd.Process.Pid) {
		time.Sleep(10 * time.Millisecond)
	}
	if got != "sleep 5" {
		t.Errorf("Cmdline = %q, want \"sleep 5\"", got)
	}
}
