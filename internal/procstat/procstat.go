// Package procstat reads the CPU time and memory of processes, so that the
// bench can charge a run's cost to every process that did the work, the
// driver and its workers alike; and the calling thread's CPU time, so that
// the in-process Go implementation can tell its own share of the driver's.
//
// Linux gives all of it (procstat_linux.go, memory.go's /proc). Elsewhere a
// figure the system does not offer without cgo reads as 0, "not measured":
// on macOS another process's CPU time, this process's resident set now, and
// every figure of memory.go; on Windows the calling thread's CPU time and
// every figure of memory (a process's CPU time comes from
// GetProcessTimes).
package procstat

import "time"

// ProcessCPU is the user+system CPU time a live process has used so far:
// on Linux from its CPU clock, at the kernel's full resolution, or else from
// /proc in clock ticks; 0 if it cannot be read (the process is gone, or the
// system does not say). The bench sets a worker's CPU against what the
// worker said its batches cost, and a tick (10 ms) at each end of a span is
// as much as the worker's own overhead over a few seconds.
func ProcessCPU(pid int) time.Duration {
	if pid <= 0 {
		return 0 // the clock of pid 0 would be this process's
	}
	return processCPU(pid)
}

// SelfCPU is this process's user+system CPU time so far, at the kernel's
// full resolution.
func SelfCPU() time.Duration {
	cpu, _ := SelfUsage()
	return cpu
}

// SelfUsage is this process's CPU time and peak resident set size; the
// peak is 0 where the system does not say.
func SelfUsage() (cpu time.Duration, maxRSSBytes int64) { return selfUsage() }

// CurrentRSS is this process's resident set now, in bytes (from /proc on
// Linux); 0 where the system does not say.
func CurrentRSS() int64 { return currentRSS() }

// ThreadCPU is the calling thread's CPU time so far; 0 where the platform
// has no per-thread clock. It means something only to a goroutine locked to
// its thread (runtime.LockOSThread) for as long as it is timing itself.
func ThreadCPU() time.Duration { return threadCPU() }
