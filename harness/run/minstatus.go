package run

import (
	"fmt"
	"sync"
	"time"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/minimize"
	"github.com/difffuzz/difffuzz/internal/clip"
)

// minStatus is the status line while the run minimizes: one bucket may
// take ten seconds and more, and a line that said nothing meanwhile looked
// stuck. It names the bucket and where its minimizer is (its rounds, the
// pass of its last step, the example's size), fed by the lane's
// MinimizeProgress from the minimizing goroutine and read by a ticker's.
type minStatus struct {
	mu     sync.Mutex
	start  time.Time // the run's
	i, n   int       // the bucket's place in the budget's order
	sig    string
	began  time.Time // the bucket's minimization
	at     minimize.Progress
	active bool
}

// bucket notes that the i-th of n buckets, sig, is being minimized now.
func (m *minStatus) bucket(i, n int, sig string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.i, m.n, m.sig, m.began, m.at, m.active = i, n, sig, time.Now(), minimize.Progress{}, true
}

// progress notes where the bucket's minimizer is.
func (m *minStatus) progress(p minimize.Progress) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.at = p
}

// line is the status line; ok is false before the first bucket.
func (m *minStatus) line(now time.Time) (line string, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.active {
		return "", false
	}
	pass := m.at.Pass
	if pass == "" {
		pass = "reproducing"
	}
	return fmt.Sprintf("%6.0fs  minimizing %d/%d for %v: round %d, pass %s, %d bytes  %s", now.Sub(m.start).Seconds(), m.i, m.n,
		roughly(now.Sub(m.began)), m.at.Rounds, pass, m.at.Size, compare.Visible(clip.String(m.sig, 200))), true
}

// watchMinimizing shows m's line every interval on the run's status line
// until stop is called, which waits for the last line to be written.
func (c *collector) watchMinimizing(m *minStatus) (stop func()) {
	if c.cfg.status == nil {
		return func() {}
	}
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		tick := time.NewTicker(c.cfg.StatusEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-tick.C:
				if line, ok := m.line(now); ok {
					c.cfg.status.status(line, false)
				}
			}
		}
	}()
	return func() { close(done); <-ended }
}
