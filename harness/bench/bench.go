// Package bench is "difffuzz bench": what each implementation costs alone,
// what the driver costs, what the full run achieves, and how close the full
// run comes to the implementations' own cost, in CPU time.
package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/internal/atomicfile"
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
	// DivergeWorker is the fake worker (cmd/fakeworker) whose diverge mode
	// the findings phase runs; "" leaves the phase out.
	DivergeWorker string
	Stdout        io.Writer
	Stderr        io.Writer
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
	// Findings is what a bug that shows in a tenth of the cases costs the
	// rate; nil without Config.DivergeWorker.
	Findings *Findings `json:"findings,omitempty"`
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

// Run runs the measurements and prints them, "ratio: X.XX" last. The
// driver-only run and each pair are printed as they end (a bench takes a
// minute or more), the rest once everything is measured.
func Run(ctx context.Context, cfg Config) int {
	cfg = cfg.withDefaults()
	m, err := measure(ctx, cfg, progress{
		driver: func(rate, cores float64) { printDriver(cfg.Stdout, rate, cores) },
		pair:   func(k int, p Pair) { printPair(cfg.Stdout, k, p) },
	})
	if err != nil {
		return benchFailed(cfg, err)
	}
	if err := measureFindings(ctx, cfg, m.res); err != nil {
		return benchFailed(cfg, err)
	}
	printSummary(cfg.Stdout, cfg, m)
	printFindings(cfg.Stdout, m.res.Findings)
	if cfg.Out != "" {
		data, _ := json.MarshalIndent(m.res, "", "  ")
		if err := atomicfile.WriteAll(cfg.Out, append(data, '\n')); err != nil {
			fmt.Fprintf(cfg.Stderr, "difffuzz bench: %v\n", err)
			return triage.ExitSetup
		}
	}
	printRatios(cfg.Stdout, m.res)
	return triage.ExitOK
}

// withDefaults is cfg with its zero fields at their defaults.
func (cfg Config) withDefaults() Config {
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
	return cfg
}

// phaseError is a phase of the bench that failed: which names it, as the
// message's start ("the full run", "timing the implementations:").
type phaseError struct {
	which string
	err   error
}

func (e *phaseError) Error() string { return e.which + " " + e.err.Error() }
func (e *phaseError) Unwrap() error { return e.err }

// benchFailed reports that a run of the bench failed, and the exit status.
func benchFailed(cfg Config, err error) int {
	fmt.Fprintf(cfg.Stderr, "difffuzz bench: %v; no ratio\n", err)
	if errors.Is(err, errInterrupted) {
		return triage.ExitInterrupted
	}
	return triage.ExitSetup
}
