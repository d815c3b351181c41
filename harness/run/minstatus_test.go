package run

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/minimize"
)

// syncBuffer is a bytes.Buffer safe for the status ticker's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// While a bucket minimizes, the status line names it and says where its
// minimizer is: its rounds, the pass of its last step, the example's size;
// nothing before the first bucket, and nothing once stopped.
func TestMinimizingStatus(t *testing.T) {
	var out syncBuffer
	c := &collector{cfg: &Config{StatusEvery: time.Millisecond, status: newStatusWriter(&out, 0)}, start: time.Now()}
	m := &minStatus{start: c.start}
	if _, ok := m.line(time.Now()); ok {
		t.Error("a line before the first bucket")
	}
	stop := c.watchMinimizing(m)
	m.bucket(2, 5, "internal: E on valid input: sdk")
	m.progress(minimize.Progress{Rounds: 7, Size: 42, Pass: "chunks"})
	want := "minimizing 2/5 for "
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "round 7, pass chunks, 42 bytes  internal: E on valid input: sdk") && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	stop()
	got := out.String()
	if !strings.Contains(got, want) || !strings.Contains(got, "round 7, pass chunks, 42 bytes  internal: E on valid input: sdk") {
		t.Errorf("status lines:\n%s", got)
	}
	time.Sleep(5 * time.Millisecond)
	if out.String() != got {
		t.Error("a status line after stop")
	}
}
