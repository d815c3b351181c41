package adapter

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"difffuzz/kits/go/wire"
)

// Process is a worker process with its pipes, for tools that must talk to a
// worker outside the protocol's happy path: the conformance checks send it
// malformed frames and watch how it ends. It is started and stopped like a
// Worker's process (own process group, parent-death signal, escalation), so
// it never outlives the driver. Stop or Kill must be called once
// StartProcess has succeeded.
type Process struct{ p *process }

// StartProcess starts cfg's command without reading its hello.
func StartProcess(cfg Spec) (*Process, error) {
	p, err := startProcess(cfg.Command, cfg.Dir, cfg.Env, cfg.Stderr)
	if err != nil {
		return nil, err
	}
	return &Process{p}, nil
}

// Stdin is the write end of the worker's stdin; closing it asks it to stop.
func (p *Process) Stdin() *os.File { return p.p.stdin }

// Stdout is the read end of the worker's stdout; it takes deadlines.
func (p *Process) Stdout() *os.File { return p.p.stdout }

// Frames reads frames from Stdout.
func (p *Process) Frames() *wire.FrameReader { return p.p.frames }

// Stderr is the tail of what the worker wrote to stderr.
func (p *Process) Stderr() string { return p.p.stderr.String() }

// Exited waits up to d for the process to end and says whether it did.
func (p *Process) Exited(d time.Duration) bool { return p.p.exited(d) }

// ExitStatus is how the process ended: its status, or the signal that killed
// it (status -1). Call it only after Exited returned true.
func (p *Process) ExitStatus() (status int, sig syscall.Signal) {
	var ee *exec.ExitError
	if !errors.As(p.p.err, &ee) {
		return 0, 0
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, ws.Signal()
	}
	return ee.ExitCode(), 0
}

// Describe says how the process ended, for messages ("exited with status 2").
func (p *Process) Describe() string {
	status, sig := p.ExitStatus()
	if status < 0 {
		return fmt.Sprintf("was killed by signal %d (%v)", int(sig), sig)
	}
	return fmt.Sprintf("exited with status %d", status)
}

// Stop ends the worker by escalation (stdin closed, SIGINT, SIGKILL) and
// reaps it.
func (p *Process) Stop() { p.p.stop() }

// Kill ends the worker at once and reaps it.
func (p *Process) Kill() { p.p.kill() }
