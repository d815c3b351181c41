package conform

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// proc is a worker process driven frame by frame, for the checks that need
// the raw pipes: raw cases, malformed frames, the end of input. stop must be
// called once start succeeded; it always reaps the process and kills what is
// left of its group, so no check leaves an orphan.
type proc struct {
	*adapter.Process
	enc    *wire.Encoder
	dec    *wire.Decoder
	msg    wire.Message
	hello  wire.Hello
	timing timing
	id     uint64 // the last batch id sent
}

// startProc starts a worker and reads its hello.
func startProc(cfg adapter.Spec, t timing) (*proc, error) {
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

// spawn starts the process without reading its hello.
func spawn(cfg adapter.Spec, t timing) (*proc, error) {
	ap, err := adapter.StartProcess(cfg)
	if err != nil {
		return nil, fmt.Errorf("start %q: %w", cfg.Command, err)
	}
	return &proc{Process: ap, enc: wire.NewEncoder(), dec: wire.NewDecoder(), timing: t}, nil
}

// readHello reads the hello on whichever channel the worker speaks (the
// driver's descriptors or stdout); the checks then speak there.
func (p *proc) readHello() error {
	body, err := p.Hello(time.Now().Add(p.timing.start))
	if err == nil {
		err = p.dec.Decode(body, &p.msg)
	}
	if err != nil {
		return fmt.Errorf("hello: %w", p.readError(err, p.timing.start))
	}
	switch {
	case p.msg.Type != wire.TypeHello:
		return fmt.Errorf("first frame is %q, want hello", p.msg.Type)
	case p.CheckProtocol(p.msg.Hello.Protocol) != nil:
		return fmt.Errorf("hello: %w", p.CheckProtocol(p.msg.Hello.Protocol))
	}
	p.hello = p.msg.Hello
	return nil
}

// write sends bytes to the worker's request stream within timeout.
func (p *proc) write(b []byte, timeout time.Duration) error {
	p.Requests().SetWriteDeadline(time.Now().Add(timeout))
	if _, err := p.Requests().Write(b); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("worker did not read its input within %v: %w", timeout, &hangError{timeout})
		}
		if p.Exited(time.Second) {
			return &endError{p.Describe() + " while reading a request"}
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
	p.Responses().SetReadDeadline(time.Now().Add(timeout))
	body, err := p.Frames().Next()
	if err != nil {
		return nil, p.readError(err, timeout)
	}
	if err := p.dec.Decode(body, &p.msg); err != nil {
		return nil, fmt.Errorf("answer is not a valid frame: %w", p.Breach(err, body))
	}
	return &p.msg, nil
}

// readError is the error of a read that found no frame within timeout.
func (p *proc) readError(err error, timeout time.Duration) error {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return &hangError{timeout}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		how := "closed its output"
		if p.Exited(time.Second) {
			how = p.Describe()
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			how += " in the middle of a frame"
		}
		return &endError{how}
	case errors.Is(err, wire.ErrFrameSize):
		return fmt.Errorf("answer: %w", p.Breach(err, nil))
	}
	return fmt.Errorf("answer: %w", err)
}

// batch sends raw cases as one batch and returns the results. The results
// are valid until the next call. A text worker of protocol 4 gets their
// texts instead, as a driver sends them (textBatch).
func (p *proc) batch(cases [][]byte) ([]wire.Result, error) {
	if p.hello.TakesText() {
		return p.textBatch(cases)
	}
	p.id++
	frame, err := p.enc.BatchRaw(p.id, cases)
	if err != nil {
		return nil, fmt.Errorf("encode batch: %w", err)
	}
	return p.exchange(frame, len(cases))
}

// textBatch is batch for a text worker of protocol 4: each raw case is
// read as the worker's driver would hold it and spelled (adapter.Spell);
// one that JSON text cannot spell is answered inexpressible, as the driver
// answers it, and never sent.
func (p *proc) textBatch(cases [][]byte) ([]wire.Result, error) {
	values := make([]any, len(cases))
	for i, c := range cases {
		v, err := wire.DecodeValue(c)
		if err != nil {
			return nil, fmt.Errorf("case %d: %w", i, err)
		}
		values[i] = v
	}
	sp, err := adapter.Spell(values)
	if err != nil {
		return nil, fmt.Errorf("spell batch: %w", err)
	}
	out := make([]wire.Result, len(cases))
	if sp.Sent() == 0 {
		sp.Realign(nil, out)
		return out, nil
	}
	p.id++
	head, err := p.enc.BatchHead(p.id, sp.Encoded(), false)
	if err != nil {
		return nil, fmt.Errorf("encode batch: %w", err)
	}
	results, err := p.exchange(append(bytes.Clone(head), sp.Encoded()...), sp.Sent())
	if err != nil {
		return nil, err
	}
	sp.Realign(results, out)
	return out, nil
}

// exchange writes a batch's frame of n cases and reads its results.
func (p *proc) exchange(frame []byte, n int) ([]wire.Result, error) {
	timeout := p.timing.batch + time.Duration(n)*p.timing.perCase
	if err := p.write(frame, timeout); err != nil {
		return nil, err
	}
	m, err := p.read(timeout)
	if err != nil {
		return nil, err
	}
	return m.Results, p.checkResults(m, n)
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

// stop ends the worker (its input closed, then SIGINT, then SIGKILL) and reaps
// it; it is safe to call more than once.
func (p *proc) stop() { p.Stop() }
