// Package cpumeter measures what a run's processes spend: the driver's CPU
// time, each adapter's worker processes', and what each adapter's
// implementation said its batches cost, over the span of the run after
// its warm-up and over equal windows of that span. A run (harness/run)
// reads the clocks into its report; the bench (harness/bench) takes its
// cost per case from the same spans, the median window's, so that the two
// agree on what a span and its CPU are.
//
// It reads no process's clock but this one's (internal/procstat): the
// caller knows its workers, and hands their clocks in a Reading.
package cpumeter

import (
	"cmp"
	"slices"
	"time"

	"github.com/difffuzz/difffuzz/internal/procstat"
)

// Reading is every process's CPU clock at one moment of a run.
type Reading struct {
	At    time.Time
	Cases uint64 // cases done so far
	// Driver is this process's CPU time so far, the in-process
	// adapters' included.
	Driver time.Duration
	// Adapters is each adapter's worker processes' CPU time, in the
	// order of the run's adapters (0 in process); Batches what each
	// adapter's implementation said its batches cost so far.
	Adapters []time.Duration
	Batches  []time.Duration
}

// Read is the reading of now: this process's CPU clock, the cases done and
// the adapters' clocks the caller read (of their workers as of their last
// batch, so that they span the same batches as batches, what the workers
// said).
func Read(cases uint64, adapters, batches []time.Duration) Reading {
	return Reading{At: time.Now(), Cases: cases, Driver: procstat.SelfCPU(), Adapters: adapters, Batches: batches}
}

// Span is what the processes spent between two readings: a run's report
// holds it, in this JSON, for the span after its warm-up and each window.
type Span struct {
	Cases   uint64  `json:"cases"`
	Seconds float64 `json:"seconds"`
	// DriverCPUSeconds is the driver's CPU time over it, the in-process Go
	// adapter included; AdapterCPUSeconds that of each adapter's worker
	// processes, in the order of the run's adapters (0 in process).
	DriverCPUSeconds  float64   `json:"driver_cpu_seconds"`
	AdapterCPUSeconds []float64 `json:"adapter_cpu_seconds"`
	// BatchCPUSeconds is what each adapter's implementation said its
	// batches cost over it (decoding, canonicalizing, hashing), the
	// in-process Go's included: the part of the CPU above that is not the
	// harness's. 0 for a worker that does not say (batch_cpu_ns).
	BatchCPUSeconds []float64 `json:"batch_cpu_seconds"`
}

// Between is the span from a to b. A worker restarted within it counts
// from its new start: an adapter's clock never counts as going back.
func Between(a, b Reading) Span {
	s := Span{Cases: b.Cases - a.Cases, Seconds: b.At.Sub(a.At).Seconds(), DriverCPUSeconds: (b.Driver - a.Driver).Seconds()}
	for i := range b.Adapters {
		s.AdapterCPUSeconds = append(s.AdapterCPUSeconds, grown(a.Adapters, b.Adapters, i))
		s.BatchCPUSeconds = append(s.BatchCPUSeconds, grown(a.Batches, b.Batches, i))
	}
	return s
}

// grown is how many seconds to[i] grew by from from[i] (0 if from has none
// yet, or to has none); never negative, since a restarted worker's clock
// starts anew.
func grown(from, to []time.Duration, i int) float64 {
	if i >= len(to) {
		return 0
	}
	before := time.Duration(0)
	if i < len(from) {
		before = from[i]
	}
	return max(to[i]-before, 0).Seconds()
}

// CPUSeconds is every process's CPU time over s: the driver's and each
// adapter's workers' (what the implementations said is a part of these).
func (s Span) CPUSeconds() float64 {
	total := s.DriverCPUSeconds
	for _, a := range s.AdapterCPUSeconds {
		total += a
	}
	return total
}

// MedianWindow is the window of median CPU per case (CPUSeconds over
// Cases), nil if there are none or one has no case. A shared host slows a
// run down for seconds at a time, when the same work takes more CPU: the
// median window leaves out what a minority of slowed ones cost.
func MedianWindow(ws []Span) *Span {
	var sorted []*Span
	for i := range ws {
		if ws[i].Cases == 0 {
			return nil
		}
		sorted = append(sorted, &ws[i])
	}
	if len(sorted) == 0 {
		return nil
	}
	perCase := func(w *Span) float64 { return w.CPUSeconds() / float64(w.Cases) }
	slices.SortFunc(sorted, func(a, b *Span) int { return cmp.Compare(perCase(a), perCase(b)) })
	return sorted[len(sorted)/2]
}

// Meter cuts a run into its warm-up, which it leaves out (starting the
// workers, compiling their JIT code), and the span after it, and that span
// into windows. The caller tells it of each batch done (Tick); it reads
// the clocks only when a span or a window begins or ends, since reading
// every worker's clock costs a system call each.
type Meter struct {
	warmup, window time.Duration
	start          time.Time
	now            func() time.Time // time.Now; a test's clock
	// warm is the reading at the warm-up's end (its At is zero before);
	// win the one at the start of the current window, windows the done.
	warm, win Reading
	windows   []Span
}

// New is the meter of a run started at start: warmup (0 or less: none,
// and no span) is left out, and the span after it is cut into windows of
// window (0 or less: none). A window ends at the first Tick window or more
// after it began, so each holds whole batches.
func New(start time.Time, warmup, window time.Duration) *Meter {
	return &Meter{warmup: warmup, window: window, start: start, now: time.Now}
}

// Tick is called after each batch done; read gives the reading of now,
// and is called only when the warm-up or a window ends.
func (m *Meter) Tick(read func() Reading) {
	if m.warmup > 0 && m.warm.At.IsZero() && m.now().Sub(m.start) >= m.warmup {
		m.warm = read()
		m.win = m.warm
	}
	if m.window > 0 && !m.warm.At.IsZero() && m.now().Sub(m.win.At) >= m.window {
		now := read()
		m.windows = append(m.windows, Between(m.win, now))
		m.win = now
	}
}

// Steady is the span from the warm-up's end to now (read gives now's
// reading) and the windows done in it, the last, shorter piece left out;
// ok is false, and read not called, when there is no such span: no
// warm-up, or it has not ended, or no case was done since (cases is the
// cases done now).
func (m *Meter) Steady(cases uint64, read func() Reading) (span Span, windows []Span, ok bool) {
	if m.warm.At.IsZero() || cases <= m.warm.Cases {
		return Span{}, nil, false
	}
	return Between(m.warm, read()), m.windows, true
}
