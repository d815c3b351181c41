package wire

import (
	"fmt"

	"lukechampine.com/blake3"
)

// One case's answer, as a worker of the Go kit sends it and as the driver's
// in-process Go adapter computes it: the same function for both, so that
// the two paths cannot answer differently. It lives here, in the package
// the driver imports to speak the protocol, rather than in the kit, so
// that the kit's API is a worker's alone (see the kit's package doc).

// Coder is an error that carries one of the spec's error codes, such as
// "duplicate_key": the kit's SpecError, or an SDK's own error type with an
// ErrorCode method. Answer finds one anywhere in an error's chain.
type Coder interface {
	error
	ErrorCode() string
}

// Inexpressible is a value model's answer that it cannot hold a case: the
// case never reaches the implementation (docs/adapter-protocol.md, the
// table of reasons).
type Inexpressible struct {
	Reason string // one of the Reason constants
	Msg    string // where, for people
}

func (e *Inexpressible) Error() string { return e.Reason + ": " + e.Msg }

// Call is an implementation as Answer calls it, a case's conversion
// included: it appends the canonical text of v to dst, and returns it with
// the SDK's own digest of it, or a nil digest for Answer to hash the text.
// An error of type *Inexpressible (itself, not wrapped) is the inexpressible
// answer; a Coder anywhere in an error's chain is the spec's code; any
// other error, and any panic, is an internal result.
type Call func(dst []byte, v any) (text, digest []byte, err error)

// Plain is fn, an implementation that returns its text alone, as a Call.
func Plain(fn func(dst []byte, v any) ([]byte, error)) Call {
	return func(dst []byte, v any) ([]byte, []byte, error) {
		text, err := fn(dst, v)
		return text, nil, err
	}
}

// Answer is case v through call, as a worker answers it. With digestOnly
// the text is left out of the result. s, if not nil, is memory reused
// between calls.
func Answer(call Call, v any, digestOnly bool, s *Scratch) (r Result) {
	defer internalOnPanic(&r)
	var dst []byte
	if digestOnly && s != nil { // a text that is sent needs its own memory
		dst = s.text[:0]
	}
	text, own, err := call(dst, v)
	if x, ok := err.(*Inexpressible); ok {
		return Result{Inexpressible: x.Reason, Message: x.Msg}
	}
	if err != nil {
		return errorResult(err)
	}
	if own != nil && len(own) != DigestSize {
		return Result{Error: ErrorInternal,
			Message: fmt.Sprintf("the SDK's digest is %d bytes long, want %d (BLAKE3-256)", len(own), DigestSize)}
	}
	d := s.digest()
	if own != nil {
		copy(d, own) // a copy: the result outlives the SDK's buffer
	} else {
		s.sum(d, text)
	}
	if digestOnly {
		if s != nil && cap(text) <= maxScratch {
			s.text = text
		}
		return Result{Digest: d}
	}
	return Result{Canonical: text, Digest: d}
}

// Scratch is the memory Answer reuses between calls: the text buffer of
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
		return make([]byte, DigestSize)
	}
	if len(s.digests) < DigestSize {
		s.digests = make([]byte, digestSlab*DigestSize)
	}
	d := s.digests[:DigestSize:DigestSize]
	s.digests = s.digests[DigestSize:]
	return d
}

// digestSlab is how many digests one slab holds: a one-shot batch's worth
// (a fuzzing run's default batch of 2,048 takes eight slabs).
const digestSlab = 256

// maxScratch is the largest text buffer kept for reuse, so that one huge
// case does not pin its memory for the rest of the run.
const maxScratch = 1 << 20
