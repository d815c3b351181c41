// Package run is the fuzzing loop and nothing else: it generates cases,
// drives them through lanes of adapters in batches, judges each case's
// outcomes, and collects the findings (each written to the corpus before it
// is counted), the counts and the coverage into one report.
//
// A case travels one way through the files: produce.go makes it,
// drive.go runs and judges its batch on a lane, collect.go writes and counts
// what the judge found, minimizing.go minimizes each bucket's example within
// the run's budget and labels the bucket by it, and finish.go reports.
package run

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/collide"
	"github.com/difffuzz/difffuzz/harness/events"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/harness/retain"
	"github.com/difffuzz/difffuzz/internal/memlimit"
)

// Defaults of Config's zero values, defined here alone (the CLI's flags show
// them).
const (
	// DefaultCorpus is beside the JSON report (out/report.json), in a
	// folder of the run's own that version control ignores (out/ is in
	// .gitignore, and in the one difffuzz init writes): findings are a
	// run's output, not sources, and a tracked folder such as the
	// project's seed corpus (corpus/) must not fill up with them.
	DefaultCorpus = "out/corpus"
	// DefaultMaxBuckets is Config.MaxBuckets's default: far more root
	// causes than a real implementation shows (docs/survey.md lists a
	// library's by the handful), few enough that their examples and diffs
	// stay a few megabytes.
	DefaultMaxBuckets = 1000
)

// DefaultBatch is the cases of a batch when Config.Batch is 0. It is
// large because the driver and the workers share the cores: each batch is
// a round of wake-ups and switches between processes, each of which then
// runs with cold caches. On 2 cores, batches of 2,048 did more cases a
// second than 256, and the harness's own share of a run's CPU fell, most of
// it the driver's (docs/performance.md). The price is a longer wait for a hung
// batch (batch_timeout + n * case_timeout: 51 s at the defaults) and a
// coarser -cases in an interrupted run's repeat line.
const DefaultBatch = 2048

// DefaultWorkers is the lanes of a run when Config.Workers is 0: one per
// core. A lane already keeps a worker process per language busy at once,
// so that many lanes keep every core busy; one more lane only adds
// processes that preempt each other mid-batch (on 2 cores, 3 lanes did
// fewer cases a second than 2, at more CPU a case: docs/performance.md).
func DefaultWorkers() int { return runtime.NumCPU() }

// Config is a fuzzing run. Zero values mean the defaults above.
type Config struct {
	// Adapters in order; the first is the reference that reports call "left".
	Adapters []adapter.Spec
	// Workers is how many processes each worker-backed adapter runs (lanes);
	// 0 means DefaultWorkers().
	Workers int
	// Batch is the number of cases a batch; 0 means DefaultBatch.
	Batch int
	// Duration bounds the run; 0 means no bound (then Cases or Ctrl-C ends it).
	Duration time.Duration
	// Cases bounds the number of cases; 0 means no bound.
	Cases uint64
	// Seed of the generator; every case is a function of (Seed, index).
	Seed uint64
	// Shard and Shards split the index space: this run takes the indexes i
	// with i % Shards == Shard. Shards 0 means 1.
	Shard, Shards uint64
	// Gen configures the generator; its Seed is overwritten by Seed.
	Gen gen.Config
	// CorpusDir receives the findings; "" means DefaultCorpus.
	CorpusDir string
	// KeepPerBucket is how many examples of each bucket (signature) are
	// written to CorpusDir, the lowest case index always among them; the
	// rest are counted. 0 means retain.DefaultKeepPerBucket; KeepAll writes every
	// finding, as difffuzz did before buckets had causes.
	KeepPerBucket int
	KeepAll       bool
	// Outputs are the files the report is written to, by format.
	Outputs report.Outputs
	// KnownPath is the list of accepted divergences; "" means none. With it,
	// only new divergences (and, in an unsharded run, stale entries) fail the
	// run. UpdateKnown rewrites the list to what this run found.
	KnownPath   string
	UpdateKnown bool
	// MinimizeTime is the run's budget for minimizing its buckets after
	// it fuzzed, all of them together, spent on the most severe and then
	// the largest first (minimizing.go); a bucket the budget does not
	// reach is reported as it came, and says so. 0 means the default,
	// MinimizeBudget: a quarter of the time the run fuzzed, at least
	// MinMinimizeBudget and at most MaxMinimizeBudget; negative means
	// none.
	MinimizeTime time.Duration
	// MaxRestarts bounds consecutive failed restarts of a worker before the
	// run gives up with a setup error; 0 means lane.DefaultMaxRestarts.
	MaxRestarts int
	// Warmup, if positive, is the start of the run that the report's
	// SteadyRate leaves out.
	Warmup time.Duration
	// Window, if positive (with Warmup), cuts the span after the warm-up
	// into windows of this length too (report.Steady.Windows), so that
	// the bench can leave out those that a busy host slowed down.
	Window time.Duration
	// CollisionSlots sizes the collision oracle's memory (docs/triage.md,
	// "Collisions"): the slots of its table of recent cases' reference
	// digests, rounded up to a power of two, 16 bytes each, fixed however
	// long the run (no more per million cases), plus 1.5 MiB for each
	// implementation that deviates. A case stays within reach of a later
	// one it collides with until another case's digest lands on its slot:
	// past k more cases with probability e^(-k/slots). 0 means
	// collide.DefaultSlots (2^16: 1 MiB, 90% still there 6,900 cases on,
	// half 45,000 on); negative turns the oracle off.
	CollisionSlots int
	// ResendOneIn is the resend share (resend.go): one case in ResendOneIn,
	// chosen by a hash of (Seed, index), is sent again, digest-only, in a
	// later batch (on another lane when there are several), and an
	// implementation that answers it otherwise is a nondeterministic
	// finding. 0 means DefaultResendOneIn; negative means none.
	ResendOneIn int
	// MaxBuckets bounds the run's buckets (root causes): past it, a new
	// cause's findings are counted in its kind's overflow bucket
	// (compare.OverflowCause), which the summary explains. 0 means
	// DefaultMaxBuckets; negative means no bound.
	MaxBuckets int
	// StatusEvery is the interval of the status line; 0 means
	// DefaultStatusEvery at a terminal (StatusWidth), DefaultProgressEvery
	// elsewhere.
	StatusEvery time.Duration
	// StatusWidth, when positive, says Stderr is a terminal of that many
	// columns: the status line is then rewritten in place (\r) and cut to
	// fit. 0 means a file or a pipe, where each status line is a line of
	// its own (no \r) for a log to keep.
	StatusWidth int
	// Command is the command line that repeats this run, for the report.
	Command string
	// MaxMemory is the driver's memory budget in bytes: the Go runtime's
	// soft memory limit (unless GOMEMLIMIT is set), a quarter of it for
	// the batches in flight and the findings waiting to be written, and
	// the resident set past which the run stops with an error saying so
	// (memory.go). 0 means memlimit.Default; negative means no budget.
	MaxMemory int64

	Stdout io.Writer // summary
	Stderr io.Writer // status lines and logs
	// Events receives the run's machine-readable events (-events); nil
	// means none.
	Events *events.Writer

	status *statusWriter // Stderr, as setDefaults wraps it
}

func (c *Config) setDefaults() {
	if c.Workers <= 0 {
		c.Workers = DefaultWorkers()
	}
	if c.Batch <= 0 {
		c.Batch = DefaultBatch
	}
	if c.Shards == 0 {
		c.Shards = 1
	}
	if c.CorpusDir == "" {
		c.CorpusDir = DefaultCorpus
	}
	if c.KeepPerBucket <= 0 {
		c.KeepPerBucket = retain.DefaultKeepPerBucket
	}
	if c.KeepAll {
		c.KeepPerBucket = 0 // the keeper's "keep everything"
	}
	if c.CollisionSlots == 0 {
		c.CollisionSlots = collide.DefaultSlots
	}
	if c.MaxMemory == 0 {
		c.MaxMemory = memlimit.Default
	}
	if c.MaxBuckets == 0 {
		c.MaxBuckets = DefaultMaxBuckets
	}
	if c.ResendOneIn == 0 {
		c.ResendOneIn = DefaultResendOneIn
	}
	if c.StatusEvery <= 0 {
		c.StatusEvery = DefaultProgressEvery
		if c.StatusWidth > 0 {
			c.StatusEvery = DefaultStatusEvery
		}
	}
	if c.Stdout == nil {
		c.Stdout = io.Discard
	}
	if c.Stderr == nil {
		c.Stderr = io.Discard
	}
	c.status = newStatusWriter(c.Stderr, c.StatusWidth)
	c.Stderr = c.status
	c.Gen.Seed = c.Seed
}

// contract is the contract the run is judged by, and its cases drawn for:
// the reference's (-contract, or the config's contract key), this
// project's when none is set. A reference in process follows it; a worker
// follows the contract its own command line gives it, which the driver
// cannot see: the run's first line says which contract it is held to
// (workerReference), and the generator, the labels and the verdict follow
// it all the same, never this project's in its place.
func (c *Config) contract() contract.Contract {
	if len(c.Adapters) > 0 && c.Adapters[0].Contract.Name != "" {
		return c.Adapters[0].Contract
	}
	return contract.Default
}

// workerReference is what the run's first line adds when its reference is
// a worker held to another contract than this project's: that the worker
// must follow it itself.
func (c *Config) workerReference() string {
	if len(c.Adapters) == 0 || c.Adapters[0].InProcess || c.contract().Name == contract.Default.Name {
		return ""
	}
	return fmt.Sprintf(" (the reference %s is a worker: its own command line must make it follow %s)", c.Adapters[0].Name, c.contract().Name)
}
