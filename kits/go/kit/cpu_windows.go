package kit

import (
	"syscall"
	"time"
)

// selfCPU is this process's CPU time (kernel and user, GetProcessTimes),
// what batch_cpu_ns and a bench's cpu_ns count; 0 if the system cannot say.
// The standard library's syscall has the call, so the kit needs no
// golang.org/x/sys.
func selfCPU() time.Duration {
	p, err := syscall.GetCurrentProcess()
	if err != nil {
		return 0
	}
	var created, exited, kernel, user syscall.Filetime
	if err := syscall.GetProcessTimes(p, &created, &exited, &kernel, &user); err != nil {
		return 0
	}
	ns := func(ft syscall.Filetime) time.Duration { // FILETIME counts 100 ns
		return time.Duration(uint64(ft.HighDateTime)<<32|uint64(ft.LowDateTime)) * 100
	}
	return ns(kernel) + ns(user)
}
