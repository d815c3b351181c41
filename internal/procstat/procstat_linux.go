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

// processCPU reads pid's CPU clock, or else /proc/PID/stat.
func processCPU(pid int) time.Duration {
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

// selfUsage is getrusage's; Linux gives ru_maxrss in KiB.
func selfUsage() (cpu time.Duration, maxRSSBytes int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return cpu, ru.Maxrss * 1024
}

// currentRSS is the resident field of /proc/self/statm, in pages.
func currentRSS() int64 {
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

// threadCPU reads the calling thread's CPU clock.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
