package procstat

import (
	"time"

	"golang.org/x/sys/windows"
)

// processCPU is GetProcessTimes' kernel and user times of pid.
func processCPU(pid int) time.Duration {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return 0
	}
	defer windows.CloseHandle(h)
	return handleCPU(h)
}

// handleCPU is the kernel and user times of the process h, 0 if Windows
// does not give them.
func handleCPU(h windows.Handle) time.Duration {
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return 0
	}
	return filetime(kernel) + filetime(user)
}

// filetime is a FILETIME span (100 ns units) as a Duration.
func filetime(ft windows.Filetime) time.Duration {
	return time.Duration(uint64(ft.HighDateTime)<<32|uint64(ft.LowDateTime)) * 100
}

// selfUsage is this process's times; the peak resident set is 0, not
// measured (GetProcessMemoryInfo is not in golang.org/x/sys/windows).
func selfUsage() (cpu time.Duration, maxRSSBytes int64) {
	return handleCPU(windows.CurrentProcess()), 0
}

// currentRSS is 0, not measured (see selfUsage).
func currentRSS() int64 { return 0 }

// threadCPU is 0: GetThreadTimes is not in golang.org/x/sys/windows, and
// its 15.6 ms quantum would not time one call anyway.
func threadCPU() time.Duration { return 0 }
