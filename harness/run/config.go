// Package harness wires the pieces of difffuzz together: it starts the
// adapters, streams generated cases through them in batches, compares their
// outcomes, keeps every disagreement in the corpus, groups findings into
// distinct bugs, minimizes them and reports. It also runs the one-shot
// commands over given inputs: check, replay, minimize.
package harness

import (
	"io"
	"runtime"
	"sync"
	"time"

	"difffuzz/harness/adapter"
	"difffuzz/harness/gen"
)

// AdapterSpec names one adapter of a run: the in-process Go implementation,
// or a worker process.
type AdapterSpec struct {
	Name      string
	InProcess bool           // the Go implementation, in the driver's process
	Build     string         // the shell command that builds the worker, for messages
	Worker    adapter.Config // for worker-backed adapters
}

// Config is a fuzzing run. Zero values mean the documented defaults.
type Config struct {
	// Adapters in order; the first is the reference that reports call "left".
	Adapters []AdapterSpec
	// Workers is how many processes each worker-backed adapter runs (lanes);
	// 0 means runtime.NumCPU()+1, so that every core stays busy.
	Workers int
	// Batch is the number of cases a batch; 0 means 256.
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
	// CorpusDir receives every finding; "" means "corpus".
	CorpusDir string
	// ReportPath receives the JSON report, JUnitPath the JUnit XML and
	// SummaryPath the Markdown summary; "" means none.
	ReportPath, JUnitPath, SummaryPath string
	// KnownPath is the list of accepted divergences; "" means none. With it,
	// only new divergences (and, in an unsharded run, stale entries) fail the
	// run. UpdateKnown rewrites the list to what this run found.
	KnownPath   string
	UpdateKnown bool
	// MinimizeTime bounds the minimization of each distinct finding at the
	// end of the run; 0 means 10s, negative means no minimization.
	MinimizeTime time.Duration
	// MaxRestarts bounds consecutive failed restarts of a worker before the
	// run gives up with a setup error; 0 means 3.
	MaxRestarts int
	// Warmup, if positive, is the start of the run that the report's
	// SteadyRate leaves out.
	Warmup time.Duration
	// StatusEvery is the interval of the status line; 0 means 1s.
	StatusEvery time.Duration
	// Command is the command line that repeats this run, for the report.
	Command string

	Stdout io.Writer // summary
	Stderr io.Writer // status lines and logs
}

func (c *Config) setDefaults() {
	if c.Workers <= 0 {
		c.Workers = runtime.NumCPU() + 1
	}
	if c.Batch <= 0 {
		c.Batch = 256
	}
	if c.Shards == 0 {
		c.Shards = 1
	}
	if c.CorpusDir == "" {
		c.CorpusDir = "corpus"
	}
	if c.MinimizeTime == 0 {
		c.MinimizeTime = 10 * time.Second
	}
	if c.MaxRestarts <= 0 {
		c.MaxRestarts = 3
	}
	if c.StatusEvery <= 0 {
		c.StatusEvery = time.Second
	}
	if c.Stdout == nil {
		c.Stdout = io.Discard
	}
	if c.Stderr == nil {
		c.Stderr = io.Discard
	}
	c.Stderr = &lockedWriter{w: c.Stderr}
	c.Gen.Seed = c.Seed
}

// lockedWriter serializes writes: the lanes log worker failures while the
// loop prints status lines, and a line must never be cut by another.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (lw *lockedWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.w.Write(p)
}

// Exit statuses of the command, decided by the harness.
const (
	ExitOK         = 0 // every adapter agreed on every case
	ExitDivergence = 1 // at least one divergence
	ExitSetup      = 2 // usage, setup or internal error
	// ExitInterrupted is a run stopped by Ctrl-C (or SIGTERM) after it wrote
	// every finding and its report, 128+SIGINT as shells report it: a CI job
	// must not take an interrupted run for a clean one.
	ExitInterrupted = 130
)
