package adapter

import (
	"bytes"
	"io"
	"sync"
)

// Streams of a worker's output, as tail knows them.
const (
	outStream = iota // stdout, once it is not the protocol's stream
	errStream        // stderr
)

// partMax bounds the unfinished line kept of each stream: a longer one is
// kept as if it had ended.
const partMax = 4 << 10

// tail keeps the last max bytes a worker printed. Its streams are
// interleaved line by line, never inside a line, so that a debug line on
// stdout does not cut a traceback's line on stderr in two. A line not yet
// ended is held apart (String shows it last). copy, if not nil, gets every
// byte too, as it arrives.
type tail struct {
	mu   sync.Mutex
	max  int
	buf  []byte
	part [2][]byte
	copy io.Writer
}

func newTail(max int, copy io.Writer) *tail { return &tail{max: max, copy: copy} }

// stream is the writer of one stream (outStream, errStream).
func (t *tail) stream(i int) io.Writer { return streamWriter{t, i} }

type streamWriter struct {
	t *tail
	i int
}

func (w streamWriter) Write(b []byte) (int, error) {
	w.t.write(w.i, b)
	return len(b), nil
}

func (t *tail) write(i int, b []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.copy != nil {
		t.copy.Write(b)
	}
	p := append(t.part[i], b...)
	if k := bytes.LastIndexByte(p, '\n'); k >= 0 {
		t.add(p[:k+1])
		p = p[k+1:]
	}
	if len(p) > partMax {
		t.add(p)
		t.add([]byte{'\n'})
		p = p[len(p):]
	}
	t.part[i] = append(t.part[i][:0], p...)
}

// add appends whole lines, dropping the oldest bytes past max.
func (t *tail) add(b []byte) {
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
}

// String is what the tail holds, unfinished lines last.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(t.buf)
	for _, p := range t.part {
		if len(p) > 0 {
			s += string(p) + "\n"
		}
	}
	return s
}
