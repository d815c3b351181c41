package adapter

import (
	"io"
	"strings"
	"sync"
)

// Streams of a worker's output, as tail knows them.
const (
	outStream = iota // stdout, once it is not the protocol's stream
	errStream        // stderr
)

// outPrefix marks the lines a worker printed on stdout in a tail.
const outPrefix = "stdout: "

// tail keeps the last bytes a worker printed, max bytes of each stream.
// String shows stdout's lines first, each marked, then stderr's as they
// are: the two pipes give no order between them that could be trusted, and
// a failure's last line (a crash's cause, see harness/compare) must be the
// same every time, so it is stderr's, where a traceback or a panic ends.
// copy, if not nil, gets every byte too, as it arrives.
type tail struct {
	mu   sync.Mutex
	max  int
	buf  [2][]byte
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
	t.buf[i] = append(t.buf[i], b...)
	if over := len(t.buf[i]) - t.max; over > 0 {
		t.buf[i] = append(t.buf[i][:0], t.buf[i][over:]...)
	}
}

// String is what the tail holds: stdout's lines, marked, then stderr.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var sb strings.Builder
	if out := strings.TrimRight(string(t.buf[outStream]), "\n"); out != "" {
		for _, line := range strings.Split(out, "\n") {
			sb.WriteString(outPrefix + line + "\n")
		}
	}
	sb.Write(t.buf[errStream])
	return sb.String()
}
