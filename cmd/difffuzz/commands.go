package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/difffuzz/difffuzz/harness/bench"
	"github.com/difffuzz/difffuzz/harness/events"
	"github.com/difffuzz/difffuzz/harness/oneshot"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/harness/retain"
	"github.com/difffuzz/difffuzz/harness/run"
	"github.com/difffuzz/difffuzz/harness/triage"
)

// newFlagSet makes a subcommand's flag set. Its full usage is for -h and
// goes to c.Stdout, so that it can be paged; a bad flag gets one line (see
// parse).
func (c *CLI) newFlagSet(name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(c.Stdout, "usage: difffuzz %s [flags] %s\n\nflags:\n", name, args)
		fs.SetOutput(c.Stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parse parses flags; it returns the exit status to stop with, or -1 to go
// on. A bad flag is one line saying what was wrong and what to write, and a
// pointer to -h, not the whole usage.
func (c *CLI) parse(fs *flag.FlagSet, args []string) int {
	usage := fs.Usage
	fs.Usage = func() {} // flag calls it on every error too
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case errors.Is(err, flag.ErrHelp) && c.listing:
		return c.listFlags(fs)
	case errors.Is(err, flag.ErrHelp):
		usage()
		return triage.ExitOK
	case err != nil:
		fmt.Fprintf(c.Stderr, "difffuzz %s: %s (difffuzz %s -h lists the flags)\n", fs.Name(), flagHint(fs, err), fs.Name())
		return triage.ExitSetup
	}
	return -1
}

// flagHint is flag's error with what to write instead, where flag says
// only "parse error".
func flagHint(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	var name string
	if _, rest, ok := strings.Cut(msg, " for flag -"); ok {
		name, _, _ = strings.Cut(rest, ":")
	}
	if f := fs.Lookup(name); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			switch g.Get().(type) {
			case time.Duration:
				return msg + "; want a duration with its unit, such as 90s, 5m or 1h"
			case int, int64, uint, uint64:
				return msg + "; want a whole number"
			}
		}
	}
	return msg
}

func (c *CLI) run(ctx context.Context, args []string) int {
	fs := c.newFlagSet("run", "")
	var af adapterFlags
	af.register(fs)
	cfg := run.Config{Stdout: c.Stdout, Stderr: c.Stderr}
	fs.DurationVar(&cfg.Duration, "duration", 0, "how long to fuzz (0: until -cases or Ctrl-C)")
	fs.Uint64Var(&cfg.Cases, "cases", 0, "how many cases to run (0: no limit)")
	seed := fs.String("seed", "", "generator seed (default: random, printed)")
	fs.StringVar(&cfg.CorpusDir, "corpus", run.DefaultCorpus, "folder for findings")
	fs.IntVar(&cfg.KeepPerBucket, "keep", retain.DefaultKeepPerBucket, "examples of each bucket written to -corpus (the lowest case index among them); the rest are counted")
	fs.BoolVar(&cfg.KeepAll, "keep-all", false, "write every finding to -corpus, however many (no bound on disk)")
	fs.IntVar(&cfg.ResendOneIn, "resend", run.DefaultResendOneIn, "send one case in `N` again in a later batch, digest-only, to catch an implementation that answers one input two ways (negative: none)")
	fs.IntVar(&cfg.MaxBuckets, "max-buckets", run.DefaultMaxBuckets, "root causes told apart; past them, a new cause's findings go to its kind's overflow bucket (negative: no limit)")
	cfg.Outputs = outputFlags(fs, true)
	fs.StringVar(&cfg.KnownPath, "known", "", "the list of accepted divergences `file`: fail only on new ones and on stale entries")
	fs.BoolVar(&cfg.UpdateKnown, "update-known", false, "rewrite the -known file to the divergences this run finds")
	fs.IntVar(&cfg.Batch, "batch", run.DefaultBatch, "cases per batch")
	fs.IntVar(&cfg.Workers, "workers", 0, "processes per worker-backed adapter (0: one per core)")
	shard := fs.String("shard", "0/1", "take shard `I/N` of the case space")
	fs.DurationVar(&cfg.MinimizeTime, "minimize-time", 0, fmt.Sprintf("the run's total time to minimize its buckets after fuzzing, the most severe and largest first "+
		"(0: 1/%d of the fuzzing time, at least %v and at most %v; negative: none)", run.MinimizeShare, run.MinMinimizeBudget, run.MaxMinimizeBudget))
	fs.IntVar(&cfg.Gen.MaxDepth, "max-depth", 0, "generator nesting depth of ordinary cases (0: its default)")
	fs.IntVar(&cfg.Gen.MaxWidth, "max-width", 0, "generator members or elements per container (0: its default)")
	fs.Float64Var(&cfg.Gen.OutOfDomain, "out-of-domain", 0, "share of out-of-domain cases (0: the generator's default)")
	cpuprofile := fs.String("cpuprofile", "", "write the driver's CPU profile to this `file`")
	eventsTo := fs.String("events", "", "write the run's events as JSON lines to this `file` (- for stdout, the summary then going to stderr): start, progress, bucket, collision, minimized, summary")
	fs.DurationVar(&cfg.StatusEvery, "status-every", 0, fmt.Sprintf("interval of the status line (0: %v at a terminal, where it rewrites itself in place; %v elsewhere, a plain line each)",
		run.DefaultStatusEvery, run.DefaultProgressEvery))
	maxMemoryFlag(fs, &cfg.MaxMemory)
	if code := c.parse(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		return c.usageError(fs, "run takes no arguments, got %q", fs.Args())
	}
	if *eventsTo != "" {
		w, closeEvents, err := c.openEvents(*eventsTo)
		if err != nil {
			return c.usageError(fs, "-events: %v", err)
		}
		defer closeEvents()
		cfg.Events = events.NewWriter(w)
		if *eventsTo == "-" {
			cfg.Stdout = c.Stderr
		}
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return c.usageError(fs, "%v", err)
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	var err error
	if cfg.Adapters, err = af.specs(); err != nil {
		return c.usageError(fs, "%v", err)
	}
	if cfg.Shard, cfg.Shards, err = parseShard(*shard); err != nil {
		return c.usageError(fs, "-shard: %v", err)
	}
	if cfg.Seed, err = parseSeed(*seed); err != nil {
		return c.usageError(fs, "-seed: %v", err)
	}
	if cfg.UpdateKnown && cfg.KnownPath == "" {
		return c.usageError(fs, "-update-known needs -known FILE")
	}
	if err := validateRun(&cfg); err != nil {
		return c.usageError(fs, "%v", err)
	}
	cfg.Command = repeatCommand(args, cfg.Seed, *seed == "")
	cfg.StatusWidth = terminalWidth(c.Stderr)
	_, code := run.Run(ctx, cfg)
	if err := cfg.Events.Err(); err != nil {
		fmt.Fprintf(c.Stderr, "difffuzz run: %v\n", err)
	}
	return code
}

// openEvents opens -events' destination: stdout for "-", else a file made
// anew (its folder too), so that a reader never sees an older run's events.
func (c *CLI) openEvents(to string) (io.Writer, func(), error) {
	if to == "-" {
		return c.Stdout, func() {}, nil
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return nil, nil, err
	}
	f, err := os.Create(to)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// outputFlags makes a flag of every report format; with defaults, a format
// with a default file (the JSON report) is written unless its flag says "".
// A new format registers itself in package report and gets its flag here.
func outputFlags(fs *flag.FlagSet, defaults bool) report.Outputs {
	out := report.Outputs{}
	for _, f := range report.Formats() {
		def := ""
		if defaults {
			def = f.Default
		}
		out[f.Name] = def
		fs.Func(f.Flag, usageWithDefault(f.Usage, def), func(path string) error {
			out[f.Name] = path
			return nil
		})
	}
	return out
}

// usageWithDefault is a flag's help with its default, as flag prints it for
// a flag that has one.
func usageWithDefault(usage, def string) string {
	if def == "" {
		return usage
	}
	return fmt.Sprintf("%s (default %q)", usage, def)
}

func (c *CLI) usageError(fs *flag.FlagSet, format string, a ...any) int {
	fmt.Fprintf(c.Stderr, "difffuzz %s: %s\n", fs.Name(), fmt.Sprintf(format, a...))
	return triage.ExitSetup
}

func parseShard(s string) (uint64, uint64, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.ParseUint(is, 10, 64)
	n, err2 := strconv.ParseUint(ns, 10, 64)
	if !ok || err1 != nil || err2 != nil || n == 0 || i >= n {
		return 0, 0, fmt.Errorf("want I/N with 0 <= I < N, got %q", s)
	}
	return i, n, nil
}

func parseSeed(s string) (uint64, error) {
	if s == "" {
		return rand.Uint64() >> 1, nil
	}
	n, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("want a whole number from 0 to %d, got %q", uint64(math.MaxUint64), s)
	}
	return n, nil
}

// validateRun checks the run's settings before any work starts: ranges, and
// every output path, so that a typo does not surface after an hour's run.
func validateRun(cfg *run.Config) error {
	switch {
	case cfg.Batch <= 0:
		return fmt.Errorf("-batch %d: want at least 1 case a batch", cfg.Batch)
	case cfg.Batch > maxBatch:
		return fmt.Errorf("-batch %d: want at most %d (a batch must fit in one frame)", cfg.Batch, maxBatch)
	case cfg.Workers < 0:
		return fmt.Errorf("-workers %d: want 0 (one per core) or more", cfg.Workers)
	case cfg.Duration < 0:
		return fmt.Errorf("-duration %v: want 0 (no limit) or more", cfg.Duration)
	case cfg.Gen.OutOfDomain < 0 || cfg.Gen.OutOfDomain > 1:
		return fmt.Errorf("-out-of-domain %v: want a share from 0 to 1", cfg.Gen.OutOfDomain)
	}
	for _, f := range report.Formats() {
		if path := cfg.Outputs[f.Name]; path != "" {
			if err := writable(path, false); err != nil {
				return fmt.Errorf("-%s %s: %v", f.Flag, path, err)
			}
		}
	}
	if err := writable(cfg.CorpusDir, true); err != nil {
		return fmt.Errorf("-corpus %s: %v", cfg.CorpusDir, err)
	}
	return nil
}

// maxBatch keeps a batch of the largest generated cases within a frame.
const maxBatch = 65536

// writable reports whether path could be written (as a folder when dir)
// without creating anything: its nearest existing ancestor must be a folder
// this process may write in, and path itself, if it exists, of the right
// kind.
func writable(path string, dir bool) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil {
		switch {
		case dir && !st.IsDir():
			return errors.New("is a file, not a folder")
		case !dir && st.IsDir():
			return errors.New("is a folder, not a file")
		}
		return nil
	}
	for p := filepath.Dir(filepath.Clean(path)); ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err != nil {
			if p == filepath.Dir(p) {
				return err
			}
			continue
		}
		if !st.IsDir() {
			return fmt.Errorf("cannot be made: %s is a file", p)
		}
		if !dirWritable(p) {
			return fmt.Errorf("cannot be made: %s is not writable", p)
		}
		return nil
	}
}

// repeatCommand is the command line that repeats a run: the same flags, with
// the seed made explicit.
func repeatCommand(args []string, seed uint64, addSeed bool) string {
	parts := append([]string{"difffuzz", "run"}, args...)
	if addSeed {
		parts = append(parts, "-seed", strconv.FormatUint(seed, 10))
	}
	for i, p := range parts {
		if p == "" || strings.ContainsAny(p, " \t\"'$") {
			parts[i] = strconv.Quote(p)
		}
	}
	return strings.Join(parts, " ")
}

func (c *CLI) oneShot(name, args string, rest []string) (*oneshot.Config, *flag.FlagSet, int) {
	fs := c.newFlagSet(name, args)
	var af adapterFlags
	af.register(fs)
	cfg := &oneshot.Config{Stdout: c.Stdout, Stderr: c.Stderr}
	switch name {
	case "check":
		fs.BoolVar(&cfg.JSON, "json", false, "print one JSON object per input line")
	case "minimize":
		fs.StringVar(&cfg.CorpusDir, "corpus", "", "folder for the minimized case (default: beside the input)")
		fs.BoolVar(&cfg.Verbose, "v", false, "print what each of the minimizer's passes did: candidates tried, those that still diverged, shrinks, bytes removed, seconds")
	case "replay":
		fs.BoolVar(&cfg.Verbose, "v", false, "also list every case that agrees")
	}
	maxMemoryFlag(fs, &cfg.MaxMemory)
	if code := c.parse(fs, rest); code >= 0 {
		return nil, fs, code
	}
	var err error
	if cfg.Adapters, err = af.specs(); err != nil {
		return nil, fs, c.usageError(fs, "%v", err)
	}
	return cfg, fs, -1
}

func (c *CLI) check(ctx context.Context, args []string) int {
	cfg, fs, code := c.oneShot("check", "[FILE|-]", args)
	if code >= 0 {
		return code
	}
	name, in := "stdin", c.Stdin
	if fs.NArg() > 1 {
		return c.usageError(fs, "at most one FILE")
	}
	if fs.NArg() == 1 && fs.Arg(0) != "-" {
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			return c.usageError(fs, "%v", err)
		}
		defer f.Close()
		name, in = fs.Arg(0), f
	} else if isTerminal(in) {
		fmt.Fprintln(c.Stderr, "difffuzz check: reading cases from the terminal, one line of extended JSON each; end with Ctrl-D (or give a FILE)")
	}
	inputs, err := oneshot.ReadLines(name, in)
	if err != nil {
		fmt.Fprintf(c.Stderr, "difffuzz check: %v\n", err)
		return triage.ExitSetup
	}
	return oneshot.Check(ctx, *cfg, inputs)
}

// isTerminal reports whether r is a terminal, where a silent wait for
// input would look like a hang.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth is the columns of the terminal w is, or 0 when w is no
// terminal (a file, a pipe, a CI log), which then gets plain lines.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	if width, _, err := term.GetSize(int(f.Fd())); err == nil && width > 0 {
		return width
	}
	return 80
}

func (c *CLI) replay(ctx context.Context, args []string) int {
	cfg, fs, code := c.oneShot("replay", "[PATH...]", args)
	if code >= 0 {
		return code
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{run.DefaultCorpus}
	}
	return oneshot.Replay(ctx, *cfg, paths)
}

func (c *CLI) minimize(ctx context.Context, args []string) int {
	cfg, fs, code := c.oneShot("minimize", "FILE", args)
	if code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		return c.usageError(fs, "want exactly one FILE")
	}
	return oneshot.MinimizeFile(ctx, *cfg, fs.Arg(0))
}

func (c *CLI) corpusCmd(args []string) int {
	if len(args) == 0 || args[0] != "merge" {
		fmt.Fprintln(c.Stderr, "usage: difffuzz corpus merge -o OUT [flags] DIR...")
		return triage.ExitSetup
	}
	fs := c.newFlagSet("corpus merge", "DIR...")
	cfg := triage.MergeConfig{Stdout: c.Stdout, Stderr: c.Stderr}
	fs.StringVar(&cfg.Out, "o", "", "the merged corpus `folder` (required)")
	fs.StringVar(&cfg.KnownPath, "known", "", "the list of accepted divergences `file`")
	cfg.Outputs = outputFlags(fs, false)
	if code := c.parse(fs, args[1:]); code >= 0 {
		return code
	}
	if cfg.Out == "" || fs.NArg() == 0 {
		return c.usageError(fs, "want -o OUT and at least one DIR")
	}
	return triage.Merge(cfg, fs.Args())
}

func (c *CLI) bench(ctx context.Context, args []string) int {
	fs := c.newFlagSet("bench", "")
	var af adapterFlags
	af.register(fs)
	cfg := bench.Config{Stdout: c.Stdout, Stderr: c.Stderr}
	fs.Uint64Var(&cfg.Seed, "seed", 1, "generator seed of every phase")
	fs.IntVar(&cfg.Sample, "sample", 4000, "cases each implementation times in process")
	fs.DurationVar(&cfg.Run, "run", 20*time.Second, "measured length of the driver-only run, and of the full runs together (one after each of 3 timings of the implementations)")
	fs.DurationVar(&cfg.Warmup, "warmup", 5*time.Second, "unmeasured start of each run (workers starting, JIT compilation)")
	fs.IntVar(&cfg.Workers, "workers", 0, "processes per worker-backed adapter (0: one per core)")
	fs.IntVar(&cfg.Batch, "batch", 0, "cases per batch (0: the run's default)")
	fs.StringVar(&cfg.Out, "o", "out/bench.json", "write the figures as JSON to this `file`")
	fs.StringVar(&cfg.DivergeWorker, "diverge-worker", "", "the fake worker (go build ./cmd/fakeworker) whose diverge mode measures the rate with "+bench.FindingsShare+" of cases diverging (\"\": leave that out)")
	if code := c.parse(fs, args); code >= 0 {
		return code
	}
	var err error
	if cfg.Adapters, err = af.specs(); err != nil {
		return c.usageError(fs, "%v", err)
	}
	return bench.Run(ctx, cfg)
}

func (c *CLI) promote(args []string) int {
	fs := c.newFlagSet("promote", "FILE")
	category := fs.String("category", "", "the fixture category (default: regression_KIND from the finding's signature)")
	list := fs.String("list", "tests/fixtures/regressions.jsonl", "the regression list the fixture generator reads")
	if code := c.parse(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		return c.usageError(fs, "want exactly one FILE")
	}
	return triage.Promote(fs.Arg(0), *category, *list, c.Stdout, c.Stderr)
}
