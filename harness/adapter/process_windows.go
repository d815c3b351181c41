package adapter

import (
	"os"
	"syscall"
)

// The Windows side of a worker process. os/exec cannot pass a child
// descriptors beyond its standard streams (exec.Cmd.ExtraFiles), so a
// worker is offered no descriptors and speaks on stdin and stdout
// (protocol 2); and there is no SIGINT to send a single process, so stop
// goes from closing the worker's input straight to killing it after the
// grace periods. Both are in docs/adapter-protocol.md ("Process"), with
// the gap still open: os.Pipe's handles are synchronous, so the poller
// cannot put a deadline on them (SetReadDeadline fails with
// os.ErrNoDeadline) and a hung worker is waited for without end. Overlapped
// named pipes would close it.

// offerFDs says that a worker is offered no descriptors of its own.
const offerFDs = false

// sysProcAttr starts the worker in a process group of its own, so that a
// Ctrl+C at the driver's console is the driver's to handle, as the process
// group does on Unix. There is no parent-death signal: a driver that exits
// cleans up with KillAll.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// signalGroup kills proc when sig is SIGKILL, and does nothing for any
// other signal, which Windows cannot send. It kills the worker alone: a
// process it started itself is not killed with it.
func signalGroup(proc *os.Process, sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		proc.Kill()
	}
}
