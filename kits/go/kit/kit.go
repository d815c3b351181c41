// Package kit is the Go worker kit of difffuzz: it owns the worker's side of
// the adapter protocol (docs/adapter-protocol.md), so that a worker for any
// Go implementation of canonical JSON is a few lines:
//
//	func main() {
//		kit.Main(kit.Options{Name: "my-sdk", Version: "1.2.0", Model: kit.Native(kit.Float64)},
//			func(dst []byte, v any) ([]byte, error) {
//				b, err := mysdk.Canonical(v)
//				return append(dst, b...), err
//			})
//	}
//
// The kit reads and checks every frame, decodes the cases, converts each into
// the declared value model (answering "inexpressible" for a case the model
// cannot hold), calls the implementation, hashes its text with BLAKE3, and
// answers batches (digest_only included) and bench requests. No case stops
// the worker: a panic or an error that is not a SpecError (nor carries a
// spec code, Coder) is an "internal" result, which says what failed and,
// for a panic, where in the implementation (its ErrorType and Frames,
// protocol 4: failure.go), so that the driver buckets it by type and place
// rather than by its message.
//
// An SDK that signs returns Signed instead of the text: the text and its
// own digest of it, which the kit sends instead of hashing the text, so
// that the driver checks the SDK's hashing too:
//
//	kit.Main(opts, func(dst []byte, v any) (kit.Signed, error) {
//		text, digest, err := mysdk.Sign(v)
//		return kit.Signed{Canonical: append(dst, text...), Digest: digest}, err
//	})
//
// Main, Serve and Compute are generic in what the function returns
// (Output: []byte or Signed), so there is one of each for both kinds of
// SDK, the compiler infers which from the function, and a function that
// returns anything else does not compile. It is the shape of the other
// kits (Rust's Output trait, a return-type variant in Python and
// TypeScript), and the digest comes from the same call as the text, as it
// does in an SDK's Sign, rather than from a second function the kit would
// have to keep in step with the first.
//
// The same Compute is what the driver's in-process Go adapter runs, so the
// in-process and out-of-process paths cannot answer differently.
package kit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/difffuzz/difffuzz/kits/go/wire"
	"lukechampine.com/blake3"
)

// Func is an implementation under test: it appends the canonical text of v
// to dst and returns the extended slice (O is []byte), or that text with
// the SDK's own digest of it (O is Signed), or fails. A SpecError (or any
// error carrying a spec code, Coder) is answered as its code; any other
// error, and any panic, is an "internal" result: a finding against the
// implementation. v is a value of the worker's Model.
type Func[O Output] func(dst []byte, v any) (O, error)

// Output is what a Func returns: its canonical text alone, which the kit
// hashes with BLAKE3, or Signed.
type Output interface{ []byte | Signed }

// Signed is the canonical text of a signing SDK with its own digest of it,
// as the SDK computes it (BLAKE3-256, 32 bytes). The kit sends that digest
// instead of hashing the text itself, so the driver checks the SDK's own
// hashing: a digest that is not BLAKE3 of the text is a "digest" finding.
// A digest that is not 32 bytes long is an "internal" result.
type Signed struct {
	Canonical []byte // appended to the Func's dst, as a []byte result is
	Digest    []byte
}

// Options describe the worker in its hello.
type Options struct {
	Name     string // the implementation's package name; required
	Version  string // its version; required
	Language string // "go" if empty
	Model    Model  // Exact if nil
	// Protocol is the hello's version: wire.ProtocolVersion if 0.
	// Main sets it to its channel's (see OpenChannel).
	Protocol int
}

// SpecError is a Func's answer that the spec rejects its case: Code is one
// of the spec's error codes (docs/adapter-protocol.md, "results"), such as
// "duplicate_key". The same name in every kit. An error of the SDK's own
// that has an ErrorCode method (Coder) needs no SpecError; the kit finds
// either anywhere in an error's chain. A code that is not the spec's is
// answered as an internal result, not as that code.
type SpecError struct {
	Code    string
	Message string
}

func (e *SpecError) Error() string {
	if e.Message == "" {
		return e.Code
	}
	return e.Code + ": " + e.Message
}

// ErrorCode is e's Code: a SpecError is a Coder.
func (e *SpecError) ErrorCode() string { return e.Code }

// Coder is an error that carries one of the spec's error codes, such as
// "duplicate_key": SpecError, or an SDK's own error type (canonjson.Error).
type Coder interface {
	error
	ErrorCode() string
}

// Main serves the protocol on the channel the driver offers (OpenChannel),
// else on stdin and stdout, and exits with Serve's status.
func Main[O Output](opts Options, fn Func[O]) {
	ch, err := OpenChannel()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", opts.Name, err)
		os.Exit(1)
	}
	opts.Protocol = ch.Protocol
	os.Exit(Serve(ch.In, ch.Out, os.Stderr, opts, fn))
}

// Serve runs the worker loop until r ends, and returns the exit status the
// protocol asks for: 0 at a clean end of input, 2 when the stream cannot be
// resynchronised (a frame length out of range, input ending inside a frame),
// 1 when w fails. Messages for people go to logw.
func Serve[O Output](r io.Reader, w io.Writer, logw io.Writer, opts Options, fn Func[O]) int {
	s := newServer(w, opts, fn)
	name := s.hello.Name
	if err := s.send(s.enc.Hello(s.hello)); err != nil {
		fmt.Fprintf(logw, "%s: hello: %v\n", name, err)
		return 1
	}
	frames := wire.NewFrameReader(bufio.NewReaderSize(r, 1<<16))
	for {
		body, err := frames.Next()
		switch {
		case err == io.EOF:
			return 0
		case errors.Is(err, wire.ErrFrameSize), errors.Is(err, io.ErrUnexpectedEOF):
			s.send(s.enc.Error(0, err.Error())) // best effort: the stream is lost
			return 2
		case err != nil:
			fmt.Fprintf(logw, "%s: read: %v\n", name, err)
			return 1
		}
		if err := s.handle(body); err != nil {
			fmt.Fprintf(logw, "%s: write: %v\n", name, err)
			return 1
		}
	}
}

// Hello is the hello a worker with these options sends.
func (o Options) Hello() wire.Hello {
	m := o.model()
	h := wire.Hello{Protocol: o.Protocol, Language: o.Language, Name: o.Name, Version: o.Version,
		Model: m.Name(), Inexpressible: m.Reasons()}
	if h.Language == "" {
		h.Language = "go"
	}
	if h.Protocol == 0 {
		h.Protocol = wire.ProtocolVersion
	}
	return h
}

func (o Options) model() Model {
	if o.Model == nil {
		return Exact
	}
	return o.Model
}

// Compute is one case through fn, as a worker answers it: the model's
// conversion, then fn, then the digest (the kit's, or the SDK's own when fn
// returns Signed). With digestOnly the text is left out of the result. s,
// if not nil, is memory reused between calls.
func Compute[O Output](m Model, fn Func[O], v any, digestOnly bool, s *Scratch) (r wire.Result) {
	defer internalOnPanic(&r)
	nv, reason := m.Convert(v)
	if reason != nil {
		return wire.Result{Inexpressible: reason.Reason, Message: reason.Msg}
	}
	if msg := notText(m, nv); msg != "" {
		return wire.Result{Error: wire.ErrorInternal, Message: msg}
	}
	var dst []byte
	if digestOnly && s != nil { // a text that is sent needs its own memory
		dst = s.text[:0]
	}
	out, err := fn(dst, nv)
	if err != nil {
		return errorResult(err)
	}
	text, own, signed := split(out) // own: the SDK's digest
	if signed && len(own) != wire.DigestSize {
		return wire.Result{Error: wire.ErrorInternal,
			Message: fmt.Sprintf("the SDK's digest is %d bytes long, want %d (BLAKE3-256)", len(own), wire.DigestSize)}
	}
	d := s.digest()
	if signed {
		copy(d, own) // a copy: the result outlives the SDK's buffer
	} else {
		s.sum(d, text)
	}
	if digestOnly {
		if s != nil && cap(text) <= maxScratch {
			s.text = text
		}
		return wire.Result{Digest: d}
	}
	return wire.Result{Canonical: text, Digest: d}
}

// split is a Func's text, and the SDK's digest with signed true when it
// returned Signed.
func split[O Output](out O) (text, digest []byte, signed bool) {
	switch o := any(out).(type) {
	case []byte:
		return o, nil, false
	case Signed:
		return o.Canonical, o.Digest, true
	}
	panic(fmt.Sprintf("kit: Output %T is neither []byte nor Signed", out)) // the constraint rules it out
}

// Scratch is the memory Compute reuses between calls: the text buffer of
// digest-only answers, and a slab the digests are cut from, so that a batch
// costs one allocation for its digests rather than one per case (the
// in-process Go adapter runs on the fuzzing loop's hot path). A digest once
// handed out is never reused. Not safe for concurrent use.
type Scratch struct {
	text    []byte
	digests []byte
	hasher  *blake3.Hasher
}

// serialHashMax is the longest text hashed by writing it a chunk at a time.
// Given more than a chunk (1 KiB) in one Write, blake3 hashes it in
// goroutines, one per subtree, and waits for them: on a busy process that
// costs more than it saves until about 16 KiB (docs/performance.md), and a
// sixth of the generator's texts are over 1 KiB.
const serialHashMax = 16 << 10

// sum writes BLAKE3-256 of text into d, a digest (32 bytes, from digest);
// a nil Scratch hashes as blake3.Sum256 does. Written in place, the sum
// costs no allocation of its own.
func (s *Scratch) sum(d, text []byte) {
	if s == nil || len(text) <= 1024 || len(text) > serialHashMax {
		sum := blake3.Sum256(text)
		copy(d, sum[:])
		return
	}
	if s.hasher == nil {
		s.hasher = blake3.New(32, nil)
	}
	h := s.hasher
	h.Reset()
	for len(text) > 0 {
		n := min(len(text), 1024)
		h.Write(text[:n])
		text = text[n:]
	}
	h.Sum(d[:0])
}

// digest is 32 fresh bytes for one digest; a nil Scratch allocates them.
func (s *Scratch) digest() []byte {
	if s == nil {
		return make([]byte, wire.DigestSize)
	}
	if len(s.digests) < wire.DigestSize {
		s.digests = make([]byte, digestSlab*wire.DigestSize)
	}
	d := s.digests[:wire.DigestSize:wire.DigestSize]
	s.digests = s.digests[wire.DigestSize:]
	return d
}

// digestSlab is how many digests one slab holds: a one-shot batch's worth
// (a fuzzing run's default batch of 2,048 takes eight slabs).
const digestSlab = 256

// maxScratch is the largest text buffer kept for reuse, so that one huge
// case does not pin its memory for the rest of the run.
const maxScratch = 1 << 20
