// Package wire is the byte level of the adapter protocol (docs/adapter-protocol.md)
// in Go, defined once for both ends: length-prefixed frames, the protocol's
// messages, their error codes, and the lossless msgpack encoding of canonical
// JSON values (in the model of package value). The Go worker kit serves it and
// the driver (harness/adapter, harness/run) speaks it; it imports nothing of
// either, nor of an implementation. It knows nothing of processes or
// deadlines; the driver's package adapter owns those.
package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// ProtocolVersion is the version of docs/adapter-protocol.md a worker
// says on its standard streams; on the driver's descriptors it says
// FDProtocolVersion (channel.go). SupportedProtocol says which versions the
// driver reads.
const ProtocolVersion = 2

// MaxFrame caps a frame body in both directions, so that a worker writing
// garbage cannot make the driver allocate without bound.
const MaxFrame = 64 << 20

// ErrFrameSize reports a frame length of zero or over MaxFrame: the stream
// cannot be resynchronised after it. FrameReader's error is a
// *FrameSizeError, which matches it.
var ErrFrameSize = errors.New("frame length out of range")

// FrameSizeError is a frame length out of range, with the four bytes read
// as one, so that a reader can say what the writer wrote instead of a
// frame (most often text: an implementation printing to the protocol's
// stream).
type FrameSizeError struct {
	Header [4]byte
}

func (e *FrameSizeError) Error() string {
	return fmt.Sprintf("%v: %d bytes", ErrFrameSize, binary.BigEndian.Uint32(e.Header[:]))
}

func (e *FrameSizeError) Is(target error) bool { return target == ErrFrameSize }

// FrameReader reads frames from one stream. The body returned by Next is
// owned by the reader and valid until the next call.
type FrameReader struct {
	r   io.Reader
	hdr [4]byte
	buf []byte
}

// NewFrameReader returns a reader of frames from r. r should be buffered or a
// pipe; FrameReader issues two reads a frame.
func NewFrameReader(r io.Reader) *FrameReader {
	return &FrameReader{r: r}
}

// Next reads one frame. It returns io.EOF only at a clean end between frames;
// a stream that ends inside a frame gives io.ErrUnexpectedEOF.
func (fr *FrameReader) Next() ([]byte, error) {
	if _, err := io.ReadFull(fr.r, fr.hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(fr.hdr[:])
	if n == 0 || n > MaxFrame {
		return nil, &FrameSizeError{Header: fr.hdr}
	}
	buf := fr.buf
	switch {
	case int(n) > keepBuffer:
		buf = make([]byte, n) // a rare giant: not kept, so memory stays flat
	case cap(buf) < int(n):
		fr.buf = make([]byte, n)
		buf = fr.buf
	}
	buf = buf[:n]
	if _, err := io.ReadFull(fr.r, buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("frame body (%d bytes): %w", n, err)
	}
	return buf, nil
}

// keepBuffer is the largest frame buffer a reader or encoder keeps for
// reuse; larger ones (a case with a 100,000-character string) are dropped
// after use, so that a long run's memory does not ratchet up to its largest
// frame in every worker.
const keepBuffer = 1 << 20
