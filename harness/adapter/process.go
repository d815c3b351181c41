package adapter

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Grace periods of the stop escalation: input closed, then SIGINT, then SIGKILL.
const (
	stopGrace = 2 * time.Second
	intGrace  = 1 * time.Second
)

// process is one running worker. It owns the pipes and the process group.
//
// The worker gets two pipes besides its standard streams, the descriptors
// of wire.FDsEnv, and its hello says which channel it speaks (channel.go):
// req and resp are then those descriptors' ends or stdin and stdout.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // our end of the worker's stdin
	stdout *os.File // our end of its stdout; the sniffer's, then the drain's or the protocol's
	reqW   *os.File // our end of the request descriptor offered
	respR  *os.File // our end of the response descriptor offered
	// req and resp are the protocol's channel, set by hello: reqW and
	// respR when fds, else stdin and stdout. Deadlines are set on them.
	req, resp *os.File
	fds       bool
	frames    *wire.FrameReader // reads resp
	stdoutRole
	output *tail         // the tail of what the worker printed, stderr and stdout alike
	done   chan struct{} // closed when the process has been waited for
	err    error         // Wait's result, set before done is closed
	killed atomic.Bool   // we sent SIGKILL, so a SIGKILL death is not a crash
	ended  atomic.Bool   // stop or kill has begun
}

// pipes are a worker's pipes: ours are the ends the driver keeps.
type pipes struct {
	theirs, ours []*os.File
}

// pipe makes one pipe; toWorker says which way it runs.
func (ps *pipes) pipe(toWorker bool) (*os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	if toWorker {
		r, w = w, r // ours is the write end
	}
	ps.theirs, ps.ours = append(ps.theirs, w), append(ps.ours, r)
	return r, nil
}

func closeAll(fs []*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// startProcess starts argv in its own process group (sysProcAttr), with the
// parent-death signal set where the system has one, so that a driver that
// dies without cleaning up leaves no orphan. Its stdin, stdout and stderr
// are pipes, and so are the descriptors it is offered for the protocol
// (wire.RequestFD, wire.ResponseFD) where the system can pass them
// (offerFDs); where it cannot, their pipes are made all the same and closed
// at the worker's end, so that hello finds that channel ended and the
// worker speaks on stdin and stdout.
func startProcess(argv []string, dir string, env []string, stderrCopy io.Writer) (*process, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty command")
	}
	var ps pipes
	var ends [5]*os.File // stdin, stdout, stderr, request, response: ours
	for i, toWorker := range []bool{true, false, false, true, false} {
		f, err := ps.pipe(toWorker)
		if err != nil {
			closeAll(ps.theirs)
			closeAll(ps.ours)
			return nil, err
		}
		ends[i] = f
	}
	for _, f := range []*os.File{ends[0], ends[1], ends[3], ends[4]} {
		growPipe(f)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	base := os.Environ()
	if offerFDs {
		base = append(base, wire.FDsEnv+"="+wire.FDsOffer)
		cmd.ExtraFiles = ps.theirs[3:] // descriptors 3 and 4
	}
	cmd.Env = append(base, env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = ps.theirs[0], ps.theirs[1], ps.theirs[2]
	cmd.SysProcAttr = sysProcAttr()
	err := cmd.Start()
	closeAll(ps.theirs)
	if err != nil {
		closeAll(ps.ours)
		return nil, err
	}
	p := &process{cmd: cmd, stdin: ends[0], stdout: ends[1], reqW: ends[3], respR: ends[4],
		stdoutRole: newStdoutRole(), output: newTail(64<<10, stderrCopy), done: make(chan struct{})}
	track(p)
	var copied sync.WaitGroup
	copied.Add(2)
	go func() {
		defer copied.Done()
		io.Copy(p.output.stream(errStream), ends[2])
	}()
	go func() {
		defer copied.Done()
		p.readStdout()
	}()
	go func() {
		p.err = cmd.Wait()
		// A grandchild that escaped the group may hold stderr or stdout
		// open: give the copies a moment, then cut them, so that done is
		// never held up.
		if !waitTimeout(&copied, time.Second) {
			ends[2].Close()
			if p.set(roleLog) || p.role() == roleLog {
				p.stdout.Close()
			}
			copied.Wait()
		}
		ends[2].Close()
		close(p.done)
	}()
	return p, nil
}

// waitTimeout waits for wg up to d and says whether it finished.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// signal sends sig to the worker's whole process group.
func (p *process) signal(sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		p.killed.Store(true)
	}
	signalGroup(p.cmd.Process, sig)
}

// exited waits up to d for the process to exit and says whether it did.
func (p *process) exited(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

// stop ends the worker by escalation and always reaps it; it then kills what
// is left of the process group, so that no grandchild outlives the worker.
func (p *process) stop() {
	if p.ended.Swap(true) {
		return // already stopped or killed
	}
	p.closeInput()
	if !p.exited(stopGrace) {
		p.signal(syscall.SIGINT)
		if !p.exited(intGrace) {
			p.signal(syscall.SIGKILL)
			<-p.done
		}
	}
	signalGroup(p.cmd.Process, syscall.SIGKILL)
	p.closeOutput()
}

// kill ends the worker at once (a hang, a protocol breach) and reaps it.
func (p *process) kill() {
	p.ended.Store(true)
	p.signal(syscall.SIGKILL)
	p.closeInput()
	<-p.done
	p.closeOutput()
}

// closeInput closes both the worker's stdin and its request descriptor:
// the end of its input, on whichever channel it reads (the other one is
// closed already once the hello said which).
func (p *process) closeInput() {
	p.stdin.Close()
	p.reqW.Close()
}

func (p *process) closeOutput() {
	p.stdout.Close()
	p.respR.Close()
}

// describeExit says how the process ended, and whether the death was a
// SIGKILL from outside rather than the input's doing.
func (p *process) describeExit() (string, bool) {
	var ee *exec.ExitError
	if !errors.As(p.err, &ee) {
		if p.err != nil {
			return p.err.Error(), false
		}
		return "exited with status 0", false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		sig := ws.Signal()
		return fmt.Sprintf("killed by signal %d (%s)", int(sig), sig), sig == syscall.SIGKILL && !p.killed.Load()
	}
	return fmt.Sprintf("exited with status %d", ee.ExitCode()), false
}
