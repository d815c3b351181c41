package memlimit

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func TestSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Size
		str  string
	}{
		{"2GiB", 2 << 30, "2GiB"},
		{"512MiB", 512 << 20, "512MiB"},
		{"512mib", 512 << 20, "512MiB"},
		{"1.5G", 1_500_000_000, "1430.5MiB"},
		{"300M", 300_000_000, "286.1MiB"},
		{"64KiB", 64 << 10, "65536B"},
		{"1000", 1000, "1000B"},
		{"0", 0, "0"},
		{" 3 GiB ", 3 << 30, "3GiB"},
	} {
		var z Size
		if err := z.Set(tc.in); err != nil || z != tc.want || z.String() != tc.str {
			t.Errorf("Set(%q) = %d (%s), %v; want %d (%s)", tc.in, z, z, err, tc.want, tc.str)
		}
	}
	for _, bad := range []string{"", "GiB", "-1GiB", "2 gigs", "1e30GiB", "NaN"} {
		var z Size
		if err := z.Set(bad); err == nil || !strings.Contains(err.Error(), "2GiB") {
			t.Errorf("Set(%q) = %d, %v; want an error with an example", bad, z, err)
		}
	}
}

// Acquire waits while the pool is full and goes on at a release; Charge
// never waits; a request over the capacity passes when nothing is held.
// In a synctest bubble, so that "it waits" is a fact (every goroutine of
// the bubble blocked), not a guess from a 20 ms window.
func TestPool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPool(100)
		ctx := context.Background()
		if err := p.Acquire(ctx, 60); err != nil {
			t.Fatal(err)
		}
		p.Charge(60) // over the capacity: allowed
		got := make(chan error, 1)
		go func() { got <- p.Acquire(ctx, 30) }()
		synctest.Wait()
		select {
		case err := <-got:
			t.Fatalf("Acquire(30) with 120 of 100 held returned %v; want it to wait", err)
		default:
		}
		p.Release(60) // 60 held: 30 more fit
		if err := <-got; err != nil {
			t.Fatal(err)
		}
		if p.Used() != 90 || p.Peak() != 120 {
			t.Errorf("Used, Peak = %d, %d; want 90, 120", p.Used(), p.Peak())
		}
		p.Release(90)
		if err := p.Acquire(ctx, 1000); err != nil { // alone, it passes
			t.Fatal(err)
		}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if err := p.Acquire(cctx, 1); !errors.Is(err, context.Canceled) {
			t.Errorf("Acquire on a full pool with ctx cancelled = %v, want context.Canceled", err)
		}
	})
}

func TestWatch(t *testing.T) {
	over := make(chan error, 1)
	stop := Watch(1<<20, time.Millisecond, "-max-memory", func(err error) { over <- err })
	defer stop()
	select {
	case err := <-over:
		var oe *OverError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), "-max-memory") || oe.Budget != 1<<20 {
			t.Errorf("Watch reported %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a test binary's RSS is over 1 MiB, but Watch said nothing")
	}
	Watch(0, time.Millisecond, "-max-memory", func(err error) { t.Errorf("budget 0 watched: %v", err) })()
}
