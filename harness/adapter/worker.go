package adapter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/internal/procstat"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Defaults of Spec's zero values, defined here alone.
const (
	DefaultBatchTimeout = 10 * time.Second
	DefaultCaseTimeout  = 20 * time.Millisecond
	DefaultStartTimeout = 30 * time.Second
)

// Spec is the one description of an adapter, from the config file to the
// process: the in-process Go implementation, or a worker to start.
type Spec struct {
	Name string
	// InProcess is the Go implementation in the driver's process; the
	// fields below Default are then unused.
	InProcess bool
	// Contract is the contract an in-process adapter follows (a zero
	// Contract is this project's, contract.Default). A worker follows the
	// contract its own command line gives it.
	Contract contract.Contract
	// Build is the shell command that builds the worker, for messages.
	Build string
	// Default says whether a run uses the adapter when none are named.
	Default bool

	Command []string // argv; Command[0] is looked up in PATH
	Dir     string   // working folder; "" means the driver's
	Env     []string // KEY=VALUE added to the driver's environment

	// A batch of n cases must be answered within BatchTimeout + n*CaseTimeout,
	// or the worker is killed and the batch is a hang. Zero means the default.
	BatchTimeout time.Duration
	CaseTimeout  time.Duration
	// StartTimeout bounds the wait for the hello. Zero means the default.
	StartTimeout time.Duration

	// Stderr, if set, gets a copy of everything the worker prints: its
	// stderr, and its stdout when that is not the protocol's stream.
	Stderr io.Writer
}

func (c *Spec) deadline(n int) time.Duration {
	bt, ct := c.BatchTimeout, c.CaseTimeout
	if bt <= 0 {
		bt = DefaultBatchTimeout
	}
	if ct <= 0 {
		ct = DefaultCaseTimeout
	}
	return bt + time.Duration(n)*ct
}

// Worker is an adapter backed by a worker process. It is not safe for
// concurrent use; the driver runs one goroutine per Worker. A Worker that
// failed a batch restarts its process on the next call.
type Worker struct {
	cfg    Spec
	proc   *process
	hello  wire.Hello
	enc    *wire.Encoder
	dec    *wire.Decoder
	msg    wire.Message
	id     uint64
	starts int
	// why is the reason the next start is a restart for (see
	// RestartReasons): what ended the last process. restarts counts the
	// restarts by reason; the status line reads it while the lane runs.
	why      string
	restarts [len(RestartReasons)]atomic.Uint64
	// batchCPU sums what the worker's processes said their batches cost
	// (wire.Message.BatchCPUNS), in nanoseconds; read while the lane runs.
	batchCPU atomic.Uint64
	// cpuAtBatch is the current process's CPU time, in nanoseconds, when
	// its last batch's answer was read; read while the lane runs.
	cpuAtBatch atomic.Int64
	// pid is the current process's id, 0 if none runs: the run's memory
	// sampler reads it from another goroutine while the lane restarts the
	// worker, so it is kept apart from proc.
	pid atomic.Int64
}

// BatchCPU implements Adapter.
func (w *Worker) BatchCPU() time.Duration { return time.Duration(w.batchCPU.Load()) }

// CPUAtBatch is the CPU time the current process had used when its last
// batch's answer was read (0 before its first). Set against BatchCPU, it
// spans the same whole batches: a reading taken at any other moment cuts
// through a batch, which at thousands of cases is a sizeable share of a
// few seconds of a worker's CPU.
func (w *Worker) CPUAtBatch() time.Duration { return time.Duration(w.cpuAtBatch.Load()) }

// StartCount is the number of process starts, the first one included.
func (w *Worker) StartCount() int { return w.starts }

// Reasons a worker process is restarted, in the order reports list them:
// what ended the process before.
var RestartReasons = [...]string{
	"crash",    // it exited or closed its pipes (Crash)
	"hang",     // no answer before the deadline: killed (Hang)
	"protocol", // an answer that broke the protocol: killed (Protocol)
	"memory",   // SIGKILL from outside, most often the kernel's OOM killer (Killed)
	"setup",    // the restart before this one failed: no hello (Setup)
	"stopped",  // the driver stopped it: Close, or a context that ended mid-answer
}

// restartReason is the reason a failure of kind k gives the restart after
// it.
func restartReason(k FailureKind) string {
	if k == Killed {
		return "memory"
	}
	return string(k)
}

// Restarts counts the worker's restarts by reason (RestartReasons), those
// with none left out; their sum is StartCount()-1, once it has started.
// Safe to call while the lane drives the worker.
func (w *Worker) Restarts() map[string]int {
	out := map[string]int{}
	for i, r := range RestartReasons {
		if n := w.restarts[i].Load(); n > 0 {
			out[r] = int(n)
		}
	}
	return out
}

// Start starts the worker process and waits for its hello. A failure is a
// *Failure of kind Setup with the worker's stderr.
func Start(ctx context.Context, cfg Spec) (*Worker, error) {
	w := &Worker{cfg: cfg, enc: wire.NewEncoder(), dec: wire.NewDecoder()}
	if err := w.start(ctx); err != nil {
		return nil, err
	}
	return w, nil
}

// Name implements Adapter.
func (w *Worker) Name() string { return w.cfg.Name }

// Hello implements Adapter: the hello of the latest start.
func (w *Worker) Hello() wire.Hello { return w.hello }

// Stderr returns the tail of what the current (or last) process printed:
// its stderr, and its stdout when that is not the protocol's stream.
func (w *Worker) Stderr() string {
	if w.proc == nil {
		return ""
	}
	return w.proc.output.String()
}

// OnFDs says whether the current process speaks on the
// descriptors the driver offers (protocol 3 or 4) rather than on stdin and
// stdout.
func (w *Worker) OnFDs() bool { return w.proc != nil && w.proc.fds }

// Pid is the current process's id, 0 if none runs; safe to call while the
// lane drives the worker.
func (w *Worker) Pid() int { return int(w.pid.Load()) }

func (w *Worker) start(ctx context.Context) error {
	p, err := startProcess(w.cfg.Command, w.cfg.Dir, w.cfg.Env, w.cfg.Stderr)
	if err != nil {
		return &Failure{Adapter: w.cfg.Name, Kind: Setup, Err: fmt.Errorf("start %q: %w", w.cfg.Command, err)}
	}
	w.proc = p
	w.pid.Store(int64(p.cmd.Process.Pid))
	if w.starts > 0 {
		w.restarts[slices.Index(RestartReasons[:], w.why)].Add(1) // every path that ends a process sets why
	}
	w.starts++
	w.cpuAtBatch.Store(0)
	timeout := w.cfg.StartTimeout
	if timeout <= 0 {
		timeout = DefaultStartTimeout
	}
	if err := w.readHello(timeout); err != nil {
		p.kill()
		// No process: the next call starts another, rather than write
		// to this dead one and take its broken pipe for the case's crash.
		w.proc, w.why = nil, restartReason(Setup)
		w.pid.Store(0)
		return &Failure{Adapter: w.cfg.Name, Kind: Setup, Err: err, Stderr: p.output.String()}
	}
	return nil
}

func (w *Worker) readHello(timeout time.Duration) error {
	body, err := w.proc.hello(time.Now().Add(timeout))
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			w.proc.exited(time.Second)
			how, _ := w.proc.describeExit()
			if err == io.EOF {
				return fmt.Errorf("worker ended before its hello (%s)", how)
			}
			return fmt.Errorf("worker ended before its hello (%s): %w", how, err)
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("no hello within %v: %w", timeout, err)
		}
		return fmt.Errorf("hello: %w", err)
	}
	if err := w.dec.Decode(body, &w.msg); err != nil {
		return fmt.Errorf("hello: %w", err)
	}
	if w.msg.Type != wire.TypeHello {
		return fmt.Errorf("first frame is %q, want hello", w.msg.Type)
	}
	if err := checkProtocol(w.msg.Hello.Protocol, w.proc.fds); err != nil {
		return err
	}
	w.hello = w.msg.Hello
	return nil
}

func (w *Worker) read(deadline time.Time) ([]byte, error) {
	w.proc.resp.SetReadDeadline(deadline)
	return w.proc.frames.Next()
}

// ensure restarts the process if the last call failed.
func (w *Worker) ensure(ctx context.Context) error {
	if w.proc != nil {
		return nil
	}
	return w.start(ctx)
}

// roundTrip sends one request frame (in parts, see writeParts) and reads
// the response into w.msg, checking its type and id. Any error is a
// *Failure, and the process is gone.
func (w *Worker) roundTrip(ctx context.Context, want string, n int, frame ...[]byte) error {
	deadline := time.Now().Add(w.cfg.deadline(n))
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	// A cancelled ctx (Ctrl-C) abandons the round trip at once: the deadlines
	// move to now, and fail reports ctx's error rather than a hang.
	p := w.proc
	stop := context.AfterFunc(ctx, func() {
		p.resp.SetReadDeadline(time.Now())
		p.req.SetWriteDeadline(time.Now())
	})
	defer stop()
	w.proc.req.SetWriteDeadline(deadline)
	if err := writeParts(w.proc.req, frame...); err != nil {
		return w.fail(ctx, err)
	}
	body, err := w.read(deadline)
	if err != nil {
		return w.fail(ctx, err)
	}
	if err := w.dec.Decode(body, &w.msg); err != nil {
		return w.fail(ctx, protocolError{w.proc.breach(err, body)})
	}
	switch {
	case w.msg.Type == wire.TypeError:
		return w.fail(ctx, protocolError{fmt.Errorf("worker answered error: %s", w.msg.Text)})
	case w.msg.Type != want:
		return w.fail(ctx, protocolError{fmt.Errorf("answer type %q, want %q", w.msg.Type, want)})
	case w.msg.ID != w.id:
		return w.fail(ctx, protocolError{fmt.Errorf("answer id %d, want %d", w.msg.ID, w.id)})
	}
	return nil
}

type protocolError struct{ error }

// checkProtocol checks a hello's version against the channel it came on.
func checkProtocol(v int, fds bool) error {
	switch {
	case wire.SupportedProtocol(v, fds):
		return nil
	case fds:
		return fmt.Errorf("worker speaks protocol %d on descriptor %d, driver %d or %d there", v, wire.ResponseFD, wire.OldestFDProtocol, wire.FDProtocolVersion)
	}
	return fmt.Errorf("worker speaks protocol %d on stdout, driver 1 or %d there (%d on the descriptors of %s)",
		v, wire.ProtocolVersion, wire.FDProtocolVersion, wire.FDsEnv)
}

// fail classifies err, ends the process and returns the *Failure, or ctx's
// error when ctx ended the round trip.
func (w *Worker) fail(ctx context.Context, err error) error {
	p := w.proc
	w.proc = nil
	w.pid.Store(0)
	if ctx.Err() != nil {
		p.kill()
		w.why = "stopped"
		return fmt.Errorf("adapter %s: %w", w.cfg.Name, ctx.Err())
	}
	if errors.Is(err, wire.ErrFrameSize) {
		err = p.breach(err, nil)
	}
	f := &Failure{Adapter: w.cfg.Name, Err: err}
	var pe protocolError
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		f.Kind = Hang
		f.Err = errors.New("no answer before the deadline")
		p.kill()
	case errors.As(err, &pe), errors.Is(err, wire.ErrFrameSize):
		f.Kind = Protocol
		p.kill()
	case p.exited(time.Second):
		how, outside := p.describeExit()
		f.Kind, f.Err = Crash, fmt.Errorf("worker %s (%v)", how, err)
		if outside {
			f.Kind = Killed
		}
		p.kill()
	case errors.Is(err, syscall.EPIPE), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		f.Kind = Crash
		p.kill()
	default:
		f.Kind = Protocol
		p.kill()
	}
	f.Stderr = p.output.String()
	w.why = restartReason(f.Kind)
	return f
}

// Run is RunBatch over plain cases.
func (w *Worker) Run(ctx context.Context, cases []any, out []wire.Result) error {
	return w.RunBatch(ctx, &Batch{Cases: cases}, out)
}

// RunBatch implements Adapter. A text worker of protocol 4 gets the
// cases' texts (text.go); any other worker their values.
func (w *Worker) RunBatch(ctx context.Context, b *Batch, out []wire.Result) error {
	if err := w.ensure(ctx); err != nil {
		return err
	}
	if !w.hello.TakesText() {
		encoded, err := b.Encoded()
		if err != nil {
			return fmt.Errorf("adapter %s: encode batch: %w", w.cfg.Name, err)
		}
		if err := w.exchange(ctx, encoded, len(b.Cases), b.DigestOnly); err != nil {
			return err
		}
		copy(out, w.msg.Results)
		return nil
	}
	sp, err := b.spelled()
	if err != nil {
		return fmt.Errorf("adapter %s: spell batch: %w", w.cfg.Name, err)
	}
	if sp.sent == 0 { // nothing to ask: every case is the driver's answer
		sp.Realign(nil, out)
		return nil
	}
	if err := w.exchange(ctx, sp.encoded, sp.sent, b.DigestOnly); err != nil {
		return err
	}
	sp.Realign(w.msg.Results, out)
	return nil
}

// exchange sends a batch of n cases, encoded (a msgpack array), and checks
// its results, which it leaves in w.msg.
func (w *Worker) exchange(ctx context.Context, encoded []byte, n int, digestOnly bool) error {
	w.id++
	head, err := w.enc.BatchHead(w.id, encoded, digestOnly)
	if err != nil {
		return fmt.Errorf("adapter %s: encode batch: %w", w.cfg.Name, err)
	}
	if err := w.roundTrip(ctx, wire.TypeResults, n, head, encoded); err != nil {
		return err
	}
	if len(w.msg.Results) != n {
		return w.fail(ctx, protocolError{fmt.Errorf("%d results for %d cases", len(w.msg.Results), n)})
	}
	if !digestOnly {
		for i, r := range w.msg.Results {
			if r.Error == "" && r.Inexpressible == "" && r.Canonical == nil {
				return w.fail(ctx, protocolError{fmt.Errorf("result %d has no canonical text (the batch was not digest_only)", i)})
			}
		}
	}
	w.batchCPU.Add(w.msg.BatchCPUNS)
	w.cpuAtBatch.Store(int64(procstat.ProcessCPU(w.Pid())))
	return nil
}

// Bench implements Adapter with the protocol's bench request; a text
// worker of protocol 4 gets the texts of the cases that have one.
func (w *Worker) Bench(ctx context.Context, cases []any, rounds int) (wire.BenchTimes, error) {
	if err := w.ensure(ctx); err != nil {
		return wire.BenchTimes{}, err
	}
	if w.hello.TakesText() {
		cases = spellBench(cases)
	}
	w.id++
	frame, err := w.enc.Bench(w.id, cases, rounds)
	if err != nil {
		return wire.BenchTimes{}, fmt.Errorf("adapter %s: encode bench: %w", w.cfg.Name, err)
	}
	// The worker runs two timed loops, the second one decoding too.
	if err := w.roundTrip(ctx, wire.TypeBench, 3*len(cases)*rounds, frame); err != nil {
		return wire.BenchTimes{}, err
	}
	return w.msg.Bench, nil
}

// Close implements Adapter: it stops the process by escalation.
func (w *Worker) Close() error {
	if w.proc != nil {
		w.proc.stop()
		w.proc, w.why = nil, "stopped"
		w.pid.Store(0)
	}
	return nil
}
