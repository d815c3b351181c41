// Package bench is "difffuzz bench": what each implementation costs alone,
// what the driver costs, what the full run achieves, and how close the full
// run comes to the implementations' own cost, in CPU time.
package bench

import (
	"context"
	"difffuzz/internal/atomicfile"
	"difffuzz/internal/procstat"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
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
	Run      time.Duration // measured length of the driver-only and the full run; 0 means 20s
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
	FullCPU       []CPUShare `json:"full_cpu"`
	DriverRSS     int64      `json:"driver_max_rss"`
	// LimitDecodeRate is LimitRate with decoding in each worker counted.
	LimitDecodeRate float64 `json:"limit_decode_cases_per_second"`
	// FullCPUNsPerCase is the full run's CPU time per case, summed over
	// every process: the driver (with the in-process Go) and every worker,
	// warm-up included.
	FullCPUNsPerCase float64 `json:"full_cpu_ns_per_case"`
	// Ratio is the implementations' own CPU per case (canonicalize and
	// hash) over FullCPUNsPerCase; HarnessRatio counts decoding in the
	// implementations' share, so that what is left is the harness's own
	// overhead: the driver's generation, encoding and comparison, and the
	// workers' framing. Both are in CPU time, which a busy host cannot move.
	Ratio        float64 `json:"ratio"`
	HarnessRatio float64 `json:"harness_ratio"`
}

// CPUShare is one process's CPU use over the full run, as a share of one core.
type CPUShare struct {
	Process string  `json:"process"`
	Cores   float64 `json:"cores"`
}

// Bench runs the three measurements and prints them, "ratio: X.XX" last.
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
	if err := benchImpls(ctx, cfg, res); err != nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz bench: %v\n", err)
		return triage.ExitSetup
	}
	var sum, cpuSum, decodeSum float64
	for _, r := range res.Impl {
		sum, cpuSum, decodeSum = sum+r.NsPerCase, cpuSum+r.CPUNsPerCase, decodeSum+r.DecodeCPUNsPerCase
		fmt.Fprintf(cfg.Stdout, "in-process %-8s %10.0f cases/s  (%.2f µs/case; cpu %.2f µs, %.2f µs with decoding)\n",
			r.Name, r.CasesPerSec, r.NsPerCase/1000, r.CPUNsPerCase/1000, r.DecodeCPUNsPerCase/1000)
	}
	res.LimitRate = float64(res.Cores) / (sum / 1e9)
	res.LimitDecodeRate = float64(res.Cores) / (decodeSum / 1e9)
	fmt.Fprintf(cfg.Stdout, "limit (%d cores / sum of costs) %.0f cases/s\n", res.Cores, res.LimitRate)
	fmt.Fprintf(cfg.Stdout, "limit with decoding (%d cores / sum of cpu costs with decoding) %.0f cases/s\n", res.Cores, res.LimitDecodeRate)
	driver, driverCPU := benchRun(ctx, cfg, cfg.Adapters[indexInProcess(cfg.Adapters):indexInProcess(cfg.Adapters)+1])
	if driver == nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz bench: the driver-only run failed\n")
		return triage.ExitSetup
	}
	res.DriverRate = steadyRate(driver)
	fmt.Fprintf(cfg.Stdout, "driver (generate + Go + compare) %.0f cases/s  (%.2f cores)\n", res.DriverRate, driverCPU.Seconds()/driver.Seconds)
	full, fullCPU := benchRun(ctx, cfg, cfg.Adapters)
	if full == nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz bench: the full run failed\n")
		return triage.ExitSetup
	}
	res.FullRate, res.FullRateWhole, res.FullCases, res.DriverRSS = steadyRate(full), full.Rate, full.Cases, full.DriverMaxRSS
	res.FullCPU = append(res.FullCPU, CPUShare{"driver (with go)", fullCPU.Seconds() / full.Seconds})
	total := fullCPU.Seconds()
	for _, a := range full.Adapters {
		if a.Starts > 0 {
			res.FullCPU = append(res.FullCPU, CPUShare{a.Name + " workers", a.CPUSeconds / full.Seconds})
			total += a.CPUSeconds
		}
	}
	res.FullCPU = append(res.FullCPU, CPUShare{"all", total / full.Seconds})
	fmt.Fprintf(cfg.Stdout, "full run (%s) %.0f cases/s after a %v warm-up (%.0f cases/s with it; %d cases in %.1fs)\n",
		specNames(cfg.Adapters), res.FullRate, cfg.Warmup, full.Rate, full.Cases, full.Seconds)
	for _, c := range res.FullCPU {
		fmt.Fprintf(cfg.Stdout, "  cpu %-18s %.2f cores\n", c.Process, c.Cores)
	}
	fmt.Fprintf(cfg.Stdout, "driver peak RSS %.1f MiB\n", float64(res.DriverRSS)/(1<<20))
	res.FullCPUNsPerCase = total * 1e9 / float64(max(full.Cases, 1))
	res.Ratio = cpuSum / res.FullCPUNsPerCase
	res.HarnessRatio = decodeSum / res.FullCPUNsPerCase
	fmt.Fprintf(cfg.Stdout, "full run cpu %.2f µs/case (every process); implementations %.2f µs, %.2f µs with decoding; wall-clock ratio %.2f\n",
		res.FullCPUNsPerCase/1000, cpuSum/1000, decodeSum/1000, res.FullRate/res.LimitRate)
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

// benchImpls has each implementation time itself over the same sample.
func benchImpls(ctx context.Context, cfg Config, res *Result) error {
	g := gen.New(gen.Config{Seed: cfg.Seed})
	sample := make([]any, cfg.Sample)
	for i := range sample {
		sample[i], _ = g.Case(uint64(i))
	}
	for _, s := range cfg.Adapters {
		a, err := openAdapter(ctx, s)
		if err != nil {
			return err
		}
		r, err := timeImpl(ctx, a, sample)
		a.Close()
		if err != nil {
			return err
		}
		r.Name = s.Name
		res.Impl = append(res.Impl, r)
	}
	return nil
}

func openAdapter(ctx context.Context, s adapter.Spec) (adapter.Adapter, error) {
	if s.InProcess {
		return adapter.NewGo(s.Name), nil
	}
	w, err := adapter.Start(ctx, s)
	if err != nil {
		return nil, lane.SetupError(err)
	}
	return w, nil
}

// timings is how many times each implementation times itself; the median
// is its cost, so that one disturbed timing (another process, a collection)
// does not move the limit.
const timings = 5

// timeImpl calibrates with one round, then takes the median of timings
// timings of about 0.7 seconds' worth each, for each of its figures.
func timeImpl(ctx context.Context, a adapter.Adapter, sample []any) (ImplRate, error) {
	one, err := a.Bench(ctx, sample, 1)
	if err != nil {
		return ImplRate{}, err
	}
	rounds := int(700*time.Millisecond/max(time.Duration(one.ElapsedNS), time.Millisecond)) + 1
	rounds = min(rounds, 100)
	var wall, cpu, decode []float64
	for range timings {
		t, err := a.Bench(ctx, sample, rounds)
		if err != nil || t.Count == 0 {
			return ImplRate{}, fmt.Errorf("adapter %s: bench: %v (count %d)", a.Name(), err, t.Count)
		}
		if t.CPUNS == 0 { // a version 1 worker: its wall time stands in
			t.CPUNS, t.DecodeCPUNS = t.ElapsedNS, t.ElapsedNS
		}
		n := float64(t.Count)
		wall, cpu, decode = append(wall, float64(t.ElapsedNS)/n), append(cpu, float64(t.CPUNS)/n), append(decode, float64(t.DecodeCPUNS)/n)
	}
	r := ImplRate{NsPerCase: median(wall), CPUNsPerCase: median(cpu), DecodeCPUNsPerCase: median(decode)}
	r.CasesPerSec = 1e9 / r.NsPerCase
	return r, nil
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

// steadyRate is a run's rate after its warm-up, or over the whole run if it
// had none.
func steadyRate(rep *report.Report) float64 {
	if rep.SteadyRate > 0 {
		return rep.SteadyRate
	}
	return rep.Rate
}

// benchRun is one fuzzing run with the bench's settings, and the driver's CPU
// time over it.
func benchRun(ctx context.Context, cfg Config, specs []adapter.Spec) (*report.Report, time.Duration) {
	var sink io.Writer = io.Discard
	before, _ := procstat.SelfUsage()
	rep, code := run.Run(ctx, run.Config{Adapters: specs, Workers: cfg.Workers, Batch: cfg.Batch, Duration: cfg.Warmup + cfg.Run, Warmup: cfg.Warmup, Seed: cfg.Seed,
		CorpusDir: benchCorpus(cfg.Out), MinimizeTime: -1, StatusEvery: time.Hour, Stdout: sink, Stderr: cfg.Stderr})
	after, _ := procstat.SelfUsage()
	if code == triage.ExitSetup {
		return nil, 0
	}
	return rep, after - before
}
