package cpumeter

import (
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func reading(sec float64, cases uint64, driver time.Duration, adapters, batches []time.Duration) Reading {
	return Reading{At: t0.Add(time.Duration(sec * float64(time.Second))), Cases: cases, Driver: driver, Adapters: adapters, Batches: batches}
}

func ms(ns ...int) []time.Duration {
	out := make([]time.Duration, len(ns))
	for i, n := range ns {
		out[i] = time.Duration(n) * time.Millisecond
	}
	return out
}

// Between takes each clock's growth; an adapter first seen in b counts
// from zero, and a restarted worker's clock, which starts anew, never
// counts as going back.
func TestBetween(t *testing.T) {
	tests := []struct {
		name string
		a, b Reading
		want Span
	}{
		{"grown", reading(1, 100, 500*time.Millisecond, ms(0, 200), ms(10, 150)),
			reading(3, 1100, 1500*time.Millisecond, ms(0, 900), ms(60, 650)),
			Span{Cases: 1000, Seconds: 2, DriverCPUSeconds: 1, AdapterCPUSeconds: []float64{0, 0.7}, BatchCPUSeconds: []float64{0.05, 0.5}}},
		{"an adapter first seen", reading(0, 0, 0, nil, nil), reading(1, 10, 0, ms(30), ms(20)),
			Span{Cases: 10, Seconds: 1, AdapterCPUSeconds: []float64{0.03}, BatchCPUSeconds: []float64{0.02}}},
		{"a restarted worker", reading(0, 0, 0, ms(900), ms(800)), reading(1, 10, 0, ms(40), ms(30)),
			Span{Cases: 10, Seconds: 1, AdapterCPUSeconds: []float64{0}, BatchCPUSeconds: []float64{0}}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Between(tt.a, tt.b)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// CPUSeconds sums the processes, not what the implementations said (a
// part of them).
func TestCPUSeconds(t *testing.T) {
	s := Span{DriverCPUSeconds: 1, AdapterCPUSeconds: []float64{0, 0.5, 0.25}, BatchCPUSeconds: []float64{0.5, 0.5, 0.25}}
	if got := s.CPUSeconds(); got != 1.75 {
		t.Errorf("CPUSeconds = %v, want 1.75", got)
	}
}

// MedianWindow picks by CPU per case, not by CPU alone; none when there is
// no window or one is empty (its CPU per case means nothing).
func TestMedianWindow(t *testing.T) {
	w := func(cases uint64, driver, adapter float64) Span {
		return Span{Cases: cases, Seconds: 1, DriverCPUSeconds: driver, AdapterCPUSeconds: []float64{adapter}}
	}
	tests := []struct {
		name string
		ws   []Span
		want int // index into ws; -1 for nil
	}{
		{"none", nil, -1},
		{"one", []Span{w(10, 1, 1)}, 0},
		{"by CPU per case", []Span{w(100, 1, 1), w(10, 1, 1), w(1000, 2, 2)}, 0},           // 0.02, 0.2, 0.004
		{"even: the upper", []Span{w(10, 1, 0), w(10, 4, 0), w(10, 2, 0), w(10, 3, 0)}, 3}, // sorted 1 2 3 4
		{"an empty window", []Span{w(10, 1, 0), w(0, 0, 0), w(10, 3, 0)}, -1},
		{"the adapters count", []Span{w(10, 1, 5), w(10, 2, 0), w(10, 3, 0)}, 2}, // 6, 2, 3
	}
	for _, tt := range tests {
		got := MedianWindow(tt.ws)
		switch {
		case tt.want < 0 && got != nil:
			t.Errorf("%s: %+v, want none", tt.name, *got)
		case tt.want >= 0 && got != &tt.ws[tt.want]:
			t.Errorf("%s: %+v, want window %d", tt.name, got, tt.want)
		}
	}
}

// A report holds a span in the JSON the bench and the project's tools
// read: the names of report.Steady before the meter was its own package.
func TestSpanJSON(t *testing.T) {
	b, err := json.Marshal(Span{Cases: 2, Seconds: 1.5, DriverCPUSeconds: 0.25, AdapterCPUSeconds: []float64{0, 1}, BatchCPUSeconds: []float64{0.125, 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"cases":2,"seconds":1.5,"driver_cpu_seconds":0.25,"adapter_cpu_seconds":[0,1],"batch_cpu_seconds":[0.125,0.5]}`
	if string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
}

// clock is a test's time, moved by hand.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// The meter reads the clocks when the warm-up ends and at the first tick
// a window or more after the last reading, and not otherwise; the steady
// span runs from the warm-up's end, its windows within it.
func TestMeter(t *testing.T) {
	clk := &clock{now: t0}
	m := New(t0, 2*time.Second, time.Second)
	m.now = clk.Now
	var cases uint64
	reads := 0
	read := func() Reading {
		reads++
		return Reading{At: clk.now, Cases: cases, Driver: time.Duration(cases) * time.Millisecond}
	}
	if _, _, ok := m.Steady(cases, read); ok || reads != 0 {
		t.Fatalf("a steady span before the warm-up (%d reads)", reads)
	}
	// Ticks every half second, 100 cases each.
	wantReads := []int{0, 0, 0, 1, 1, 2, 2, 3, 3} // the warm-up ends at 2s; windows at 3s and 4s
	for i, want := range wantReads {
		clk.now, cases = clk.now.Add(500*time.Millisecond), cases+100
		m.Tick(read)
		if reads != want {
			t.Fatalf("tick %d (at %v): %d reads, want %d", i, clk.now.Sub(t0), reads, want)
		}
	}
	span, windows, ok := m.Steady(cases, read)
	if !ok {
		t.Fatal("no steady span after the warm-up")
	}
	want := Span{Cases: 500, Seconds: 2.5, DriverCPUSeconds: 0.5}
	if diff := cmp.Diff(want, span); diff != "" {
		t.Errorf("steady span (-want +got):\n%s", diff)
	}
	wantWindows := []Span{{Cases: 200, Seconds: 1, DriverCPUSeconds: 0.2}, {Cases: 200, Seconds: 1, DriverCPUSeconds: 0.2}}
	if diff := cmp.Diff(wantWindows, windows); diff != "" {
		t.Errorf("windows (-want +got):\n%s", diff)
	}
}

// Without a warm-up there is no steady span, and no clock is read.
func TestMeterWithoutWarmup(t *testing.T) {
	m := New(t0, 0, time.Millisecond)
	m.now = func() time.Time { return t0.Add(time.Hour) }
	read := func() Reading { t.Fatal("a clock read without a warm-up"); return Reading{} }
	m.Tick(read)
	if _, _, ok := m.Steady(100, read); ok {
		t.Error("a steady span without a warm-up")
	}
}

// Read reads this process's own CPU clock, which grows with work (on
// Linux always; elsewhere procstat may not say).
func TestRead(t *testing.T) {
	a := Read(0, nil, nil)
	deadline := time.Now().Add(2 * time.Second)
	for b := Read(1, nil, nil); b.Driver <= a.Driver; b = Read(1, nil, nil) {
		if time.Now().After(deadline) {
			if runtime.GOOS == "linux" {
				t.Fatal("this process's CPU clock did not grow in 2s of work")
			}
			t.Skip("this system gives no CPU clock (procstat)")
		}
		for i := 0; i < 1e5; i++ {
			_ = time.Now()
		}
	}
}
