package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"difffuzz/harness/adapter"
	"difffuzz/harness/corpus"
	"difffuzz/harness/gen"
	"difffuzz/harness/report"
)

// BenchConfig is "difffuzz bench": how fast each implementation is on its own,
// how fast the driver is, how fast the full run is, and how close the full run
// comes to the machine's limit.
type BenchConfig struct {
	Adapters []AdapterSpec
	Seed     uint64        // the generator seed of every phase
	Sample   int           // cases each implementation times in process; 0 means 4000
	Run      time.Duration // length of the driver-only and the full run; 0 means 20s
	Workers  int           // as Config.Workers
	Batch    int           // as Config.Batch
	Out      string        // the JSON figures; "" means none
	Stdout   io.Writer
	Stderr   io.Writer
}

// ImplRate is one implementation's in-process cost.
type ImplRate struct {
	Name        string  `json:"name"`
	NsPerCase   float64 `json:"ns_per_case"`
	CasesPerSec float64 `json:"cases_per_second"`
}

// BenchResult holds every figure of a bench run.
type BenchResult struct {
	Cores      int        `json:"cores"`
	Seed       uint64     `json:"seed"`
	Sample     int        `json:"sample"`
	Impl       []ImplRate `json:"implementations"`
	LimitRate  float64    `json:"limit_cases_per_second"`
	DriverRate float64    `json:"driver_cases_per_second"`
	FullRate   float64    `json:"full_cases_per_second"`
	FullCases  uint64     `json:"full_cases"`
	FullCPU    []CPUShare `json:"full_cpu"`
	DriverRSS  int64      `json:"driver_max_rss"`
	Ratio      float64    `json:"ratio"`
}

// CPUShare is one process's CPU use over the full run, as a share of one core.
type CPUShare struct {
	Process string  `json:"process"`
	Cores   float64 `json:"cores"`
}

// Bench runs the three measurements and prints them, "ratio: X.XX" last.
func Bench(ctx context.Context, cfg BenchConfig) int {
	if cfg.Sample <= 0 {
		cfg.Sample = 4000
	}
	if cfg.Run <= 0 {
		cfg.Run = 20 * time.Second
	}
	res := &BenchResult{Cores: runtime.NumCPU(), Seed: cfg.Seed, Sample: cfg.Sample}
	if err := benchImpls(ctx, cfg, res); err != nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz bench: %v\n", err)
		return ExitSetup
	}
	sum := 0.0
	for _, r := range res.Impl {
		sum += r.NsPerCase
		fmt.Fprintf(cfg.Stdout, "in-process %-8s %10.0f cases/s  (%.2f µs/case)\n", r.Name, r.CasesPerSec, r.NsPerCase/1000)
	}
	res.LimitRate = float64(res.Cores) / (sum / 1e9)
	fmt.Fprintf(cfg.Stdout, "limit (%d cores / sum of costs) %.0f cases/s\n", res.Cores, res.LimitRate)
	driver, driverCPU := benchRun(ctx, cfg, cfg.Adapters[indexInProcess(cfg.Adapters):indexInProcess(cfg.Adapters)+1])
	if driver == nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz bench: the driver-only run failed\n")
		return ExitSetup
	}
	res.DriverRate = driver.Rate
	fmt.Fprintf(cfg.Stdout, "driver (generate + Go + compare) %.0f cases/s  (%.2f cores)\n", driver.Rate, driverCPU.Seconds()/driver.Seconds)
	full, fullCPU := benchRun(ctx, cfg, cfg.Adapters)
	if full == nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz bench: the full run failed\n")
		return ExitSetup
	}
	res.FullRate, res.FullCases, res.DriverRSS = full.Rate, full.Cases, full.DriverMaxRSS
	res.FullCPU = append(res.FullCPU, CPUShare{"driver (with go)", fullCPU.Seconds() / full.Seconds})
	total := fullCPU.Seconds()
	for _, a := range full.Adapters {
		if a.Starts > 0 {
			res.FullCPU = append(res.FullCPU, CPUShare{a.Name + " workers", a.CPUSeconds / full.Seconds})
			total += a.CPUSeconds
		}
	}
	res.FullCPU = append(res.FullCPU, CPUShare{"all", total / full.Seconds})
	fmt.Fprintf(cfg.Stdout, "full run (%s) %.0f cases/s, %d cases in %.1fs\n", specNames(cfg.Adapters), full.Rate, full.Cases, full.Seconds)
	for _, c := range res.FullCPU {
		fmt.Fprintf(cfg.Stdout, "  cpu %-18s %.2f cores\n", c.Process, c.Cores)
	}
	fmt.Fprintf(cfg.Stdout, "driver peak RSS %.1f MiB\n", float64(res.DriverRSS)/(1<<20))
	res.Ratio = res.FullRate / res.LimitRate
	if cfg.Out != "" {
		data, _ := json.MarshalIndent(res, "", "  ")
		err := os.MkdirAll(filepath.Dir(cfg.Out), 0o755)
		if err == nil {
			err = corpus.WriteFileAtomic(cfg.Out, append(data, '\n'))
		}
		if err != nil {
			fmt.Fprintf(cfg.Stderr, "difffuzz bench: %v\n", err)
			return ExitSetup
		}
	}
	fmt.Fprintf(cfg.Stdout, "ratio: %.2f\n", res.Ratio)
	return ExitOK
}

func specNames(specs []AdapterSpec) string {
	s := ""
	for i, a := range specs {
		if i > 0 {
			s += ","
		}
		s += a.Name
	}
	return s
}

func indexInProcess(specs []AdapterSpec) int {
	for i, s := range specs {
		if s.InProcess {
			return i
		}
	}
	return 0
}

// benchImpls has each implementation time itself over the same sample.
func benchImpls(ctx context.Context, cfg BenchConfig, res *BenchResult) error {
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
		ns, err := timeImpl(ctx, a, sample)
		a.Close()
		if err != nil {
			return err
		}
		res.Impl = append(res.Impl, ImplRate{Name: s.Name, NsPerCase: ns, CasesPerSec: 1e9 / ns})
	}
	return nil
}

func openAdapter(ctx context.Context, s AdapterSpec) (adapter.Adapter, error) {
	if s.InProcess {
		return adapter.NewGo(s.Name), nil
	}
	w, err := adapter.Start(ctx, s.Worker)
	if err != nil {
		return nil, setupError(err)
	}
	return w, nil
}

// timeImpl calibrates with one round, then times about two seconds' worth.
func timeImpl(ctx context.Context, a adapter.Adapter, sample []any) (float64, error) {
	one, _, err := a.Bench(ctx, sample, 1)
	if err != nil {
		return 0, err
	}
	rounds := int(2*time.Second/max(one, time.Millisecond)) + 1
	rounds = min(rounds, 200)
	elapsed, n, err := a.Bench(ctx, sample, rounds)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("adapter %s: bench: %v (count %d)", a.Name(), err, n)
	}
	return float64(elapsed.Nanoseconds()) / float64(n), nil
}

// benchRun is one fuzzing run with the bench's settings, and the driver's CPU
// time over it.
func benchRun(ctx context.Context, cfg BenchConfig, specs []AdapterSpec) (*report.Report, time.Duration) {
	var sink io.Writer = io.Discard
	before, _ := selfUsage()
	rep, code := Run(ctx, Config{Adapters: specs, Workers: cfg.Workers, Batch: cfg.Batch, Duration: cfg.Run, Seed: cfg.Seed,
		CorpusDir: "out/bench-corpus", MinimizeTime: -1, StatusEvery: time.Hour, Stdout: sink, Stderr: cfg.Stderr})
	after, _ := selfUsage()
	if code == ExitSetup {
		return nil, 0
	}
	return rep, after - before
}
