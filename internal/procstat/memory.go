package procstat

import (
	"os"
	"strconv"
	"strings"
)

// RSS is a live process's resident set now, in bytes (VmRSS of
// /proc/PID/status); 0 if it cannot be read (the process is gone). The
// soak samples the driver and every worker with it, and the run's status
// line its workers.
func RSS(pid int) int64 {
	return statusField(pid, "VmRSS:")
}

// PeakRSS is a live process's peak resident set so far, in bytes (VmHWM);
// 0 if it cannot be read. It is how the report gives each worker's peak
// without sampling it: the kernel keeps the high-water mark.
func PeakRSS(pid int) int64 {
	return statusField(pid, "VmHWM:")
}

// statusField is a "kB" field of /proc/PID/status in bytes.
func statusField(pid int, name string) int64 {
	if pid <= 0 {
		return 0
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, name); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				return 0
			}
			kb, _ := strconv.ParseInt(f[0], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// Children is the ids of pid's live child processes (those of all its
// threads: the Go runtime starts a child from whichever thread it is on),
// nil if there are none or /proc cannot say.
func Children(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var kids []int
	for _, t := range tasks {
		data, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(data)) {
			if k, err := strconv.Atoi(f); err == nil {
				kids = append(kids, k)
			}
		}
	}
	return kids
}

// Cmdline is a live process's command line, its arguments joined by
// spaces; "" if it cannot be read.
func Cmdline(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(strings.ReplaceAll(string(data), "\x00", " "))
}
