// Package bench is "difffuzz bench": what each implementation costs alone,
// what the driver costs, what the full run achieves, and how close the full
// run comes to the implementations' own cost, in CPU time.
package bench

import (
	"cmp"
	"context"
	"difffuzz/internal/atomicfile"
	"difffuzz/internal/procstat"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"difffuzz/harness/adapter"
	"difffuzz/harness/gen"
	"difffuzz/harness/lane"
	"difffuzz/harness/report"
	"difffuzz/harness/run"
	"difffuzz/harness/triage"
)

// Config is "difffuzz bench": how fast each implementation is on its own,
// how fast the driver is, how fast the full run is, and how close the full run
// comes to the machine's limit.
type Config struct {
	Adapters []adapter.Spec
	Seed     uint64        // the generator seed of every phase
	Sample   int           // cases each implementation times in process; 0 means 4000
	Run      time.Duration // measured length of the driver-only run, and of the full runs together (split over the pairs); 0 means 20s
	Warmup   time.Duration // unmeasured start of each run; 0 means 5s, negative none
	Workers  int           // as Config.Workers
	Batch    int           // as Config.Batch
	Out      string        // the JSON figures; "" means none
	Stdout   io.Writer
	Stderr   io.Writer
}

// ImplRate is one implementation's in-process cost: canonicalize and hash,
// by the wall clock (NsPerCase) and by its process's CPU clock, and the CPU
// cost with decoding each case from its msgpack bytes too, which no worker
// can skip. A version 1 worker reports no CPU times: they are then its wall
// times.
type ImplRate struct {
	Name               string  `json:"name"`
	NsPerCase          float64 `json:"ns_per_case"`
	CasesPerSec        float64 `json:"cases_per_second"`
	CPUNsPerCase       float64 `json:"cpu_ns_per_case"`
	DecodeCPUNsPerCase float64 `json:"decode_cpu_ns_per_case"`
}

// Result holds every figure of a bench run.
type Result struct {
	Cores      int        `json:"cores"`
	Seed       uint64     `json:"seed"`
	Sample     int        `json:"sample"`
	Impl       []ImplRate `json:"implementations"`
	LimitRate  float64    `json:"limit_cases_per_second"`
	DriverRate float64    `json:"driver_cases_per_second"`
	FullRate   float64    `json:"full_cases_per_second"` // after the warm-up
	// FullRateWhole is the full run's rate with its warm-up counted in.
	FullRateWhole float64    `json:"full_cases_per_second_whole_run"`
	FullCases     uint64     `json:"full_cases"`
	Warmup        float64    `json:"warmup_seconds"`
	FullCPU       []CPUShare `json:"full_cpu"` // in the median window
	DriverRSS     int64      `json:"driver_max_rss"`
	// LimitDecodeRate is LimitRate with decoding in each worker counted.
	LimitDecodeRate float64 `json:"limit_decode_cases_per_second"`
	// LimitInRunRate is the decode-inclusive limit measured inside the
	// median pair's full run: the cores over the implementations' CPU per
	// case there (Pair.InRunCPUNsPerCase); 0 if a worker did not say.
	LimitInRunRate float64 `json:"limit_in_run_cases_per_second"`
	// FullCPUNsPerCase is the CPU time per case of the full run of the
	// median pair, in the median of the windows after its warm-up (see
	// windows), summed over every process: the driver (with the
	// in-process Go) and every worker. FullRate, FullCPU and the rest of
	// the full run's figures are that run's too.
	FullCPUNsPerCase float64 `json:"full_cpu_ns_per_case"`
	// Pairs are the implementations' timings and the full run after them,
	// each with the ratios of its own figures.
	Pairs []Pair `json:"pairs"`
	// InRun is what each implementation said its batches cost in the full
	// run of the median pair (see InRun), per case.
	InRun []CaseCost `json:"in_run"`
	// Harness is the rest of each process's CPU per case over the same
	// span: the driver's beyond the in-process Go's batches, each adapter's
	// workers' beyond what they said their batches cost.
	Harness []CaseCost `json:"harness"`
	// HarnessRatio is the implementations' share of the full run's CPU,
	// both measured in the same seconds of the median pair's full run
	// (by harness ratio) after its warm-up: what each worker said its
	// batches cost it (decoding, converting, canonicalizing, hashing; its
	// own CPU clock) and the in-process Go's thread CPU, over the CPU every
	// process spent. What is left is the harness's own overhead: the
	// driver's generation, encoding and comparison, and the workers'
	// framing. A busy host slows both halves alike, so it cannot move it.
	HarnessRatio float64 `json:"harness_ratio"`
	// Ratio is the same share without decoding: each implementation's part
	// of HarnessRatio times the fraction of its own cost that is
	// canonicalize and hash, which only the isolated timings can tell
	// apart (the medians of ImplRate's CPU figures).
	Ratio float64 `json:"ratio"`
	// IsolatedHarnessRatio and IsolatedRatio are the same ratios with the
	// implementations timed alone (LimitDecodeRate and LimitRate's costs,
	// the medians of all timings) over FullCPUNsPerCase: the machine's limit.
	// They move with a busy host, which slows a timing and a full run
	// minutes apart by different amounts; when a worker does not say what
	// its batches cost, they are the only ratios.
	IsolatedHarnessRatio float64 `json:"isolated_harness_ratio"`
	IsolatedRatio        float64 `json:"isolated_ratio"`
}

// CaseCost is a CPU cost per case inside a full run: an implementation's,
// or the harness's in one process.
type CaseCost struct {
	Name         string  `json:"name"`
	CPUNsPerCase float64 `json:"cpu_ns_per_case"`
}

// CPUShare is one process's CPU use over the full run, as a share of one core.
type CPUShare struct {
	Process string  `json:"process"`
	Cores   float64 `json:"cores"`
}

// pairs is how many times the bench times the implementations (each in a
// fresh worker process) and then runs the full run, back to back. A shared
// host slows everything down for tens of seconds at a time (the same work
// then takes more CPU), and a JIT compiles each worker process its own way:
// measured once each, minutes apart, either half of a ratio could be the
// slowed or the unlucky one. Interleaved, each ratio is the medians of the
// implementations' timings over all pairs over the median pair's full run.
const pairs = 3

// Pair is one pairing of the implementations' timings with the full run
// right after them. Its ratios are Result's, of its own figures; the
// isolated ones are over FullCPUNsPerCase.
type Pair struct {
	ImplCPUNsPerCase       float64 `json:"impl_cpu_ns_per_case"`
	ImplDecodeCPUNsPerCase float64 `json:"impl_decode_cpu_ns_per_case"`
	FullCPUNsPerCase       float64 `json:"full_cpu_ns_per_case"`
	FullRate               float64 `json:"full_cases_per_second"`
	// InRunCPUNsPerCase is the implementations' cost per case inside the
	// full run, and FullInRunCPUNsPerCase every process's over the same
	// span (the whole of it after the warm-up).
	InRunCPUNsPerCase     float64 `json:"in_run_cpu_ns_per_case"`
	FullInRunCPUNsPerCase float64 `json:"full_in_run_cpu_ns_per_case"`
	HarnessRatio          float64 `json:"harness_ratio"`
	Ratio                 float64 `json:"ratio"`
	IsolatedHarnessRatio  float64 `json:"isolated_harness_ratio"`
	IsolatedRatio         float64 `json:"isolated_ratio"`
}

// Run runs the measurements and prints them, "ratio: X.XX" last.
func Run(ctx context.Context, cfg Config) int {
	if cfg.Sample <= 0 {
		cfg.Sample = 4000
	}
	if cfg.Run <= 0 {
		cfg.Run = 20 * time.Second
	}
	if cfg.Warmup == 0 {
		cfg.Warmup = 5 * time.Second
	}
	cfg.Warmup = max(cfg.Warmup, 0)
	res := &Result{Cores: runtime.NumCPU(), Seed: cfg.Seed, Sample: cfg.Sample, Warmup: cfg.Warmup.Seconds()}
	driver, driverCPU, err := benchRun(ctx, cfg, cfg.Adapters[indexInProcess(cfg.Adapters):indexInProcess(cfg.Adapters)+1])
	if err != nil {
		return benchFailed(cfg, "the driver-only run", err)
	}
	res.DriverRate = steadyRate(driver)
	dc := spentOn(driver, driverCPU)
	fmt.Fprintf(cfg.Stdout, "driver (generate + Go + compare) %.0f cases/s  (%.2f cores)\n", res.DriverRate, dc.driver/dc.seconds)
	all := make([]timings, len(cfg.Adapters))
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
			return benchFailed(cfg, "timing the implementations:", err)
		}
		f, err := measureFull(ctx, slice)
		if err != nil {
			return benchFailed(cfg, "the full run", err)
		}
		p := f.pair(costs)
		res.Pairs = append(res.Pairs, p)
		fulls = append(fulls, f)
		fmt.Fprintf(cfg.Stdout, "pair %d: full run %.2f µs/case at %.0f cases/s, the implementations %.2f µs of it: harness ratio %.2f, ratio %.2f; alone %.2f µs, %.2f µs with decoding: %.2f, %.2f\n",
			k+1, p.FullInRunCPUNsPerCase/1000, p.FullRate, p.InRunCPUNsPerCase/1000, p.HarnessRatio, p.Ratio,
			p.ImplCPUNsPerCase/1000, p.ImplDecodeCPUNsPerCase/1000, p.IsolatedHarnessRatio, p.IsolatedRatio)
	}
	var sum, decodeSum float64
	costs := make([]cost, len(cfg.Adapters))
	for i, s := range cfg.Adapters {
		costs[i] = all[i].cost()
		r := all[i].rate(costs[i])
		r.Name = s.Name
		res.Impl = append(res.Impl, r)
		sum, decodeSum = sum+r.NsPerCase, decodeSum+r.DecodeCPUNsPerCase
		fmt.Fprintf(cfg.Stdout, "in-process %-8s %10.0f cases/s  (%.2f µs/case; cpu %.2f µs, %.2f µs with decoding)\n",
			r.Name, r.CasesPerSec, r.NsPerCase/1000, r.CPUNsPerCase/1000, r.DecodeCPUNsPerCase/1000)
	}
	res.LimitRate = float64(res.Cores) / (sum / 1e9)
	res.LimitDecodeRate = float64(res.Cores) / (decodeSum / 1e9)
	fmt.Fprintf(cfg.Stdout, "limit (%d cores / sum of costs) %.0f cases/s\n", res.Cores, res.LimitRate)
	fmt.Fprintf(cfg.Stdout, "limit with decoding (%d cores / sum of cpu costs with decoding) %.0f cases/s\n", res.Cores, res.LimitDecodeRate)
	mid := medianPair(res.Pairs)
	f := fulls[mid]
	final := f.pair(costs)
	res.HarnessRatio, res.Ratio = final.HarnessRatio, final.Ratio
	res.IsolatedHarnessRatio, res.IsolatedRatio = final.IsolatedHarnessRatio, final.IsolatedRatio
	res.FullRate, res.FullRateWhole, res.FullCases, res.DriverRSS = steadyRate(f.rep), f.rep.Rate, f.rep.Cases, f.rep.DriverMaxRSS
	res.FullCPU, res.FullCPUNsPerCase = f.shares, f.cpuNsPerCase
	fmt.Fprintf(cfg.Stdout, "full run (%s), pair %d: %.0f cases/s after a %v warm-up (%.0f cases/s with it; %d cases in %.1fs)\n",
		specNames(cfg.Adapters), mid+1, res.FullRate, cfg.Warmup, f.rep.Rate, f.rep.Cases, f.rep.Seconds)
	for _, c := range res.FullCPU {
		fmt.Fprintf(cfg.Stdout, "  cpu %-18s %.2f cores\n", c.Process, c.Cores)
	}
	fmt.Fprintf(cfg.Stdout, "driver peak RSS %.1f MiB\n", float64(res.DriverRSS)/(1<<20))
	fmt.Fprintf(cfg.Stdout, "full run cpu %.2f µs/case (every process, the median of %d windows of %v); implementations alone %.2f µs, %.2f µs with decoding; wall-clock ratio %.2f\n",
		res.FullCPUNsPerCase/1000, windows, (slice.Run / windows).Round(time.Millisecond), final.ImplCPUNsPerCase/1000, final.ImplDecodeCPUNsPerCase/1000, res.FullRate/res.LimitRate)
	res.InRun = f.inRun(cfg.Adapters)
	res.Harness = f.harness(cfg.Adapters)
	if final.InRunCPUNsPerCase > 0 {
		res.LimitInRunRate = float64(res.Cores) / (final.InRunCPUNsPerCase / 1e9)
	}
	why := f.unmeasured(cfg.Adapters)
	if why == "" {
		fmt.Fprintf(cfg.Stdout, "in the run, per case: every process %.2f µs; the implementations %s (%.2f µs: a limit of %.0f cases/s on %d cores); the harness %s\n",
			final.FullInRunCPUNsPerCase/1000, describeCosts(res.InRun), final.InRunCPUNsPerCase/1000, res.LimitInRunRate, res.Cores, describeCosts(res.Harness))
	}
	fmt.Fprintf(cfg.Stdout, "isolated (the implementations alone over the full run): harness ratio %.2f, ratio %.2f\n", res.IsolatedHarnessRatio, res.IsolatedRatio)
	if why != "" {
		fmt.Fprintf(cfg.Stdout, "%s: the ratios below are the isolated ones\n", why)
		res.HarnessRatio, res.Ratio = res.IsolatedHarnessRatio, res.IsolatedRatio
	}
	if cfg.Out != "" {
		data, _ := json.MarshalIndent(res, "", "  ")
		if err := atomicfile.WriteAll(cfg.Out, append(data, '\n')); err != nil {
			fmt.Fprintf(cfg.Stderr, "difffuzz bench: %v\n", err)
			return triage.ExitSetup
		}
	}
	fmt.Fprintf(cfg.Stdout, "harness ratio: %.2f\n", res.HarnessRatio)
	fmt.Fprintf(cfg.Stdout, "ratio: %.2f\n", res.Ratio)
	return triage.ExitOK
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
	f.shares = append(f.shares, CPUShare{"driver (with go)", fc.driver / fc.seconds})
	total := fc.driver
	for ai, a := range rep.Adapters {
		if a.Starts > 0 {
			f.shares = append(f.shares, CPUShare{a.Name + " workers", fc.adapters[ai] / fc.seconds})
			total += fc.adapters[ai]
		}
	}
	f.shares = append(f.shares, CPUShare{"all", total / fc.seconds})
	f.cpuNsPerCase = total * 1e9 / float64(max(fc.cases, 1))
	return f, nil
}

// cost is one implementation's CPU per case alone: canonicalize and hash,
// and with decoding; and split, the share of the second that is the first.
type cost struct{ cpu, decode, split float64 }

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
	total := f.spanCPU()
	p.InRunCPUNsPerCase, p.FullInRunCPUNsPerCase = inRun*f.perCase(), total*f.perCase()
	p.HarnessRatio, p.Ratio = inRun/total, canon/total
	return p
}

// spanCPU is every process's CPU seconds over the span after the warm-up.
func (f *fullRun) spanCPU() float64 {
	s := f.rep.Steady
	total := s.DriverCPUSeconds
	for _, a := range s.AdapterCPUSeconds {
		total += a
	}
	return total
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
	if s == nil || f.spanCPU() <= 0 {
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

// describeCosts is "go 8.10 µs, python 80.20 µs".
func describeCosts(shares []CaseCost) string {
	var parts []string
	for _, s := range shares {
		parts = append(parts, fmt.Sprintf("%s %.2f µs", s.Name, s.CPUNsPerCase/1000))
	}
	return strings.Join(parts, ", ")
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

func indexInProcess(specs []adapter.Spec) int {
	for i, s := range specs {
		if s.InProcess {
			return i
		}
	}
	return 0
}

// makeSample is the cases every implementation times itself over.
func makeSample(cfg Config) []any {
	g := gen.New(gen.Config{Seed: cfg.Seed})
	sample := make([]any, cfg.Sample)
	for i := range sample {
		sample[i], _ = g.Case(uint64(i))
	}
	return sample
}

// timeImpls has each implementation time itself over the sample in a fresh
// worker process (a JIT compiles each process differently: one TypeScript
// worker in a few decodes a third slower than the others for its whole
// life), adds the timings to all, and returns each one's costs: this
// round's medians.
func timeImpls(ctx context.Context, cfg Config, sample []any, all []timings) ([]cost, error) {
	var costs []cost
	for i, s := range cfg.Adapters {
		a, err := openAdapter(ctx, s)
		if err != nil {
			return nil, err
		}
		var t timings
		all[i].rounds, err = t.take(ctx, a, sample, all[i].rounds)
		a.Close()
		if err != nil {
			return nil, err
		}
		all[i].add(t)
		costs = append(costs, t.cost())
	}
	return costs, nil
}

func openAdapter(ctx context.Context, s adapter.Spec) (adapter.Adapter, error) {
	if s.InProcess {
		return adapter.NewInProcess(s.Name)
	}
	w, err := adapter.Start(ctx, s)
	if err != nil {
		return nil, lane.SetupError(err)
	}
	return w, nil
}

// timingsEach is how many times a worker process times itself: the medians
// of all of an implementation's timings (pairs*timingsEach) are its costs,
// so that neither one disturbed timing (another process, a collection) nor
// one unlucky process moves the limit.
const timingsEach = 3

// timings holds one implementation's timings per case, by figure, and the
// rounds a timing takes (0 before the first calibration).
type timings struct {
	wall, cpu, decode []float64
	rounds            int
}

func (t *timings) add(u timings) {
	t.wall, t.cpu, t.decode = append(t.wall, u.wall...), append(t.cpu, u.cpu...), append(t.decode, u.decode...)
}

// cost is the medians of the timings' CPU figures, and the median of
// their splits: each timing's two loops run back to back, so a slowed host
// moves both alike, where the medians of either may come from different
// seconds.
func (t *timings) cost() cost {
	splits := make([]float64, len(t.cpu))
	for i := range splits {
		splits[i] = 1
		if t.decode[i] > 0 {
			splits[i] = min(t.cpu[i]/t.decode[i], 1)
		}
	}
	return cost{median(slices.Clone(t.cpu)), median(slices.Clone(t.decode)), median(splits)}
}

// rate is the implementation's cost: the median of its wall-clock timings
// beside c, the medians of its CPU figures (cost).
func (t *timings) rate(c cost) ImplRate {
	r := ImplRate{NsPerCase: median(slices.Clone(t.wall)), CPUNsPerCase: c.cpu, DecodeCPUNsPerCase: c.decode}
	r.CasesPerSec = 1e9 / r.NsPerCase
	return r
}

// take has a time itself timingsEach times over sample, each timing of
// rounds passes; rounds 0 means to calibrate first, with one round, to about
// 0.7 seconds' worth (which a process warms up on too). It returns the
// rounds it used.
func (t *timings) take(ctx context.Context, a adapter.Adapter, sample []any, rounds int) (int, error) {
	one, err := a.Bench(ctx, sample, 1)
	if err != nil {
		return 0, fmt.Errorf("adapter %s: bench: %w", a.Name(), err)
	}
	if rounds == 0 {
		rounds = min(int(700*time.Millisecond/max(time.Duration(one.ElapsedNS), time.Millisecond))+1, 100)
	}
	for range timingsEach {
		b, err := a.Bench(ctx, sample, rounds)
		if err != nil || b.Count == 0 {
			return 0, fmt.Errorf("adapter %s: bench: %v (count %d)", a.Name(), err, b.Count)
		}
		if b.CPUNS == 0 { // a version 1 worker: its wall time stands in
			b.CPUNS, b.DecodeCPUNS = b.ElapsedNS, b.ElapsedNS
		}
		n := float64(b.Count)
		t.wall = append(t.wall, float64(b.ElapsedNS)/n)
		t.cpu = append(t.cpu, float64(b.CPUNS)/n)
		t.decode = append(t.decode, float64(b.DecodeCPUNS)/n)
	}
	return rounds, nil
}

func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// benchCorpus is where the bench's runs keep what they find: beside the
// figures (a bench is not a fuzzing job, but a divergence is never dropped).
func benchCorpus(out string) string {
	if out == "" {
		return filepath.Join("out", "bench-corpus")
	}
	return filepath.Join(filepath.Dir(out), "bench-corpus")
}

// spent is what a run's processes spent over a span of it: its length, its
// cases, the driver's CPU seconds and each adapter's workers'.
type spent struct {
	seconds, driver float64
	cases           uint64
	adapters        []float64
}

// windows is how many equal windows the span after a run's warm-up is cut
// into; the bench takes the median one. A shared host slows a run down for
// seconds at a time (a run's rate moves between 11,500 and 15,000 cases a
// second from one second to the next): then the same work takes more CPU,
// and the median window leaves out what a minority of slowed ones cost.
const windows = 5

// spentOn is the median window (by CPU per case, every process summed) of
// the span after the run's warm-up, so that a cost per case leaves out
// starting the workers and compiling their JIT code, and a passing
// slowdown of the host; or the whole span if it has no windows, or the
// whole run (driverCPU is then the driver's) if it had no warm-up.
func spentOn(rep *report.Report, driverCPU time.Duration) spent {
	if s := rep.Steady; s != nil {
		if w := medianWindow(s.Windows); w != nil {
			s = w
		}
		return spent{seconds: s.Seconds, driver: s.DriverCPUSeconds, cases: s.Cases, adapters: s.AdapterCPUSeconds}
	}
	sp := spent{seconds: rep.Seconds, driver: driverCPU.Seconds(), cases: rep.Cases}
	for _, a := range rep.Adapters {
		sp.adapters = append(sp.adapters, a.CPUSeconds)
	}
	return sp
}

// medianWindow is the window of median CPU per case, nil if there are none
// (or one has no case).
func medianWindow(ws []report.Steady) *report.Steady {
	perCase := func(w *report.Steady) float64 {
		cpu := w.DriverCPUSeconds
		for _, a := range w.AdapterCPUSeconds {
			cpu += a
		}
		return cpu / float64(w.Cases)
	}
	var sorted []*report.Steady
	for i := range ws {
		if ws[i].Cases == 0 {
			return nil
		}
		sorted = append(sorted, &ws[i])
	}
	if len(sorted) == 0 {
		return nil
	}
	slices.SortFunc(sorted, func(a, b *report.Steady) int { return cmp.Compare(perCase(a), perCase(b)) })
	return sorted[len(sorted)/2]
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

// benchFailed reports that a run of the bench failed, and the exit status.
func benchFailed(cfg Config, which string, err error) int {
	fmt.Fprintf(cfg.Stderr, "difffuzz bench: %s %v; no ratio\n", which, err)
	if errors.Is(err, errInterrupted) {
		return triage.ExitInterrupted
	}
	return triage.ExitSetup
}
