package testworker

import (
	"bytes"
	"sync"
	"testing"
	"time"
)

// Mark is an io.Writer, for a worker's adapter.Spec.Stderr (or a
// command's), that notes the first time what was written holds a text: a
// test waits on it for the worker to reach the point it announces ("hanging
// on the marked case") instead of sleeping and hoping it has. Safe for
// concurrent use.
type Mark struct {
	text []byte
	seen chan struct{}

	mu   sync.Mutex
	tail []byte // the end of what was written, shorter than text, until seen
	once sync.Once
}

// NewMark returns a Mark that waits for text.
func NewMark(text string) *Mark {
	return &Mark{text: []byte(text), seen: make(chan struct{})}
}

// Write looks for the text across writes; it never fails.
func (m *Mark) Write(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	select {
	case <-m.seen:
		return len(p), nil
	default:
	}
	m.tail = append(m.tail, p...)
	if bytes.Contains(m.tail, m.text) {
		m.once.Do(func() { close(m.seen) })
		m.tail = nil
		return len(p), nil
	}
	if keep := len(m.text) - 1; len(m.tail) > keep {
		m.tail = append(m.tail[:0], m.tail[len(m.tail)-keep:]...)
	}
	return len(p), nil
}

// Seen is closed once the text was written.
func (m *Mark) Seen() <-chan struct{} { return m.seen }

// Wait waits for the text, and fails the test if a minute goes by without
// it: a bound on a failure, which a passing test never comes near.
func (m *Mark) Wait(t testing.TB) {
	t.Helper()
	select {
	case <-m.seen:
	case <-time.After(time.Minute):
		t.Fatalf("no %q within a minute", m.text)
	}
}
