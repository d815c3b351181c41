package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/harness/run"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/internal/cpumeter"
	"github.com/difffuzz/difffuzz/internal/procstat"
)

// measurement is what a bench run measured, before any of it is printed.
type measurement struct {
	res   *Result
	mid   int            // the median pair (by harness ratio), from 0
	final Pair           // the median pair's full run over the costs of every timing
	full  *report.Report // the median pair's full run
	// why is why the full run's own seconds give no ratio, "" if they do:
	// res's ratios are then the isolated ones.
	why string
}

// progress is told of each phase of a bench as it ends, so that a bench of
// a minute or more shows how it goes.
type progress struct {
	driver func(rate, cores float64) // the driver-only run: its rate, its CPU in cores
	pair   func(k int, p Pair)       // pair k (from 0): the timings and the full run after them
}

// measure runs every phase of the bench: the driver-only run, then pairs
// of timings and full runs; the full run's figures are the median pair's.
// A phase's failure is a *phaseError.
func measure(ctx context.Context, cfg Config, note progress) (*measurement, error) {
	res := &Result{Cores: runtime.NumCPU(), Seed: cfg.Seed, Sample: cfg.Sample, Warmup: cfg.Warmup.Seconds()}
	if err := measureDriver(ctx, cfg, res, note.driver); err != nil {
		return nil, err
	}
	all := make([]timings, len(cfg.Adapters))
	fulls, err := measurePairs(ctx, cfg, res, all, note.pair)
	if err != nil {
		return nil, err
	}
	costs := limits(res, cfg.Adapters, all)
	return fromMedian(res, fulls, costs, cfg.Adapters), nil
}

// measureDriver runs the driver with the in-process adapter alone.
func measureDriver(ctx context.Context, cfg Config, res *Result, note func(rate, cores float64)) error {
	in := indexInProcess(cfg.Adapters)
	rep, driverCPU, err := benchRun(ctx, cfg, cfg.Adapters[in:in+1])
	if err != nil {
		return &phaseError{"the driver-only run", err}
	}
	res.DriverRate = steadyRate(rep)
	sp := spentOn(rep, driverCPU)
	note(res.DriverRate, sp.DriverCPUSeconds/sp.Seconds)
	return nil
}

// measurePairs times the implementations and then runs the full run, pairs
// times over (each full run cfg.Run/pairs long), adding the timings to all
// and each pair's figures to res.Pairs.
func measurePairs(ctx context.Context, cfg Config, res *Result, all []timings, note func(k int, p Pair)) ([]*fullRun, error) {
	slice := cfg
	slice.Run = cfg.Run / pairs
	var fulls []*fullRun
	for k := range pairs {
		// Made anew each time, so that the full runs' heap does not hold
		// it: the driver's collections would scan it on the run's bill.
		costs, err := timeImpls(ctx, cfg, makeSample(cfg), all)
		if ctx.Err() != nil {
			err = errInterrupted
		}
		if err != nil {
			return nil, &phaseError{"timing the implementations:", err}
		}
		f, err := measureFull(ctx, slice)
		if err != nil {
			return nil, &phaseError{"the full run", err}
		}
		p := f.pair(costs)
		res.Pairs = append(res.Pairs, p)
		fulls = append(fulls, f)
		note(k, p)
	}
	return fulls, nil
}

// limits sets each implementation's figures from all its timings, and the
// machine's limits from their sum; it returns the implementations' costs.
func limits(res *Result, specs []adapter.Spec, all []timings) []cost {
	var sum, decodeSum float64
	costs := make([]cost, len(specs))
	for i, s := range specs {
		costs[i] = all[i].cost()
		r := all[i].rate(costs[i])
		r.Name = s.Name
		res.Impl = append(res.Impl, r)
		sum, decodeSum = sum+r.NsPerCase, decodeSum+r.DecodeCPUNsPerCase
	}
	res.LimitRate = float64(res.Cores) / (sum / 1e9)
	res.LimitDecodeRate = float64(res.Cores) / (decodeSum / 1e9)
	return costs
}

// fromMedian takes the full run's figures from the median pair, its
// isolated ratios over the costs of every timing; where the run's own
// seconds give no ratio, res's ratios are the isolated ones.
func fromMedian(res *Result, fulls []*fullRun, costs []cost, specs []adapter.Spec) *measurement {
	mid := medianPair(res.Pairs)
	f := fulls[mid]
	final := f.pair(costs)
	res.HarnessRatio, res.Ratio = final.HarnessRatio, final.Ratio
	res.IsolatedHarnessRatio, res.IsolatedRatio = final.IsolatedHarnessRatio, final.IsolatedRatio
	res.FullRate, res.FullRateWhole, res.FullCases, res.DriverRSS = steadyRate(f.rep), f.rep.Rate, f.rep.Cases, f.rep.DriverMaxRSS
	res.FullCPU, res.FullCPUNsPerCase = f.shares, f.cpuNsPerCase
	res.InRun = f.inRun(specs)
	res.Harness = f.harness(specs)
	if final.InRunCPUNsPerCase > 0 {
		res.LimitInRunRate = float64(res.Cores) / (final.InRunCPUNsPerCase / 1e9)
	}
	why := f.unmeasured(specs)
	if why != "" {
		res.HarnessRatio, res.Ratio = res.IsolatedHarnessRatio, res.IsolatedRatio
	}
	return &measurement{res: res, mid: mid, final: final, full: f.rep, why: why}
}

// fullRun is one full run of the bench: its report, its CPU per case (every
// process, the median window) and each process's share of the cores then.
// Its own ratios are taken over the whole span after its warm-up, the
// report's Steady.
type fullRun struct {
	rep          *report.Report
	cpuNsPerCase float64
	shares       []CPUShare
}

// measureFull runs the full run once and takes its figures.
func measureFull(ctx context.Context, cfg Config) (*fullRun, error) {
	rep, driverCPU, err := benchRun(ctx, cfg, cfg.Adapters)
	if err != nil {
		return nil, err
	}
	fc := spentOn(rep, driverCPU)
	f := &fullRun{rep: rep}
	f.shares = append(f.shares, CPUShare{"driver (with go)", fc.DriverCPUSeconds / fc.Seconds})
	total := fc.DriverCPUSeconds
	for ai, a := range rep.Adapters {
		if a.Starts > 0 {
			f.shares = append(f.shares, CPUShare{a.Name + " workers", fc.AdapterCPUSeconds[ai] / fc.Seconds})
			total += fc.AdapterCPUSeconds[ai]
		}
	}
	f.shares = append(f.shares, CPUShare{"all", total / fc.Seconds})
	f.cpuNsPerCase = total * 1e9 / float64(max(fc.Cases, 1))
	return f, nil
}

// pair is the run's figures and ratios with the implementations' costs
// alone (per adapter, from its pair's timings or from all of them).
func (f *fullRun) pair(costs []cost) Pair {
	p := Pair{FullCPUNsPerCase: f.cpuNsPerCase, FullRate: steadyRate(f.rep)}
	for _, c := range costs {
		p.ImplCPUNsPerCase, p.ImplDecodeCPUNsPerCase = p.ImplCPUNsPerCase+c.cpu, p.ImplDecodeCPUNsPerCase+c.decode
	}
	p.IsolatedHarnessRatio, p.IsolatedRatio = p.ImplDecodeCPUNsPerCase/f.cpuNsPerCase, p.ImplCPUNsPerCase/f.cpuNsPerCase
	p.HarnessRatio, p.Ratio = p.IsolatedHarnessRatio, p.IsolatedRatio
	if f.unmeasured(nil) != "" {
		return p
	}
	var inRun, canon float64
	for ai, c := range costs {
		b := f.rep.Steady.BatchCPUSeconds[ai]
		inRun, canon = inRun+b, canon+b*c.split
	}
	total := f.rep.Steady.CPUSeconds()
	p.InRunCPUNsPerCase, p.FullInRunCPUNsPerCase = inRun*f.perCase(), total*f.perCase()
	p.HarnessRatio, p.Ratio = inRun/total, canon/total
	return p
}

// perCase turns seconds over the span after the warm-up into nanoseconds
// per case.
func (f *fullRun) perCase() float64 { return 1e9 / float64(max(f.rep.Steady.Cases, 1)) }

// unmeasured says why the run's own seconds give no ratio, or is "" if
// they do: a run with no span after a warm-up to measure, or an adapter
// whose implementation did not say what its batches cost (specs gives the
// names; nil leaves them out).
func (f *fullRun) unmeasured(specs []adapter.Spec) string {
	s := f.rep.Steady
	if s == nil || s.CPUSeconds() <= 0 {
		return "the full run had no span after a warm-up to measure (-warmup)"
	}
	for ai := range f.rep.Adapters {
		if ai >= len(s.BatchCPUSeconds) || s.BatchCPUSeconds[ai] <= 0 {
			if specs == nil {
				return "an adapter does not say what its batches cost"
			}
			return fmt.Sprintf("adapter %s does not say what its batches cost (batch_cpu_ns)", specs[ai].Name)
		}
	}
	return ""
}

// inRun is each implementation's cost per case inside the run.
func (f *fullRun) inRun(specs []adapter.Spec) []CaseCost {
	if f.rep.Steady == nil {
		return nil
	}
	var out []CaseCost
	for ai, b := range f.rep.Steady.BatchCPUSeconds {
		out = append(out, CaseCost{specs[ai].Name, b * f.perCase()})
	}
	return out
}

// harness is each process's CPU per case inside the run beyond its
// implementation's: the driver's (less the in-process adapters' batches),
// then each worker-backed adapter's workers'.
func (f *fullRun) harness(specs []adapter.Spec) []CaseCost {
	s := f.rep.Steady
	if s == nil || len(s.BatchCPUSeconds) < len(specs) {
		return nil
	}
	driver := CaseCost{Name: "driver", CPUNsPerCase: s.DriverCPUSeconds * f.perCase()}
	var workers []CaseCost
	for ai, spec := range specs {
		if spec.InProcess {
			driver.CPUNsPerCase -= s.BatchCPUSeconds[ai] * f.perCase()
			continue
		}
		workers = append(workers, CaseCost{spec.Name + " workers", (s.AdapterCPUSeconds[ai] - s.BatchCPUSeconds[ai]) * f.perCase()})
	}
	return append([]CaseCost{driver}, workers...)
}

// medianPair is the index of the pair whose harness ratio is the median.
func medianPair(ps []Pair) int {
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(ps[a].HarnessRatio, ps[b].HarnessRatio) })
	return idx[len(idx)/2]
}

func indexInProcess(specs []adapter.Spec) int {
	for i, s := range specs {
		if s.InProcess {
			return i
		}
	}
	return 0
}

// benchCorpus is where the bench's runs keep what they find: beside the
// figures (a bench is not a fuzzing job, but a divergence is never dropped).
func benchCorpus(out string) string {
	if out == "" {
		return filepath.Join("out", "bench-corpus")
	}
	return filepath.Join(filepath.Dir(out), "bench-corpus")
}

// windows is how many equal windows the span after a run's warm-up is cut
// into; the bench takes the median one (cpumeter.MedianWindow). A shared
// host slows a run down for seconds at a time (a run's rate moves between
// 11,500 and 15,000 cases a second from one second to the next).
const windows = 5

// spentOn is the median window (by CPU per case, every process summed) of
// the span after the run's warm-up, so that a cost per case leaves out
// starting the workers and compiling their JIT code, and a passing
// slowdown of the host; or the whole span if it has no windows, or the
// whole run (driverCPU is then the driver's) if it had no warm-up.
func spentOn(rep *report.Report, driverCPU time.Duration) cpumeter.Span {
	if s := rep.Steady; s != nil {
		if w := cpumeter.MedianWindow(s.Windows); w != nil {
			return *w
		}
		return s.Span
	}
	sp := cpumeter.Span{Seconds: rep.Seconds, DriverCPUSeconds: driverCPU.Seconds(), Cases: rep.Cases}
	for _, a := range rep.Adapters {
		sp.AdapterCPUSeconds = append(sp.AdapterCPUSeconds, a.CPUSeconds)
	}
	return sp
}

// steadyRate is a run's rate after its warm-up, or over the whole run if it
// had none.
func steadyRate(rep *report.Report) float64 {
	if rep.SteadyRate > 0 {
		return rep.SteadyRate
	}
	return rep.Rate
}

// errInterrupted is a run of the bench stopped by Ctrl-C or SIGTERM: its
// figures would be those of a fraction of it.
var errInterrupted = errors.New("interrupted")

// benchRun is one fuzzing run with the bench's settings, and the driver's CPU
// time over it. A run that could not start, was interrupted or ended with
// no case done after its warm-up is an error: no ratio may come of it.
func benchRun(ctx context.Context, cfg Config, specs []adapter.Spec) (*report.Report, time.Duration, error) {
	var sink io.Writer = io.Discard
	before, _ := procstat.SelfUsage()
	rep, code := run.Run(ctx, run.Config{Adapters: specs, Workers: cfg.Workers, Batch: cfg.Batch, Duration: cfg.Warmup + cfg.Run, Warmup: cfg.Warmup, Window: cfg.Run / windows, Seed: cfg.Seed,
		CorpusDir: benchCorpus(cfg.Out), MinimizeTime: -1, StatusEvery: time.Hour, Stdout: sink, Stderr: cfg.Stderr})
	after, _ := procstat.SelfUsage()
	switch {
	case code == triage.ExitSetup:
		return nil, 0, errors.New("could not start (see above)")
	case code == triage.ExitInterrupted || ctx.Err() != nil:
		return nil, 0, errInterrupted
	case rep.Cases == 0 || (cfg.Warmup > 0 && rep.Steady == nil):
		return nil, 0, fmt.Errorf("did no case after its %v warm-up", cfg.Warmup)
	}
	return rep, after - before, nil
}
