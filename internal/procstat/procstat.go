// Package procstat reads the CPU time and memory of processes, so that the
// bench can charge a run's cost to every process that did the work, the
// driver and its workers alike; and the calling thread's CPU time, so that
// the in-process Go implementation can tell its own share of the driver's.
package procstat

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// clockTick is USER_HZ, the unit of /proc/PID/stat times; 100 on Linux.
const clockTick = 100

// ProcessCPU is the user+system CPU time a live process has used so far:
// from its CPU clock, at the kernel's full resolution, or else from /proc
// in clock ticks; 0 if neither can be read (the process is gone). The bench
// sets a worker's CPU against what the worker said its batches cost, and a
// tick (10 ms) at each end of a span is as much as the worker's own
// overhead over a few seconds.
func ProcessCPU(pid int) time.Duration {
	if pid <= 0 {
		return 0 // the clock of pid 0 would be this process's
	}
	var ts unix.Timespec
	if err := unix.ClockGettime(processClock(pid), &ts); err == nil {
		return time.Duration(ts.Nano())
	}
	return statCPU(pid)
}

// processClock is the ID of pid's process-wide CPU clock, made as glibc's
// clock_getcpuclockid makes it (CPUCLOCK_SCHED of the process, not of one
// of its threads).
func processClock(pid int) int32 { return int32(^pid<<3 | 2) }

// statCPU is ProcessCPU from /proc/PID/stat, in clock ticks.
func statCPU(pid int) time.Duration {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// Fields after the parenthesized command: state is field 3; utime 14, stime 15.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / clockTick
}

// SelfCPU is this process's user+system CPU time so far, at the kernel's
// full resolution.
func SelfCPU() time.Duration {
	cpu, _ := SelfUsage()
	return cpu
}

// SelfUsage is this process's CPU time and peak resident set size.
func SelfUsage() (cpu time.Duration, maxRSSBytes int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return cpu, ru.Maxrss * 1024
}

// CurrentRSS is this process's resident set now, in bytes, from /proc.
func CurrentRSS() int64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// ThreadCPU is the calling thread's CPU time so far; 0 where the platform
// has no per-thread clock. It means something only to a goroutine locked to
// its thread (runtime.LockOSThread) for as long as it is timing itself.
func ThreadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
