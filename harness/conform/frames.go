package conform

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"difffuzz/harness/wire"
)

// badBody is a frame body the worker must answer with an error frame, and
// then go on serving.
type badBody struct {
	name string
	what string // for messages: "after <what>"
	body string
}

var badBodies = []badBody{
	{"not-msgpack", "a body that is not msgpack (0xc1)", "\xc1"},
	{"not-a-map", "a body that is an array, not a map", "\x91\x01"},
	{"no-type", "a map without type", "\x82\xa2id\x07\xa5cases\x90"},
	{"unknown-type", `a request of type "frobnicate"`, "\x83\xa4type\xaafrobnicate\xa2id\x07\xa5cases\x90"},
	{"cases-not-array", "a batch whose cases is the integer 5", "\x83\xa4type\xa5batch\xa2id\x07\xa5cases\x05"},
}

// badLength is a frame length the stream cannot recover from: the worker
// answers an error frame or exits with status 2 (docs/adapter-protocol.md,
// Frames), and must neither hang nor die by a signal.
type badLength struct {
	name   string
	what   string
	length uint32
}

var badLengths = []badLength{
	{"zero-length", "a frame length of 0", 0},
	{"over-cap", "a frame length of 64 MiB + 1", wire.MaxFrame + 1},
}

// truncation is input that ends inside a frame: the worker must exit with
// status 2, an error frame first or not (docs/adapter-protocol.md, Frames).
type truncation struct {
	name  string
	what  string
	input string
}

var truncations = []truncation{
	{"truncated-header", "input that ends inside a frame header", "\x00\x00"},
	{"truncated-body", "input that ends inside a frame body", "\x00\x00\x00\x10\x83\xa4type"},
}

// goodCase is the batch a worker must still answer after a bad body.
var (
	goodCase = env("\x82\xa1b\x01\xa1a\x02")
	goodWant = wantText(`{"args":{"a":2,"b":1},"tool_name":"t"}`)
)

// fresh starts a worker of its own for one check.
func (r *runner) fresh() (*proc, error) {
	p, err := startProc(r.cfg.Worker, r.timing)
	if err != nil {
		return nil, fmt.Errorf("start a fresh worker: %w", err)
	}
	return p, nil
}

// badBodyCheck sends one bad body on a fresh worker, wants an error frame,
// then wants a good batch answered.
func (r *runner) badBodyCheck(b badBody) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		p, err := r.fresh()
		if err != nil {
			return "", err
		}
		defer p.stop()
		if err := r.expectErrorFrame(p, b); err != nil {
			r.stderrTail("malformed/"+b.name, p.stderr.String())
			return "", err
		}
		results, err := p.batch([][]byte{[]byte(goodCase)})
		if err == nil {
			if m := mismatch(results[0], goodWant); m != "" {
				err = errors.New(m)
			}
		}
		if err != nil {
			r.stderrTail("malformed/"+b.name, p.stderr.String())
			return "", fmt.Errorf("the good batch after the error frame: %w", err)
		}
		return "", nil
	}
}

func (r *runner) expectErrorFrame(p *proc, b badBody) error {
	if err := p.write(wire.Raw([]byte(b.body)), r.timing.batch); err != nil {
		return fmt.Errorf("sending %s: %w", b.what, err)
	}
	m, err := p.read(r.timing.batch)
	if err != nil {
		return fmt.Errorf("after %s, want an error frame: %w", b.what, err)
	}
	if m.Type != wire.TypeError {
		return fmt.Errorf("after %s: answered %q, want an error frame", b.what, m.Type)
	}
	return nil
}

// badLengthCheck sends one bad frame length on a fresh worker. It passes
// when the worker exits with status 2 (an error frame first or not), or
// answers an error frame and goes on; it fails on a hang, a death by signal,
// any other answer or exit status.
func (r *runner) badLengthCheck(b badLength) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		p, err := r.fresh()
		if err != nil {
			return "", err
		}
		defer p.stop()
		note, err := r.afterBadLength(p, b)
		if err != nil {
			r.stderrTail("malformed/"+b.name, p.stderr.String())
			return "", fmt.Errorf("after %s: %w", b.what, err)
		}
		return note, nil
	}
}

func (r *runner) afterBadLength(p *proc, b badLength) (string, error) {
	if err := p.write(binary.BigEndian.AppendUint32(nil, b.length), r.timing.batch); err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	m, err := p.read(r.timing.batch)
	answered := err == nil
	switch {
	case answered && m.Type != wire.TypeError:
		return "", fmt.Errorf("answered %q, want an error frame or exit status 2", m.Type)
	case err != nil && !errors.Is(err, io.EOF):
		return "", fmt.Errorf("%w; want an error frame or exit status 2", err)
	}
	wait := exitGrace
	if answered {
		wait = time.Second // it may exit now, or go on
	}
	if p.exited(wait) {
		return exitNote(p, answered, 2)
	}
	if !answered {
		return "", fmt.Errorf("closed its stdout but still runs %v later", wait)
	}
	p.stdin.Close()
	if !p.exited(exitGrace) {
		return "", fmt.Errorf("answered an error frame, then still ran %v after its stdin closed", exitGrace)
	}
	if status, sig := p.exitStatus(); status < 0 {
		return "", fmt.Errorf("answered an error frame, then was killed by signal %v when its stdin closed", sig)
	}
	return "error frame, then went on", nil
}

// exitNote judges a worker that exited on its own: status want, not a signal.
func exitNote(p *proc, answered bool, want int) (string, error) {
	how := "without an error frame"
	if answered {
		how = "after an error frame"
	}
	status, _ := p.exitStatus()
	if status != want {
		return "", fmt.Errorf("worker %s %s, want status %d", p.describeExit(), how, want)
	}
	return fmt.Sprintf("exit status %d %s", want, how), nil
}

// eof checks that a worker ends with status 0, soon, when its stdin closes
// after a batch.
func (r *runner) eof(ctx context.Context) (string, error) {
	p, err := r.fresh()
	if err != nil {
		return "", err
	}
	defer p.stop()
	if _, err := p.batch([][]byte{[]byte(goodCase)}); err != nil {
		return "", fmt.Errorf("a batch before closing stdin: %w", err)
	}
	start := time.Now()
	p.stdin.Close()
	if !p.exited(exitGrace) {
		return "", fmt.Errorf("worker still runs %v after its stdin closed", exitGrace)
	}
	if status, _ := p.exitStatus(); status != 0 {
		r.stderrTail("eof", p.stderr.String())
		return "", fmt.Errorf("worker %s after its stdin closed, want status 0", p.describeExit())
	}
	return fmt.Sprintf("exit status 0 after %d ms", time.Since(start).Milliseconds()), nil
}

// truncationCheck sends the start of a frame on a fresh worker, closes its
// stdin, and wants exit status 2 soon after.
func (r *runner) truncationCheck(t truncation) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		p, err := r.fresh()
		if err != nil {
			return "", err
		}
		defer p.stop()
		note, err := r.afterTruncation(p, t)
		if err != nil {
			r.stderrTail("malformed/"+t.name, p.stderr.String())
			return "", fmt.Errorf("after %s: %w", t.what, err)
		}
		return note, nil
	}
}

func (r *runner) afterTruncation(p *proc, t truncation) (string, error) {
	if err := p.write([]byte(t.input), r.timing.batch); err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	p.stdin.Close()
	m, err := p.read(r.timing.batch)
	answered := err == nil
	switch {
	case answered && m.Type != wire.TypeError:
		return "", fmt.Errorf("answered %q, want an error frame or nothing, then exit status 2", m.Type)
	case err != nil && !errors.Is(err, io.EOF):
		return "", fmt.Errorf("%w; want exit status 2", err)
	}
	if !p.exited(exitGrace) {
		return "", fmt.Errorf("worker still runs %v after its stdin closed", exitGrace)
	}
	return exitNote(p, answered, 2)
}
