package bench

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/report"
)

// The summary prints the in-run figures only when the run's own seconds
// measured them, and says so when the ratios are the isolated ones; the
// ratios close the output, "ratio:" last.
func TestPrint(t *testing.T) {
	cfg := Config{Adapters: []adapter.Spec{{Name: "go", InProcess: true}, {Name: "py"}}, Run: 15 * time.Second, Warmup: time.Second}
	for _, tc := range []struct {
		name      string
		why       string
		want, not []string
	}{
		{"measured", "", []string{"in the run, per case: every process 3.80 µs; the implementations go 1.00 µs, py 1.60 µs"},
			[]string{"the ratios below are the isolated ones"}},
		{"isolated", "adapter py does not say what its batches cost (batch_cpu_ns)",
			[]string{"adapter py does not say what its batches cost (batch_cpu_ns): the ratios below are the isolated ones"},
			[]string{"in the run, per case"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &Result{Cores: 2, Impl: []ImplRate{{Name: "go", CasesPerSec: 1e5, NsPerCase: 1e4}, {Name: "py", CasesPerSec: 1e4, NsPerCase: 1e5}},
				InRun: []CaseCost{{"go", 1000}, {"py", 1600}}, Harness: []CaseCost{{"driver", 1000}}, HarnessRatio: 0.68, Ratio: 0.47,
				FullCPU: []CPUShare{{"driver (with go)", 1.5}}}
			m := &measurement{res: res, mid: 1, final: Pair{FullInRunCPUNsPerCase: 3800}, full: &report.Report{Cases: 10}, why: tc.why}
			var b bytes.Buffer
			printDriver(&b, 1000, 1)
			printPair(&b, 0, Pair{})
			printSummary(&b, cfg, m)
			printRatios(&b, res)
			out := b.String()
			want := append([]string{"driver (generate + Go + compare) 1000 cases/s", "pair 1: ", "in-process go ", "in-process py ",
				"limit (2 cores", "full run (go,py), pair 2: ", "after a 1s warm-up", "  cpu driver (with go)   1.50 cores",
				"median of 5 windows of 1s", "isolated (the implementations alone"}, tc.want...)
			last := -1
			for _, w := range want {
				i := strings.Index(out, w)
				if i < 0 {
					t.Errorf("no %q in:\n%s", w, out)
				} else if i < last && !slices.Contains(tc.want, w) {
					t.Errorf("%q out of order in:\n%s", w, out)
				}
				last = max(last, i)
			}
			for _, n := range tc.not {
				if strings.Contains(out, n) {
					t.Errorf("%q in:\n%s", n, out)
				}
			}
			if !strings.HasSuffix(out, "harness ratio: 0.68\nratio: 0.47\n") {
				t.Errorf("output does not end in the ratios:\n%s", out)
			}
		})
	}
}
