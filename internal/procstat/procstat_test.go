package procstat

import (
	"testing"
	"time"
)

// spin computes until clock has moved by d, or for 10 s of wall clock on a
// host too busy to give it that, and returns how far clock moved. A spin
// for a given wall time would get almost no CPU on a loaded host under
// nice, and prove nothing.
func spin(clock func() time.Duration, d time.Duration) (time.Duration, int) {
	start, x := clock(), 0
	for deadline := time.Now().Add(10 * time.Second); clock()-start < d && time.Now().Before(deadline); {
		for range 10000 {
			x++
		}
	}
	return clock() - start, x
}

// On every system, this process's CPU time moves with its work, and no
// process has a pid of 0 or less.
func TestSelfCPUEverywhere(t *testing.T) {
	before := SelfCPU()
	worked, x := spin(SelfCPU, 20*time.Millisecond)
	if worked < 20*time.Millisecond || SelfCPU() <= before {
		t.Errorf("10 s of work took %v of CPU (x=%d)", worked, x)
	}
	for _, pid := range []int{0, -1} {
		if got := ProcessCPU(pid); got != 0 {
			t.Errorf("ProcessCPU(%d) = %v, want 0", pid, got)
		}
	}
}
