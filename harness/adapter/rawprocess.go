package adapter

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/difffuzz/difffuzz/kits/go/wire"
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

// Hello reads the worker's first frame by deadline, on whichever channel
// it speaks (the descriptors of wire.FDsEnv, or stdout), and makes that
// channel the one of Requests, Responses and Frames, which must not be
// called before. The body is valid until the next frame is read. io.EOF
// says the worker's output ended first, os.ErrDeadlineExceeded that the
// deadline came first.
func (p *Process) Hello(deadline time.Time) ([]byte, error) { return p.p.hello(deadline) }

// OnFDs says whether the worker speaks on the descriptors (protocol 3).
func (p *Process) OnFDs() bool { return p.p.fds }

// CheckProtocol checks a hello's version against the worker's channel.
func (p *Process) CheckProtocol(v int) error { return checkProtocol(v, p.p.fds) }

// Requests is the write end of the worker's requests; closing it asks it
// to stop.
func (p *Process) Requests() *os.File { return p.p.req }

// Responses is the read end of the worker's responses; it takes deadlines.
func (p *Process) Responses() *os.File { return p.p.resp }

// Frames reads frames from Responses.
func (p *Process) Frames() *wire.FrameReader { return p.p.frames }

// Breach explains err, the worker's answer body that broke the protocol
// (or a frame length out of range, body nil), by the text it wrote, when
// it looks like text.
func (p *Process) Breach(err error, body []byte) error { return p.p.breach(err, body) }

// Stderr is the tail of what the worker printed: its stderr, and its stdout
// when that is not the protocol's stream.
func (p *Process) Stderr() string { return p.p.output.String() }

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
