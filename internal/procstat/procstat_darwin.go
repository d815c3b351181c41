package procstat

import (
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// processCPU is 0, not measured: another process's CPU time is
// proc_pid_rusage's, which Go offers only through cgo.
func processCPU(int) time.Duration { return 0 }

// selfUsage is getrusage's; macOS gives ru_maxrss in bytes.
func selfUsage() (cpu time.Duration, maxRSSBytes int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Maxrss
}

// currentRSS is 0, not measured: the resident set now is task_info's,
// which Go offers only through cgo.
func currentRSS() int64 { return 0 }

// threadCPU reads the calling thread's CPU clock.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
