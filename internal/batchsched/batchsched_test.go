//go:build linux

package batchsched

import (
	"os/exec"
	"strings"
	"testing"
)

// TestChildInherits: a process started after Enter runs with the batch
// policy, as a worker does.
func TestChildInherits(t *testing.T) {
	if !Enter() {
		t.Fatal("Enter failed")
	}
	// Field 41 of /proc/PID/stat is the policy; 3 is SCHED_BATCH.
	out, err := exec.Command("sh", "-c", "cut -d' ' -f41 /proc/self/stat").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "3" {
		t.Errorf("child's policy = %s, want 3 (SCHED_BATCH)", got)
	}
}
