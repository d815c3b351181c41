package procstat

import (
	"runtime"
	"testing"
	"time"
)

// The thread clock counts this thread's work, not the wall clock: it moves
// while the thread computes and stands still while it sleeps.
func TestThreadCPU(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := ThreadCPU()
	x := 0
	for deadline := time.Now().Add(20 * time.Millisecond); time.Now().Before(deadline); {
		x++
	}
	worked := ThreadCPU() - start
	if worked < 5*time.Millisecond {
		t.Fatalf("20 ms of work took %v of thread CPU (x=%d)", worked, x)
	}
	before := ThreadCPU()
	time.Sleep(50 * time.Millisecond)
	if slept := ThreadCPU() - before; slept > 10*time.Millisecond {
		t.Errorf("50 ms of sleep took %v of thread CPU", slept)
	}
}
