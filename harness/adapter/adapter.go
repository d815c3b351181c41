// Package adapter runs implementations of canonical JSON behind one
// interface: worker processes that speak the adapter protocol, and the Go
// implementation in process.
package adapter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Adapter computes canonical outputs for batches of cases.
type Adapter interface {
	// Name is the adapter's short name in reports ("python", "go", ...).
	Name() string
	// Hello is what the implementation says of itself.
	Hello() wire.Hello
	// RunBatch fills out[i] with the result for b.Cases[i]. A non-nil error
	// is a *Failure, or ctx's error: the batch's results are not valid, and a
	// worker restarts on its next call.
	RunBatch(ctx context.Context, b *Batch, out []wire.Result) error
	// Bench has the implementation time rounds passes over cases itself,
	// by the wall clock and its own CPU clock.
	Bench(ctx context.Context, cases []any, rounds int) (wire.BenchTimes, error)
	// BatchCPU is the CPU time the implementation has spent on the batches
	// it answered so far, by its own clock: decoding, converting,
	// canonicalizing and hashing, not the protocol's framing; 0 if it does
	// not say. The bench tells the implementations' cost inside a run from
	// the harness's with it.
	BatchCPU() time.Duration
	// Close stops the adapter; it is safe to call more than once.
	Close() error
}

// Batch is the cases of one round trip. It is encoded for the wire at most
// once, however many workers it goes to; it is safe for concurrent use.
type Batch struct {
	Cases []any
	// DigestOnly asks for digests without the canonical text; an adapter
	// may still send the text. The fuzzing loop sets it and asks again with
	// text for the cases whose digests differ.
	DigestOnly bool

	once    sync.Once
	encoded []byte
	err     error

	// The cases spelled for text workers (text.go), made at the first
	// such worker's call.
	textOnce sync.Once
	text     *Spelling
	textErr  error
}

// spelled is the cases as text workers of protocol 4 get them.
func (b *Batch) spelled() (*Spelling, error) {
	b.textOnce.Do(func() { b.text, b.textErr = Spell(b.Cases) })
	return b.text, b.textErr
}

// Encoded is the cases' msgpack array (wire.EncodeCases), encoded at the
// first call unless UseEncoding gave it.
func (b *Batch) Encoded() ([]byte, error) {
	b.once.Do(func() { b.encoded, b.err = wire.EncodeCases(b.Cases, nil) })
	return b.encoded, b.err
}

// UseEncoding gives the batch its cases' encoding and the error of making
// it, made by the caller (wire.CaseEncoder) as it made the cases: the
// fuzzing loop encodes each case as it generates it, into the storage of a
// batch it has released, and with the generator's word that its strings
// are UTF-8. It must come before the batch is first sent; Encoded then
// returns what it was given.
func (b *Batch) UseEncoding(encoded []byte, err error) {
	b.once.Do(func() { b.encoded, b.err = encoded, err })
}

// Release gives up the encoding's storage, for another batch's encoding.
// Every round trip of the batch must have ended: a worker's has once its
// answer is read, since a worker answers only once it has read the whole
// frame, and until then the pipe holds the frame's pages, not a copy of
// them (see writeParts). The batch must not be sent again.
func (b *Batch) Release() []byte {
	b.once.Do(func() {}) // a batch released unencoded stays so
	b.textOnce.Do(func() {})
	s := b.encoded
	b.encoded, b.err = nil, errReleased
	b.text, b.textErr = nil, errReleased
	return s[:0]
}

var errReleased = errors.New("batch encoding used after Release")

// FailureKind tells how an adapter failed a batch.
type FailureKind string

// Kinds of Failure. Crash and Hang are findings against the implementation
// when one case reproduces them; Protocol and Killed are not the input's fault.
const (
	Crash    FailureKind = FailureKind(compare.FailCrash) // the process exited or closed its pipes
	Hang     FailureKind = FailureKind(compare.FailHang)  // no answer within the deadline
	Protocol FailureKind = "protocol"                     // an answer that breaks the protocol
	Killed   FailureKind = "killed"                       // SIGKILL from outside (the OOM killer, a person)
	Setup    FailureKind = "setup"                        // the worker would not start or say hello
)

// Failure is an adapter's failure on a batch, with the tail of what the
// worker printed.
type Failure struct {
	Adapter string
	Kind    FailureKind
	Err     error // the driver's description of the failure, one line
	// Stderr is the tail of what the worker printed: its stderr and, when
	// it speaks on the driver's descriptors (protocol 3), its stdout, the
	// two interleaved line by line.
	Stderr string
}

func (f *Failure) Error() string {
	return fmt.Sprintf("adapter %s: %s: %v", f.Adapter, f.Kind, f.Err)
}

func (f *Failure) Unwrap() error { return f.Err }

// WithStderr is the failure and the worker's stderr tail, for a message
// that ends the run.
func (f *Failure) WithStderr() string { return f.Error() + "\n" + f.StderrTail() }

// StderrTail is the last lines the worker printed (see Stderr), indented.
func (f *Failure) StderrTail() string {
	s := strings.TrimRight(f.Stderr, "\n")
	if s == "" {
		return "  (no stderr)"
	}
	lines := strings.Split(s, "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return "  stderr: " + strings.Join(lines, "\n  stderr: ")
}

// AsFailure returns err's *Failure, if any.
func AsFailure(err error) (*Failure, bool) {
	var f *Failure
	ok := errors.As(err, &f)
	return f, ok
}
