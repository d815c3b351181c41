package run

import (
	"context"
	"fmt"
	"strings"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/internal/memlimit"
	"github.com/difffuzz/difffuzz/internal/procstat"
)

// batchShare is the part of the budget (Config.MaxMemory) that the
// batches in flight and the findings waiting to be written may hold
// together. The heap stands at memlimit.HeapShare of the budget while
// that much is live (memlimit.Tune), at twice what is live past it, and
// the runtime's memory limit squeezes what is left only by collecting
// more often, which costs CPU but holds.
const batchShare = 4

// valueFactor is how many bytes of the driver's memory a case takes for
// each byte of its msgpack encoding: the encoding, the generated values
// (a string header and a map entry are several words; a case is some 69
// objects) and the lane's outcomes.
const valueFactor = 5

// memory holds a run to its budget: the runtime's soft limit, a pool of
// bytes for the batches in flight and the findings waiting, and a watch
// on the resident set that stops the run when it goes past the budget.
type memory struct {
	budget int64
	pool   *memlimit.Pool
	over   chan error // the watch's one report
	stop   func()     // ends the watch and restores the runtime's limit
	peaks  []int64    // per adapter, the largest peak RSS of any of its workers
}

// newMemory applies cfg.MaxMemory (already defaulted): the runtime's limit
// and heap target, unless the environment's GOMEMLIMIT and GOGC say
// otherwise, the pool, and the watch.
func newMemory(cfg *Config, getenv func(string) string, adapters int) *memory {
	m := &memory{budget: cfg.MaxMemory, over: make(chan error, 1), peaks: make([]int64, adapters)}
	unlimit := memlimit.Limit(m.budget, getenv("GOMEMLIMIT"))
	untune := memlimit.Tune(m.budget/memlimit.HeapShare, getenv("GOGC"))
	m.pool = memlimit.NewPool(m.budget / batchShare)
	// Sampled at least once a second, however rare the status line.
	unwatch := memlimit.Watch(m.budget, min(cfg.StatusEvery, DefaultStatusEvery), "-max-memory", func(err error) { m.over <- err })
	m.stop = func() { unwatch(); untune(); unlimit() }
	return m
}

// batchBytes is what a batch whose encoding is n bytes counts against the
// pool.
func batchBytes(n int) int64 { return int64(n) * valueFactor }

// hold waits until the pool has room for b and takes it; false when ctx
// ended first.
func (m *memory) hold(ctx context.Context, b *batch) bool {
	return m.pool.Acquire(ctx, b.held) == nil
}

// charge counts what a batch's findings hold beyond its cases (their
// outcomes' texts and details: the input is one of the batch's cases).
func (m *memory) charge(d *batchDone) {
	var n int64
	for _, f := range d.findings {
		for _, o := range f.outs {
			n += int64(len(o.Canonical) + len(o.Digest) + len(o.Detail))
		}
	}
	m.pool.Charge(n)
	d.held += n
}

// release gives back what a batch and its findings held, once the
// collector has written and counted them.
func (m *memory) release(d batchDone) { m.pool.Release(d.held) }

// sample notes each worker's peak resident set (VmHWM): a worker that
// restarts takes its peak with it, so the status line samples them.
func (m *memory) sample(lanes []*panel.Panel) {
	for _, l := range lanes {
		for ai, a := range l.Adapters() {
			if w, ok := a.(*adapter.Worker); ok && ai < len(m.peaks) {
				m.peaks[ai] = max(m.peaks[ai], procstat.PeakRSS(w.Pid()))
			}
		}
	}
}

// status is the status line's memory: the driver's resident set now and
// at its peak, and each worker-backed adapter's peak.
func (m *memory) status(names []string, lanes []*panel.Panel) string {
	m.sample(lanes)
	_, peak := procstat.SelfUsage()
	var b strings.Builder
	fmt.Fprintf(&b, "rss %dMiB (peak %dMiB", procstat.CurrentRSS()>>20, peak>>20)
	for ai, p := range m.peaks {
		if p > 0 {
			fmt.Fprintf(&b, ", %s %d", names[ai], p>>20)
		}
	}
	b.WriteString(")")
	return b.String()
}

// fill puts the budget and the peaks in the report.
func (m *memory) fill(rep *report.Report, lanes []*panel.Panel) {
	m.sample(lanes)
	rep.MaxMemory = max(m.budget, 0)
	rep.BatchBytesPeak = m.pool.Peak()
	for ai := range rep.Adapters {
		if ai < len(m.peaks) {
			rep.Adapters[ai].MaxRSS = m.peaks[ai]
		}
	}
}
