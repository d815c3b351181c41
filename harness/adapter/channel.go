package adapter

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// A worker's channel: the driver offers every worker two descriptors of
// their own (wire.FDsEnv), and a worker that takes them says hello there, in
// protocol version 3; one that does not, a worker of version 1 or 2, says
// hello on stdout. Until the hello, stdout is sniffed: the first bytes that
// make a whole frame there make it the protocol's stream; anything else on
// it is the worker's log, drained into the tail beside stderr, so that what
// an implementation prints never reaches the frames.

// Roles of a worker's stdout.
const (
	roleSniff    int32 = iota // until the hello
	roleLog                   // printed text: drained into the tail
	roleProtocol              // the protocol's stream: the sniffer has let go of it
)

// stdoutRole is what the worker's stdout is, and the hand-off between the
// stdout reader (readStdout) and hello. It is set once.
type stdoutRole struct {
	r       atomic.Int32
	once    sync.Once
	decided chan struct{} // closed when r is set
	sniffed chan sniffed  // the reader's chunks, while sniffing
	ack     chan struct{} // hello's "go on reading" for a chunk that decided nothing
}

// sniffed is one read of stdout: its bytes, or how it ended.
type sniffed struct {
	b   []byte
	err error
}

func newStdoutRole() stdoutRole {
	return stdoutRole{decided: make(chan struct{}), sniffed: make(chan sniffed), ack: make(chan struct{}, 1)}
}

func (s *stdoutRole) role() int32 { return s.r.Load() }

// set gives stdout role r and says whether it did: only the first call sets.
func (s *stdoutRole) set(r int32) bool {
	done := false
	s.once.Do(func() {
		s.r.Store(r)
		close(s.decided)
		done = true
	})
	return done
}

// readStdout reads the worker's stdout: while sniffing, it hands each chunk
// to hello and waits for its word before reading on, so that it never reads
// past a version 2 worker's hello; as a log, it drains it into the tail; as
// the protocol's stream, it lets go of it.
func (p *process) readStdout() {
	buf := make([]byte, 32<<10)
	for {
		n, err := p.stdout.Read(buf)
		if p.role() == roleSniff {
			select {
			case p.sniffed <- sniffed{bytes.Clone(buf[:n]), err}:
				if err != nil {
					return
				}
				select {
				case <-p.ack:
					continue
				case <-p.decided:
					if p.role() == roleProtocol {
						return
					}
					continue // hello logged the chunk
				}
			case <-p.decided:
			}
		}
		if n > 0 {
			p.output.write(outStream, buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// hello reads the worker's first frame, on whichever channel it speaks, by
// deadline, and makes that channel p's. The body is valid until the next
// frame is read. io.EOF says both channels ended first;
// os.ErrDeadlineExceeded that deadline came first.
func (p *process) hello(deadline time.Time) ([]byte, error) {
	type frame struct {
		body []byte
		err  error
	}
	fdFrames := wire.NewFrameReader(p.respR)
	p.respR.SetReadDeadline(deadline)
	onFDs := make(chan frame, 1)
	go func() {
		body, err := fdFrames.Next()
		onFDs <- frame{body, err}
	}()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	defer p.set(roleLog) // whatever stdout is not, it is the log
	var early []byte     // stdout's bytes until its role is known
	fdsOpen, stdoutOpen := true, true
	for fdsOpen || stdoutOpen {
		select {
		case f := <-onFDs:
			if f.err == nil {
				p.useFDs(fdFrames, early)
				return f.body, nil
			}
			fdsOpen, onFDs = false, nil
		case c := <-p.sniffed:
			if c.err != nil {
				stdoutOpen = false
			}
			if p.role() == roleLog { // stdout is text already
				p.output.write(outStream, c.b)
				continue
			}
			early = append(early, c.b...)
			switch body, ok := stdioFrame(early); {
			case ok && p.set(roleProtocol):
				p.useStdio(early[4+len(body):])
				return body, nil
			case body == nil && len(early) >= 4 || c.err != nil:
				p.set(roleLog) // not a frame: the worker printed text
				p.output.write(outStream, early)
				stdoutOpen = false // it cannot be the channel any more
			default:
				p.ack <- struct{}{}
			}
		case <-timer.C:
			return nil, p.noHello(early, os.ErrDeadlineExceeded)
		}
	}
	return nil, p.noHello(early, io.EOF)
}

// stdioFrame reads b as the start of a frame on stdout: ok with the body
// when it holds a whole frame; a nil body when its length is out of range
// (or b is too short to say).
func stdioFrame(b []byte) (body []byte, ok bool) {
	if len(b) < 4 {
		return nil, false
	}
	n := binary.BigEndian.Uint32(b)
	if n == 0 || n > wire.MaxFrame {
		return nil, false
	}
	if uint32(len(b)-4) < n {
		return b[4:4], false
	}
	return b[4 : 4+n], true
}

// noHello is the error of a worker that said no hello, err being how the
// wait ended: what it printed on stdout, when that was text, says why.
func (p *process) noHello(early []byte, err error) error {
	if text, ok := asText(early); ok {
		return fmt.Errorf("the worker wrote `%s` to stdout and said no hello on either channel (stdout, or descriptor %d as %s=%s offers): %w",
			text, wire.ResponseFD, wire.FDsEnv, wire.FDsOffer, err)
	}
	return err
}

// useFDs makes the offered descriptors the channel; stdout's early bytes
// are the log's.
func (p *process) useFDs(frames *wire.FrameReader, early []byte) {
	if p.set(roleLog) && len(early) > 0 {
		p.output.write(outStream, early)
	}
	p.req, p.resp, p.frames, p.fds = p.reqW, p.respR, frames, true
	p.stdin.Close() // nothing for the worker to read there
}

// useStdio makes stdin and stdout the channel, rest being what stdout held
// past the hello's frame.
func (p *process) useStdio(rest []byte) {
	p.respR.SetReadDeadline(time.Now()) // ends the wait for a hello there
	p.reqW.Close()
	p.respR.Close()
	var r io.Reader = p.stdout
	if len(rest) > 0 {
		r = io.MultiReader(bytes.NewReader(bytes.Clone(rest)), p.stdout)
	}
	p.req, p.resp, p.frames = p.stdin, p.stdout, wire.NewFrameReader(r)
}
