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

	"difffuzz/kits/go/wire"

	"golang.org/x/sys/unix"
)

// Grace periods of the stop escalation: stdin closed, then SIGINT, then SIGKILL.
const (
	stopGrace = 2 * time.Second
	intGrace  = 1 * time.Second
)

// process is one running worker. It owns the pipes and the process group.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // our end; closing it asks the worker to stop
	stdout *os.File // our end; deadlines are set on it
	frames *wire.FrameReader
	stderr *tail
	done   chan struct{} // closed when the process has been waited for
	err    error         // Wait's result, set before done is closed
	killed atomic.Bool   // we sent SIGKILL, so a SIGKILL death is not a crash
}

// startProcess starts argv in its own process group, with the parent-death
// signal set so that a driver that dies without cleaning up leaves no orphan.
func startProcess(argv []string, dir string, env []string, stderrCopy io.Writer) (*process, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty command")
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	growPipe(inW)
	growPipe(outR)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	p := &process{cmd: cmd, stdin: inW, stdout: outR, frames: wire.NewFrameReader(outR), stderr: newTail(64 << 10), done: make(chan struct{})}
	track(p)
	var copied sync.WaitGroup
	copied.Add(1)
	go func() {
		defer copied.Done()
		w := io.Writer(p.stderr)
		if stderrCopy != nil {
			w = io.MultiWriter(p.stderr, stderrCopy)
		}
		io.Copy(w, errR)
	}()
	go func() {
		p.err = cmd.Wait()
		// A grandchild that escaped the group may hold stderr open: give the
		// copy a moment, then cut it, so that done is never held up.
		if !waitTimeout(&copied, time.Second) {
			errR.Close()
			copied.Wait()
		}
		errR.Close()
		close(p.done)
	}()
	return p, nil
}

// pipeSize is the capacity asked for each of a worker's pipes: a batch's
// frame (about 1.5 MB on average at the fuzzing loop's default batch of
// 2,048, 190 KB at 256) then crosses in two writes and wake-ups of the
// reader, or one, instead of two dozen at the default 64 KiB. It is the
// kernel's default pipe-max-size; an unprivileged process may ask for no
// more.
const pipeSize = 1 << 20

// growPipe asks for pipeSize on f's pipe; where the kernel refuses (its
// limits, another system), the pipe keeps its size, which only costs speed.
func growPipe(f *os.File) {
	if rc, err := f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) { unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeSize) })
	}
}

// writeParts writes the parts of one frame to f, as f.Write of their
// concatenation would (its deadline included), without copying them: into
// a pipe, vmsplice hands the pipe the parts' pages by reference, and the
// reader copies straight out of them. A batch's cases, encoded once and
// shared by the lane's workers, are then copied neither into each worker's
// frame nor into each pipe (what that saves the driver is in
// docs/performance.md).
// So the parts must stay unchanged until the reader has read them, which a
// worker has once it answers (see Batch.Release). Where f is not a pipe, a
// vectored write copies them.
func writeParts(f *os.File, parts ...[]byte) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var werr error
	splice := true
	err = rc.Write(func(fd uintptr) bool {
		for len(parts) > 0 {
			var n int
			var err error
			if splice {
				n, err = unix.Vmsplice(int(fd), iovecs(parts), unix.SPLICE_F_NONBLOCK)
				switch err {
				case unix.EBADF, unix.EINVAL, unix.ENOSYS, unix.EPERM:
					// Not a pipe, no vmsplice here, or a sandbox's
					// syscall filter refuses it.
					splice = false
					continue
				}
			} else {
				n, err = unix.Writev(int(fd), parts)
			}
			switch {
			case err == unix.EINTR:
				continue
			case err == unix.EAGAIN:
				return false // the poller waits for room, or the deadline
			case err != nil:
				werr = err
				return true
			}
			parts = skip(parts, n)
		}
		return true
	})
	if err == nil {
		err = werr
	}
	if err != nil {
		return &os.PathError{Op: "write", Path: f.Name(), Err: err}
	}
	return nil
}

// iovecs describes the non-empty parts for vmsplice.
func iovecs(parts [][]byte) []unix.Iovec {
	iov := make([]unix.Iovec, 0, len(parts))
	for _, p := range parts {
		if len(p) > 0 {
			v := unix.Iovec{Base: &p[0]}
			v.SetLen(len(p))
			iov = append(iov, v)
		}
	}
	return iov
}

// skip drops the first n bytes of parts.
func skip(parts [][]byte, n int) [][]byte {
	for n > 0 && len(parts) > 0 {
		k := min(n, len(parts[0]))
		parts[0], n = parts[0][k:], n-k
		if len(parts[0]) == 0 {
			parts = parts[1:]
		}
	}
	for len(parts) > 0 && len(parts[0]) == 0 {
		parts = parts[1:]
	}
	return parts
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
	syscall.Kill(-p.cmd.Process.Pid, sig)
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
	if p.stdin.Close() != nil {
		return // already stopped or killed
	}
	if !p.exited(stopGrace) {
		p.signal(syscall.SIGINT)
		if !p.exited(intGrace) {
			p.signal(syscall.SIGKILL)
			<-p.done
		}
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	p.stdout.Close()
}

// kill ends the worker at once (a hang, a protocol breach) and reaps it.
func (p *process) kill() {
	p.signal(syscall.SIGKILL)
	p.stdin.Close()
	<-p.done
	p.stdout.Close()
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

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
