package bench

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
)

// printDriver prints the driver-only run's line: its rate and the cores
// it kept busy.
func printDriver(w io.Writer, rate, cores float64) {
	fmt.Fprintf(w, "driver (generate + Go + compare) %.0f cases/s  (%.2f cores)\n", rate, cores)
}

// printPair prints pair k's line (k from 0): its full run, the
// implementations' part of it, and its ratios.
func printPair(w io.Writer, k int, p Pair) {
	fmt.Fprintf(w, "pair %d: full run %.2f µs/case at %.0f cases/s, the implementations %.2f µs of it: harness ratio %.2f, ratio %.2f; alone %.2f µs, %.2f µs with decoding: %.2f, %.2f\n",
		k+1, p.FullInRunCPUNsPerCase/1000, p.FullRate, p.InRunCPUNsPerCase/1000, p.HarnessRatio, p.Ratio,
		p.ImplCPUNsPerCase/1000, p.ImplDecodeCPUNsPerCase/1000, p.IsolatedHarnessRatio, p.IsolatedRatio)
}

// printSummary prints what follows the pairs: the implementations' costs
// and the limits they give, then the median pair's full run.
func printSummary(w io.Writer, cfg Config, m *measurement) {
	res := m.res
	for _, r := range res.Impl {
		fmt.Fprintf(w, "in-process %-8s %10.0f cases/s  (%.2f µs/case; cpu %.2f µs, %.2f µs with decoding)\n",
			r.Name, r.CasesPerSec, r.NsPerCase/1000, r.CPUNsPerCase/1000, r.DecodeCPUNsPerCase/1000)
	}
	fmt.Fprintf(w, "limit (%d cores / sum of costs) %.0f cases/s\n", res.Cores, res.LimitRate)
	fmt.Fprintf(w, "limit with decoding (%d cores / sum of cpu costs with decoding) %.0f cases/s\n", res.Cores, res.LimitDecodeRate)
	printFull(w, cfg, m)
}

// printFull prints the median pair's full run: its rate, each process's
// CPU, the driver's memory, its cost per case and, where the run's own
// seconds measure them, the implementations' and the harness's parts.
func printFull(w io.Writer, cfg Config, m *measurement) {
	res, final, rep := m.res, m.final, m.full
	fmt.Fprintf(w, "full run (%s), pair %d: %.0f cases/s after a %v warm-up (%.0f cases/s with it; %d cases in %.1fs)\n",
		specNames(cfg.Adapters), m.mid+1, res.FullRate, cfg.Warmup, rep.Rate, rep.Cases, rep.Seconds)
	for _, c := range res.FullCPU {
		fmt.Fprintf(w, "  cpu %-18s %.2f cores\n", c.Process, c.Cores)
	}
	fmt.Fprintf(w, "driver peak RSS %.1f MiB\n", float64(res.DriverRSS)/(1<<20))
	fmt.Fprintf(w, "full run cpu %.2f µs/case (every process, the median of %d windows of %v); implementations alone %.2f µs, %.2f µs with decoding; wall-clock ratio %.2f\n",
		res.FullCPUNsPerCase/1000, windows, (cfg.Run / pairs / windows).Round(time.Millisecond), final.ImplCPUNsPerCase/1000, final.ImplDecodeCPUNsPerCase/1000, res.FullRate/res.LimitRate)
	if m.why == "" {
		fmt.Fprintf(w, "in the run, per case: every process %.2f µs; the implementations %s (%.2f µs: a limit of %.0f cases/s on %d cores); the harness %s\n",
			final.FullInRunCPUNsPerCase/1000, describeCosts(res.InRun), final.InRunCPUNsPerCase/1000, res.LimitInRunRate, res.Cores, describeCosts(res.Harness))
	}
	fmt.Fprintf(w, "isolated (the implementations alone over the full run): harness ratio %.2f, ratio %.2f\n", res.IsolatedHarnessRatio, res.IsolatedRatio)
	if m.why != "" {
		fmt.Fprintf(w, "%s: the ratios below are the isolated ones\n", m.why)
	}
}

// printRatios prints the closing lines, "ratio: X.XX" last, which scripts
// read.
func printRatios(w io.Writer, res *Result) {
	fmt.Fprintf(w, "harness ratio: %.2f\n", res.HarnessRatio)
	fmt.Fprintf(w, "ratio: %.2f\n", res.Ratio)
}

// describeCosts is "go 8.10 µs, python 80.20 µs".
func describeCosts(shares []CaseCost) string {
	var parts []string
	for _, s := range shares {
		parts = append(parts, fmt.Sprintf("%s %.2f µs", s.Name, s.CPUNsPerCase/1000))
	}
	return strings.Join(parts, ", ")
}

// specNames is the adapters' names, "go,python".
func specNames(specs []adapter.Spec) string {
	s := ""
	for i, a := range specs {
		if i > 0 {
			s += ","
		}
		s += a.Name
	}
	return s
}
