//go:build unix && !linux

package adapter

import "syscall"

// sysProcAttr puts the worker in a process group of its own, which
// signalGroup signals as one. There is no parent-death signal outside
// Linux: a driver that exits cleans up with KillAll, and one killed from
// outside (SIGKILL) leaves its workers to end when they read the end of
// their input.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
