package kit

import (
	"time"

	"golang.org/x/sys/windows"
)

// selfCPU is this process's CPU time (kernel and user, GetProcessTimes),
// what batch_cpu_ns and a bench's cpu_ns count; 0 if the system cannot say.
func selfCPU() time.Duration {
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &created, &exited, &kernel, &user); err != nil {
		return 0
	}
	ns := func(ft windows.Filetime) time.Duration { // FILETIME counts 100 ns
		return time.Duration(uint64(ft.HighDateTime)<<32|uint64(ft.LowDateTime)) * 100
	}
	return ns(kernel) + ns(user)
}
