package conform

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// badBody is a frame body the worker must answer with an error frame, and
// then go on serving.
type badBody struct {
	name string
	what string // for messages: "after <what>"
	body string
	id   uint64 // the body's id: the error frame's is 0 or this (the protocol asks only that an unknown id be 0)
}

var badBodies = []badBody{
	{"not-msgpack", "a body that is not msgpack (0xc1)", "\xc1", 0},
	{"not-a-map", "a body that is an array, not a map", "\x91\x01", 0},
	{"no-type", "a map without type", "\x82\xa2id\x07\xa5cases\x90", 7},
	{"unknown-type", `a request of type "frobnicate"`, "\x83\xa4type\xaafrobnicate\xa2id\x07\xa5cases\x90", 7},
	{"cases-not-array", "a batch whose cases is the integer 5", "\x83\xa4type\xa5batch\xa2id\x07\xa5cases\x05", 7},
}

// fatalInput is input the stream cannot recover from: a frame length of 0
// or over the cap, or an end of input inside a frame. The worker writes an
// error frame (best effort) and exits with status 2 (docs/adapter-protocol.md,
// Frames); it must neither hang nor die by a signal. A worker that answers
// a bad length with an error frame and goes on passes too.
type fatalInput struct {
	name  string
	what  string // for messages: "after <what>"
	input string
	eof   bool // close the request stream after the input
}

var fatalInputs = []fatalInput{
	{"zero-length", "a frame length of 0", "\x00\x00\x00\x00", false},
	{"over-cap", "a frame length of 64 MiB + 1", string(binary.BigEndian.AppendUint32(nil, wire.MaxFrame+1)), false},
	{"truncated-header", "input that ends inside a frame header", "\x00\x00", true},
	{"truncated-body", "input that ends inside a frame body", "\x00\x00\x00\x10\x83\xa4type", true},
}

// goodCase is a case a worker must answer after a bad body, and goodWant
// its answer.
var (
	goodCase = env("\x82\xa1b\x01\xa1a\x02")
	goodWant = wantText(`{"args":{"a":2,"b":1},"tool_name":"t"}`)
)

// withFresh runs fn on a worker of its own, stopped afterwards. On a
// failure it adds the worker's stderr to the check's details.
func (r *runner) withFresh(check string, fn func(p *proc) (string, error)) (string, error) {
	p, err := startProc(r.cfg.Worker, r.timing)
	if err != nil {
		return "", fmt.Errorf("start a fresh worker: %w", err)
	}
	defer p.stop()
	note, err := fn(p)
	if err != nil {
		r.stderrTail(check, p.Stderr())
	}
	return note, err
}

// badBodyCheck sends one bad body, wants an error frame, then wants a good
// batch answered.
func (r *runner) badBodyCheck(b badBody) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		return r.withFresh("malformed/"+b.name, func(p *proc) (string, error) {
			if err := r.expectErrorFrame(p, b); err != nil {
				return "", err
			}
			results, err := p.batch([][]byte{[]byte(goodCase)})
			if err == nil {
				if m := mismatch(results[0], goodWant); m != "" {
					err = errors.New(m)
				}
			}
			if err != nil {
				return "", fmt.Errorf("the good batch after the error frame: %w", err)
			}
			return "", nil
		})
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
	if m.ID != 0 && m.ID != b.id {
		want := "0"
		if b.id != 0 {
			want = fmt.Sprintf("%d or 0", b.id)
		}
		return fmt.Errorf("after %s: an error frame with id %d, want %s", b.what, m.ID, want)
	}
	return nil
}

// fatalInputCheck sends one fatal input and judges how the worker ends.
func (r *runner) fatalInputCheck(f fatalInput) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		return r.withFresh("malformed/"+f.name, func(p *proc) (string, error) {
			note, err := r.afterFatal(p, f)
			if err != nil {
				return "", fmt.Errorf("after %s: %w", f.what, err)
			}
			return note, nil
		})
	}
}

func (r *runner) afterFatal(p *proc, f fatalInput) (string, error) {
	if err := p.write([]byte(f.input), r.timing.batch); err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	if f.eof {
		p.Requests().Close()
	}
	m, err := p.read(r.timing.batch)
	answered := err == nil
	switch {
	case answered && m.Type != wire.TypeError:
		return "", fmt.Errorf("answered %q, want an error frame or nothing, then exit status 2", m.Type)
	case answered && m.ID != 0:
		return "", fmt.Errorf("an error frame with id %d, want 0 (no request was read)", m.ID)
	case err != nil && !errors.Is(err, io.EOF):
		return "", fmt.Errorf("%w; want an error frame or exit status 2", err)
	}
	wait := exitGrace
	if answered && !f.eof {
		wait = time.Second // it may exit now, or go on
	}
	switch {
	case p.Exited(wait):
		return exitNote(p, answered, 2)
	case f.eof:
		return "", fmt.Errorf("worker still runs %v after its input closed", wait)
	case !answered:
		return "", fmt.Errorf("worker closed its output but still runs %v later", wait)
	}
	return wentOn(p)
}

// wentOn judges a worker that answered a bad length with an error frame and
// kept running: it must still end cleanly when its input closes.
func wentOn(p *proc) (string, error) {
	p.Requests().Close()
	if !p.Exited(exitGrace) {
		return "", fmt.Errorf("worker answered an error frame, then still ran %v after its input closed", exitGrace)
	}
	if status, sig := p.ExitStatus(); status < 0 {
		return "", fmt.Errorf("worker answered an error frame, then was killed by signal %v when its stdin closed", sig)
	}
	return "error frame, then went on", nil
}

// exitNote judges a worker that exited on its own: status want, not a signal.
func exitNote(p *proc, answered bool, want int) (string, error) {
	how := "without an error frame"
	if answered {
		how = "after an error frame"
	}
	if status, _ := p.ExitStatus(); status != want {
		return "", fmt.Errorf("worker %s %s, want status %d", p.Describe(), how, want)
	}
	return fmt.Sprintf("exit status %d %s", want, how), nil
}

// eof checks that a worker ends with status 0, soon, when its input closes
// after a batch.
func (r *runner) eof(ctx context.Context) (string, error) {
	return r.withFresh("eof", func(p *proc) (string, error) {
		if _, err := p.batch([][]byte{[]byte(goodCase)}); err != nil {
			return "", fmt.Errorf("a batch before closing its input: %w", err)
		}
		start := time.Now()
		p.Requests().Close()
		if !p.Exited(exitGrace) {
			return "", fmt.Errorf("worker still runs %v after its input closed", exitGrace)
		}
		if status, _ := p.ExitStatus(); status != 0 {
			return "", fmt.Errorf("worker %s after its input closed, want status 0", p.Describe())
		}
		return fmt.Sprintf("exit status 0 after %d ms", time.Since(start).Milliseconds()), nil
	})
}
