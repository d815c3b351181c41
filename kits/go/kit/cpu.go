//go:build unix

package kit

import (
	"syscall"
	"time"
)

// selfCPU is this process's CPU time (user and system), what batch_cpu_ns
// and a bench's cpu_ns count; 0 if the system cannot say.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
