// Package kit is the Go worker kit of difffuzz: it owns the worker's side of
// the adapter protocol (docs/adapter-protocol.md), so that a worker for any
// Go implementation of canonical JSON is a few lines:
//
//	func main() {
//		kit.Main(kit.Options{Name: "my-sdk", Version: "1.2.0"}, kit.Native(kit.Float64),
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
// for a panic, where in the implementation (its error type and frames,
// protocol 4), so that the driver buckets it by type and place rather than
// by its message.
//
// The model types the function's argument: a Model[T] hands it a T. Exact
// and Native are Model[any]; Text is a Model[[]byte], so that a worker of an
// SDK that parses JSON text itself is handed the text as it is:
//
//	kit.Main(opts, kit.Text, func(dst, text []byte) ([]byte, error) {
//		return mysdk.AppendCanonicalText(dst, text)
//	})
//
// An SDK that signs returns Signed instead of the text: the text and its
// own digest of it, which the kit sends instead of hashing the text, so
// that the driver checks the SDK's hashing too:
//
//	kit.Main(opts, kit.Exact, func(dst []byte, v any) (kit.Signed, error) {
//		text, digest, err := mysdk.Sign(v)
//		return kit.Signed{Canonical: append(dst, text...), Digest: digest}, err
//	})
//
// Main and Serve are generic in the model's type and in what the function
// returns (Output: []byte or Signed), so there is one of each for every kind
// of SDK, the compiler infers which from the model and the function, and a
// function that takes another type than its model's, or returns anything
// else, does not compile. It is the shape of the other kits (Rust's Output
// trait, a return-type variant in Python and TypeScript), and the digest
// comes from the same call as the text, as it does in an SDK's Sign, rather
// than from a second function the kit would have to keep in step with the
// first.
//
// The kit is a module of its own (github.com/difffuzz/difffuzz/kits/go),
// so a worker's go.sum holds the kit's two dependencies (msgpack and
// BLAKE3) and nothing of the driver's; the driver imports the kit, never
// the reverse. Its API is a worker's alone. The driver's in-process Go
// adapter answers cases as a worker does, without frames; what it shares
// with the kit for that, one case's answer (wire.Answer, with its
// wire.Scratch), is in package wire, the protocol's package, which the
// driver imports to speak the protocol anyway: the kit calls the same
// function, so the in-process and out-of-process paths cannot answer
// differently, and no export of this package exists for the driver's sake.
// (Go's testing package keeps its go-test-only hooks out of its API the
// same way, behind testing/internal/testdeps; a module cannot share an
// internal package with another module, so the shared part lives in the
// package both legitimately import.)
package kit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Func is an implementation under test in a model of values (Exact or
// Native, a Model[any]): it appends the canonical text of v to dst and
// returns the extended slice (O is []byte), or that text with the SDK's own
// digest of it (O is Signed), or fails. A SpecError (or any error carrying a
// spec code, Coder) is answered as its code; any other error, and any panic,
// is an "internal" result: a finding against the implementation. Main and
// Serve take the function of any model, func(dst []byte, v T) (O, error)
// for a Model[T]: for Text, func(dst, text []byte) (O, error).
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

// Options describe the worker in its hello; its value model is Main's (or
// Serve's) argument, which types the implementation's.
type Options struct {
	Name     string // the implementation's package name; required
	Version  string // its version; required
	Language string // "go" if empty
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

// Main serves the protocol on the channel the driver offers (OpenChannel),
// else on stdin and stdout, and exits with Serve's status. m is the value
// model, which types fn's argument: Exact or Native hand it an any, Text
// a []byte.
func Main[T any, O Output](opts Options, m Model[T], fn func(dst []byte, v T) (O, error)) {
	ch, err := OpenChannel()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", opts.Name, err)
		os.Exit(1)
	}
	os.Exit(Serve(ch, os.Stderr, opts, m, fn))
}

// Serve runs the worker loop on ch until its input ends, and returns the
// exit status the protocol asks for: 0 at a clean end of input, 2 when the
// stream cannot be resynchronised (a frame length out of range, input
// ending inside a frame), 1 when the output fails. The hello says ch's
// Protocol (wire.ProtocolVersion if 0: stdin and stdout). Messages for
// people go to logw.
func Serve[T any, O Output](ch Channel, logw io.Writer, opts Options, m Model[T], fn func(dst []byte, v T) (O, error)) int {
	s := newServer(ch, opts, m, fn)
	name := s.hello.Name
	if err := s.send(s.enc.Hello(s.hello)); err != nil {
		fmt.Fprintf(logw, "%s: hello: %v\n", name, err)
		return 1
	}
	frames := wire.NewFrameReader(bufio.NewReaderSize(ch.In, 1<<16))
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

// hello is the hello of a worker with these options and model at protocol
// version (wire.ProtocolVersion if 0).
func hello(o Options, model string, reasons []string, protocol int) wire.Hello {
	h := wire.Hello{Protocol: protocol, Language: o.Language, Name: o.Name, Version: o.Version,
		Model: model, Inexpressible: reasons}
	if h.Language == "" {
		h.Language = "go"
	}
	if h.Protocol == 0 {
		h.Protocol = wire.ProtocolVersion
	}
	return h
}

// call is fn behind m as wire.Answer calls it: the case converted into
// the model, then fn, its text split from the SDK's own digest when it
// returns Signed. Its frame is the kit's, where a panic's frames stop.
func call[T any, O Output](m Model[T], fn func(dst []byte, v T) (O, error)) wire.Call {
	return func(dst []byte, v any) (text, digest []byte, err error) {
		nv, err := m.Convert(v)
		if err != nil {
			return nil, nil, err
		}
		out, err := fn(dst, nv)
		if err != nil {
			return nil, nil, err
		}
		text, own, signed := split(out)
		if signed && own == nil {
			own = []byte{} // a digest of 0 bytes, which Answer refuses
		}
		return text, own, nil
	}
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
