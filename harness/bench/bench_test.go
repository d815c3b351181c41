package bench

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/difffuzz/difffuzz/harness/adapter"
	_ "github.com/difffuzz/difffuzz/harness/inprocess" // the in-process adapter
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/internal/cpumeter"
)

// A run's ratios come from its own seconds: the implementations' batches
// over every process's CPU, canonicalize and hash being each one's split
// of its batches. A worker that does not say what its batches cost leaves
// the isolated ratios; so does a run with no span after a warm-up.
func TestPairRatios(t *testing.T) {
	specs := []adapter.Spec{{Name: "go", InProcess: true}, {Name: "py"}}
	costs := []cost{{cpu: 10, decode: 10, split: 1}, {cpu: 40, decode: 80, split: 0.5}}
	steady := func(batch ...float64) *report.Steady {
		return &report.Steady{Span: cpumeter.Span{Cases: 1000, Seconds: 1, DriverCPUSeconds: 0.002, AdapterCPUSeconds: []float64{0, 0.0018}, BatchCPUSeconds: batch}}
	}
	for _, tc := range []struct {
		name                 string
		steady               *report.Steady
		harness, ratio       float64
		isolatedH, isolatedR float64
	}{
		// 2 ms of driver and 1.8 ms of workers: 3.8 µs a case, of which the
		// batches 1 + 1.6 µs; go's all canonicalizing, py's half.
		{"said", steady(0.001, 0.0016), 2.6 / 3.8, (1 + 0.8) / 3.8, 90 / 5000.0, 50 / 5000.0},
		{"a silent worker", steady(0.001, 0), 90 / 5000.0, 50 / 5000.0, 90 / 5000.0, 50 / 5000.0},
		{"no warm-up", nil, 90 / 5000.0, 50 / 5000.0, 90 / 5000.0, 50 / 5000.0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fullRun{rep: &report.Report{Adapters: []report.AdapterReport{{Name: "go"}, {Name: "py", Starts: 1}}, Steady: tc.steady}, cpuNsPerCase: 5000}
			p := f.pair(costs)
			for _, c := range []struct {
				what      string
				got, want float64
			}{{"harness ratio", p.HarnessRatio, tc.harness}, {"ratio", p.Ratio, tc.ratio},
				{"isolated harness ratio", p.IsolatedHarnessRatio, tc.isolatedH}, {"isolated ratio", p.IsolatedRatio, tc.isolatedR}} {
				if math.Abs(c.got-c.want) > 1e-9 {
					t.Errorf("%s %.4f, want %.4f", c.what, c.got, c.want)
				}
			}
			if tc.name == "said" {
				h := f.harness(specs)
				// The driver's 2 µs less go's 1 µs; py's workers' 1.8 less 1.6.
				if len(h) != 2 || math.Abs(h[0].CPUNsPerCase-1000) > 1e-6 || math.Abs(h[1].CPUNsPerCase-200) > 1e-6 || h[1].Name != "py workers" {
					t.Errorf("harness %+v", h)
				}
			}
		})
	}
}

// An implementation's split is the median of its timings' own splits, not
// the ratio of two medians that may come from different seconds.
func TestTimingsCost(t *testing.T) {
	tm := timings{cpu: []float64{50, 60, 100}, decode: []float64{100, 60, 125}}
	c := tm.cost()
	if c.cpu != 60 || c.decode != 100 || c.split != 0.8 {
		t.Errorf("cost %+v, want cpu 60, decode 100, split 0.8 (splits 0.5, 1, 0.8)", c)
	}
	if z := (&timings{cpu: []float64{5}, decode: []float64{0}}).cost(); z.split != 1 {
		t.Errorf("no decode time: split %v, want 1", z.split)
	}
}

// A failed phase is named in the message, and an interrupted one exits as
// interrupted however it is wrapped.
func TestBenchFailed(t *testing.T) {
	for _, tc := range []struct {
		err      error
		msg      string
		wantCode int
	}{
		{&phaseError{"the full run", errors.New("could not start (see above)")}, "difffuzz bench: the full run could not start (see above); no ratio\n", triage.ExitSetup},
		{&phaseError{"timing the implementations:", errInterrupted}, "difffuzz bench: timing the implementations: interrupted; no ratio\n", triage.ExitInterrupted},
	} {
		var stderr bytes.Buffer
		if code := benchFailed(Config{Stderr: &stderr}, tc.err); code != tc.wantCode || stderr.String() != tc.msg {
			t.Errorf("exit %d, %q; want %d, %q", code, stderr.String(), tc.wantCode, tc.msg)
		}
	}
}
