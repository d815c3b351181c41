package conform

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"difffuzz/harness/adapter"
	"difffuzz/harness/wire"
)

// proc is a worker process driven frame by frame, for the checks that need
// the raw pipes: raw cases, malformed frames, the end of input. It runs in
// its own process group. stop must be called once start succeeded; it always
// reaps the process and kills what is left of its group, so no check leaves
// an orphan.
type proc struct {
	cmd    *exec.Cmd
	stdin  *os.File // our end; closing it is the protocol's "stop"
	stdout *os.File // our end; every read has a deadline
	frames *wire.FrameReader
	enc    *wire.Encoder
	dec    *wire.Decoder
	msg    wire.Message
	stderr *tail
	timing timing
	id     uint64 // the last batch id sent

	done    chan struct{} // closed once the process has been waited for
	waitErr error         // Wait's result, set before done is closed
	once    sync.Once
}

// startProc starts a worker and reads its hello.
func startProc(cfg adapter.Config, t timing) (*proc, error) {
	p, err := spawn(cfg, t)
	if err != nil {
		return nil, err
	}
	if err := p.readHello(); err != nil {
		p.stop()
		return nil, err
	}
	return p, nil
}

// spawn starts the process with pipes we can put deadlines on.
func spawn(cfg adapter.Config, t timing) (*proc, error) {
	if len(cfg.Command) == 0 {
		return nil, errors.New("start worker: empty command")
	}
	var files [4]*os.File // inR, inW, outR, outW
	var err error
	if files[0], files[1], err = os.Pipe(); err == nil {
		files[2], files[3], err = os.Pipe()
	}
	if err != nil {
		closeFiles(files[:]...)
		return nil, fmt.Errorf("start worker: %w", err)
	}
	p := &proc{stdin: files[1], stdout: files[2], frames: wire.NewFrameReader(files[2]),
		enc: wire.NewEncoder(), dec: wire.NewDecoder(), stderr: &tail{max: 64 << 10}, timing: t, done: make(chan struct{})}
	p.cmd = exec.Command(cfg.Command[0], cfg.Command[1:]...)
	p.cmd.Dir, p.cmd.Env = cfg.Dir, append(os.Environ(), cfg.Env...)
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = files[0], files[3], p.stderr
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p.cmd.WaitDelay = time.Second // a grandchild holding stderr must not stall Wait
	err = p.cmd.Start()
	closeFiles(files[0], files[3])
	if err != nil {
		closeFiles(files[1], files[2])
		return nil, fmt.Errorf("start %q: %w", cfg.Command, err)
	}
	go func() {
		p.waitErr = p.cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

func closeFiles(fs ...*os.File) {
	for _, f := range fs {
		if f != nil {
			f.Close()
		}
	}
}

func (p *proc) readHello() error {
	m, err := p.read(p.timing.start)
	if err != nil {
		return fmt.Errorf("hello: %w", err)
	}
	switch {
	case m.Type != wire.TypeHello:
		return fmt.Errorf("first frame is %q, want hello", m.Type)
	case m.Hello.Protocol != wire.ProtocolVersion:
		return fmt.Errorf("hello has protocol %d, want %d", m.Hello.Protocol, wire.ProtocolVersion)
	}
	return nil
}

// write sends bytes to the worker's stdin within timeout.
func (p *proc) write(b []byte, timeout time.Duration) error {
	p.stdin.SetWriteDeadline(time.Now().Add(timeout))
	if _, err := p.stdin.Write(b); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("worker did not read its input within %v: %w", timeout, &hangError{timeout})
		}
		if p.exited(time.Second) {
			return &endError{p.describeExit() + " while reading a request"}
		}
		return fmt.Errorf("write request: %w", err)
	}
	return nil
}

// hangError is a worker that did not answer in time; it matches
// os.ErrDeadlineExceeded.
type hangError struct{ timeout time.Duration }

func (e *hangError) Error() string { return fmt.Sprintf("no answer within %v (hang)", e.timeout) }
func (e *hangError) Unwrap() error { return os.ErrDeadlineExceeded }

// endError is a worker whose output ended; it matches io.EOF.
type endError struct{ how string }

func (e *endError) Error() string { return "worker " + e.how }
func (e *endError) Unwrap() error { return io.EOF }

// read reads and decodes one frame within timeout. A hang is a *hangError,
// an end of output an *endError that says how the worker ended.
func (p *proc) read(timeout time.Duration) (*wire.Message, error) {
	p.stdout.SetReadDeadline(time.Now().Add(timeout))
	body, err := p.frames.Next()
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, &hangError{timeout}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		how := "closed its stdout"
		if p.exited(time.Second) {
			how = p.describeExit()
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			how += " in the middle of a frame"
		}
		return nil, &endError{how}
	case err != nil:
		return nil, fmt.Errorf("answer: %w", err)
	}
	if err := p.dec.Decode(body, &p.msg); err != nil {
		return nil, fmt.Errorf("answer is not a valid frame: %w", err)
	}
	return &p.msg, nil
}

// batch sends raw cases as one batch and returns the results. The results
// are valid until the next call.
func (p *proc) batch(cases [][]byte) ([]wire.Result, error) {
	p.id++
	frame, err := p.enc.BatchRaw(p.id, cases)
	if err != nil {
		return nil, fmt.Errorf("encode batch: %w", err)
	}
	timeout := p.timing.batch + time.Duration(len(cases))*p.timing.perCase
	if err := p.write(frame, timeout); err != nil {
		return nil, err
	}
	m, err := p.read(timeout)
	if err != nil {
		return nil, err
	}
	return m.Results, p.checkResults(m, len(cases))
}

// checkResults checks that m answers the last batch, of n cases.
func (p *proc) checkResults(m *wire.Message, n int) error {
	switch {
	case m.Type == wire.TypeError:
		return fmt.Errorf("worker answered an error frame: %q", m.Text)
	case m.Type != wire.TypeResults:
		return fmt.Errorf("answer type %q, want %q", m.Type, wire.TypeResults)
	case m.ID != p.id:
		return fmt.Errorf("answer id %d, want %d", m.ID, p.id)
	case len(m.Results) != n:
		return fmt.Errorf("%d results for %d cases", len(m.Results), n)
	}
	return nil
}

// exited waits up to d for the process to exit and says whether it did.
func (p *proc) exited(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

// exitStatus is how the process ended: its status, or the signal that
// killed it (status -1). Call it only after exited returned true.
func (p *proc) exitStatus() (status int, sig syscall.Signal) {
	var ee *exec.ExitError
	if !errors.As(p.waitErr, &ee) {
		return 0, 0
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, ws.Signal()
	}
	return ee.ExitCode(), 0
}

// describeExit says how the process ended, for messages.
func (p *proc) describeExit() string {
	status, sig := p.exitStatus()
	if status < 0 {
		return fmt.Sprintf("was killed by signal %d (%v)", int(sig), sig)
	}
	return fmt.Sprintf("exited with status %d", status)
}

// stop closes stdin, waits a little, then kills the process group, and
// always reaps the process. It is safe to call more than once.
func (p *proc) stop() {
	p.once.Do(func() {
		p.stdin.Close()
		if !p.exited(2 * time.Second) {
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			<-p.done
		}
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		p.stdout.Close()
	})
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

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
