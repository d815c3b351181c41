//go:build unix

package adapter

import (
	"os"
	"syscall"
)

// offerFDs says that a worker is offered the protocol's own descriptors
// (wire.FDsEnv): a Unix child inherits them through exec.Cmd.ExtraFiles.
const offerFDs = true

// signalGroup sends sig to proc's whole process group (sysProcAttr made it
// one), so that no grandchild outlives the worker.
func signalGroup(proc *os.Process, sig syscall.Signal) {
	syscall.Kill(-proc.Pid, sig)
}
