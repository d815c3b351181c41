package bench

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/difffuzz/difffuzz/harness/adapter"
)

// FindingsShare is the share of cases the findings phase's worker diverges
// on: one bug that shows in a tenth of the cases, as a real SDK's would.
const FindingsShare = "0.10"

// Findings is what findings cost a run: the same run beside a worker that
// answers every case right (Clean) and beside the same worker diverging on
// a share of the cases, all in one bucket (Diverging). A run that finds a
// bug must still fuzz: Ratio, Diverging over Clean, is held to 0.70.
type Findings struct {
	Share     string  `json:"share"`
	Clean     float64 `json:"clean_cases_per_second"`
	Diverging float64 `json:"diverging_cases_per_second"`
	Found     uint64  `json:"divergences"`
	Ratio     float64 `json:"ratio"`
}

// measureFindings runs the in-process reference beside cfg.DivergeWorker,
// clean and diverging in turn, twice, each run cfg.Run/pairs long after its
// warm-up, and sets res.Findings from the sums; it does nothing without a
// worker.
func measureFindings(ctx context.Context, cfg Config, res *Result) error {
	if cfg.DivergeWorker == "" {
		return nil
	}
	if _, err := os.Stat(cfg.DivergeWorker); err != nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz bench: no findings phase: %v (make bench builds it)\n", err)
		return nil
	}
	slice := cfg
	slice.Run = cfg.Run / pairs
	in := cfg.Adapters[indexInProcess(cfg.Adapters)]
	f := &Findings{Share: FindingsShare}
	var clean, diverging [2]float64
	for k := range 2 {
		for _, share := range []string{"0", FindingsShare} {
			specs := []adapter.Spec{in, {Name: "diverging", Command: []string{cfg.DivergeWorker, "diverge", share}}}
			rep, _, err := benchRun(ctx, slice, specs)
			if err != nil {
				return &phaseError{"the findings run (diverge " + share + ")", err}
			}
			if share == "0" {
				clean[k] = steadyRate(rep)
			} else {
				diverging[k] = steadyRate(rep)
				f.Found += rep.Divergences
			}
		}
	}
	f.Clean, f.Diverging = (clean[0]+clean[1])/2, (diverging[0]+diverging[1])/2
	if f.Clean > 0 {
		f.Ratio = f.Diverging / f.Clean
	}
	res.Findings = f
	return nil
}

// printFindings says what findings cost the rate.
func printFindings(w io.Writer, f *Findings) {
	if f == nil {
		return
	}
	fmt.Fprintf(w, "findings: %.0f cases/s with %s of cases diverging (%d divergences, one bucket) against %.0f clean: ratio %.2f\n",
		f.Diverging, f.Share, f.Found, f.Clean, f.Ratio)
}
