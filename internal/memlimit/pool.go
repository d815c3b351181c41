package memlimit

import (
	"context"
	"sync"
)

// Pool counts the bytes a process holds on purpose against a capacity.
// Only those who make new work wait (Acquire); those who must finish what
// they hold add to the count without waiting (Charge), so that two holders
// can never wait on each other. The count may therefore stand above the
// capacity for a while; Acquire then waits until releases bring it below.
// A request larger than the whole capacity is let through once nothing
// else is held, so that one huge batch is slow, not stuck.
type Pool struct {
	mu   sync.Mutex
	cap  int64
	used int64
	peak int64
	wake chan struct{} // closed and replaced at each release
}

// NewPool makes a pool of capacity bytes; capacity <= 0 means no bound.
func NewPool(capacity int64) *Pool {
	return &Pool{cap: capacity, wake: make(chan struct{})}
}

// Acquire waits until n more bytes fit (or nothing is held) and takes them;
// it returns ctx's error if ctx ends first.
func (p *Pool) Acquire(ctx context.Context, n int64) error {
	for {
		p.mu.Lock()
		if p.cap <= 0 || p.used == 0 || p.used+n <= p.cap {
			p.take(n)
			p.mu.Unlock()
			return nil
		}
		wake := p.wake
		p.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Charge takes n bytes without waiting.
func (p *Pool) Charge(n int64) {
	p.mu.Lock()
	p.take(n)
	p.mu.Unlock()
}

func (p *Pool) take(n int64) {
	p.used += n
	p.peak = max(p.peak, p.used)
}

// Release gives back n bytes taken by Acquire or Charge.
func (p *Pool) Release(n int64) {
	if n == 0 {
		return
	}
	p.mu.Lock()
	p.used -= n
	close(p.wake)
	p.wake = make(chan struct{})
	p.mu.Unlock()
}

// Used is the bytes held now, and Peak the most held at once.
func (p *Pool) Used() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.used
}

// Peak is the most bytes held at once so far.
func (p *Pool) Peak() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peak
}
