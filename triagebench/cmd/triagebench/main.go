// Triagebench measures difffuzz's triage on code nobody here wrote:
// `make triage-bench` runs it. Each implementation of the benchmark
// (triagebench/impls/NAME.toml: canonical JSON written the way real SDK
// code is, or a public library at a pinned version) lists its true causes,
// each with the label difffuzz should give it. For each implementation and
// each model it has a worker for (native, text), triagebench runs
//
//	difffuzz run -adapters go,NAME -adapter 'NAME=COMMAND' -duration 60s -seed 1 -corpus DIR -report FILE
//
// against the in-process reference, reads the JSON report, replays the
// corpus (difffuzz replay: each kept example of a bucket judged again), and
// scores the buckets against the true causes:
//
//   - causes found: true causes some bucket is labeled with;
//   - buckets per cause: the buckets over the (cause, model) pairs found;
//   - labels right: buckets whose "KIND: CAUSE" matches exactly one true
//     cause's label;
//   - mixed: buckets whose kept examples, replayed, show more than one label;
//   - overflow: the kinds' overflow buckets, past the run's bucket limit;
//   - minimized: buckets whose example the run minimized to the end within
//     its default budget, and the time it took (minimize_seconds of the
//     report; "n/a" for the buckets a report gives no time for).
//
// It prints a Markdown table, one row an implementation and the total, and
// each of the targets with PASS or FAIL, and ends with
//
//	triage-bench: PASS|FAIL: N implementations, F/C true causes found, B buckets, R buckets per cause, L labels right
//
// The table also goes to OUT/table.md, and with -md FILE between the lines
// "<!-- triage-bench LABEL begin -->" and "<!-- triage-bench LABEL end -->"
// of FILE (-md-label, default "latest"). Every run's corpus, report and log
// are kept under -out.
//
// A run that is still minimizing -grace after its duration is interrupted
// as Ctrl-C does: it writes its report, and the buckets it had no time for
// count as not minimized.
//
// The exit status is 0 whatever the targets say, unless -strict, where a
// FAIL exits 1; 2 on a setup error (a bad implementation file, or a run
// that did not report: the other implementations still run, and the table
// shows the error, but -md writes nothing).
//
// Flags:
//
//	-duration D   each run's length (60s)
//	-short        a smoke test: 5 s a run, 1 minute's grace
//	-grace D      how long a run may minimize after its duration (10m)
//	-seed S       the generator seed of every run (1)
//	-only A,B     these implementations only
//	-impls DIR    the implementations' files (triagebench/impls)
//	-out DIR      every run's files (out/triagebench)
//	-md FILE      write the table into FILE between the label's markers
//	-md-label L   the markers' label (latest)
//	-strict       exit 1 when a target fails
//	-rescore      score what an earlier benchmark left in -out, running
//	              nothing (after a change to a cause list)
//	-difffuzz     the driver (bin/difffuzz)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/internal/atomicfile"
)

// Bench is one benchmark: its settings, and where it writes.
type Bench struct {
	Difffuzz string        // the driver's executable
	Impls    string        // folder of the implementations' files
	Duration time.Duration // each run's length
	// Grace is how long a run may go on minimizing past Duration before
	// it is interrupted; 0 means no limit.
	Grace   time.Duration
	Seed    string   // the generator's seed, the same for every run
	Only    []string // implementations to run; empty means all
	Out     string   // folder for every run's files
	MD      string   // page to write the table into; "" means none
	MDLabel string   // the label of the page's markers
	// Rescore scores what an earlier benchmark left in Out without
	// running anything: for a cause list being corrected.
	Rescore bool
	Stdout  io.Writer // the results
	Stderr  io.Writer // progress
}

func main() {
	b := Bench{Stdout: os.Stdout, Stderr: os.Stderr}
	only, short, strict := "", false, false
	flag.StringVar(&b.Difffuzz, "difffuzz", "bin/difffuzz", "the difffuzz executable")
	flag.StringVar(&b.Impls, "impls", "triagebench/impls", "folder of the implementations' files (NAME.toml)")
	flag.DurationVar(&b.Duration, "duration", 60*time.Second, "each run's length")
	flag.DurationVar(&b.Grace, "grace", 10*time.Minute, "how long a run may minimize after its duration before it is interrupted (0: no limit)")
	flag.BoolVar(&short, "short", false, "a smoke test: 5 s a run, 1 minute's grace")
	flag.StringVar(&b.Seed, "seed", "1", "the generator seed of every run")
	flag.StringVar(&only, "only", "", "comma-separated implementations to run (default: all)")
	flag.StringVar(&b.Out, "out", "out/triagebench", "folder for every run's corpus, report and logs")
	flag.StringVar(&b.MD, "md", "", "write the table into this Markdown `file`, between its markers")
	flag.StringVar(&b.MDLabel, "md-label", "latest", "the label of -md's markers (\"<!-- triage-bench LABEL begin -->\")")
	flag.BoolVar(&strict, "strict", false, "exit 1 when a target fails")
	flag.BoolVar(&b.Rescore, "rescore", false, "score what an earlier benchmark left in -out, without running anything")
	flag.Parse()
	if short {
		b.Duration, b.Grace = 5*time.Second, time.Minute
	}
	if only != "" {
		b.Only = strings.Split(only, ",")
	}
	scores, err := b.Run(context.Background())
	if err != nil {
		fmt.Fprintf(os.Stderr, "triage-bench: %v\n", err)
		os.Exit(2)
	}
	if strict && !passed(verdicts(scores)) {
		os.Exit(1)
	}
}

// Run runs every chosen implementation in each of its models, one run at a
// time (each run uses every core), and writes the results.
func (b *Bench) Run(ctx context.Context) ([]Score, error) {
	impls, err := b.chosen()
	if err != nil {
		return nil, err
	}
	var scores []Score
	var errs []error
	for _, im := range impls {
		s, err := b.implementation(ctx, im)
		if err != nil {
			errs = append(errs, err)
			fmt.Fprintf(b.Stderr, "triage-bench: %v\n", err)
		}
		scores = append(scores, s)
	}
	table := Table(impls, scores)
	fmt.Fprint(b.Stdout, table)
	if d := Details(scores); d != "" {
		fmt.Fprintf(b.Stdout, "\n%s", d)
	}
	if err := atomicfile.WriteAll(filepath.Join(b.Out, "table.md"), []byte(table)); err != nil {
		return scores, err
	}
	if len(errs) > 0 { // a page with a run missing would mislead
		return scores, errors.Join(errs...)
	}
	if b.MD == "" {
		return scores, nil
	}
	body := "Made by `" + b.Command() + "` on " + time.Now().UTC().Format("2006-01-02") + ".\n\n" + table
	return scores, writeMarkdown(b.MD, b.MDLabel, body)
}

// implementation runs one implementation in each of its models and scores
// it; a run that fails leaves the score with its error, and the others go on.
func (b *Bench) implementation(ctx context.Context, im Impl) (Score, error) {
	var runs []Run
	for _, m := range im.Models() {
		r, err := b.run(ctx, im, m)
		if err != nil {
			err = fmt.Errorf("%s (%s): %w", im.Name, m, err)
			return Score{Name: im.Name, Causes: len(im.Causes), Err: err.Error()}, err
		}
		runs = append(runs, r)
	}
	s := score(im, runs)
	fmt.Fprintf(b.Stderr, "triage-bench: %s: %d/%d causes found, %d buckets\n", im.Name, s.Found, s.Causes, s.Buckets)
	return s, nil
}

// chosen are the implementations to run: all of Impls, or those of Only.
func (b *Bench) chosen() ([]Impl, error) {
	all, err := LoadImpls(b.Impls)
	if err != nil {
		return nil, err
	}
	if len(b.Only) == 0 {
		return all, nil
	}
	var out []Impl
	for _, name := range b.Only {
		i := slices.IndexFunc(all, func(im Impl) bool { return im.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("-only: no implementation %q in %s", name, b.Impls)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// Command is the command line that makes the results again, for the page.
func (b *Bench) Command() string {
	args := []string{"go run ./triagebench/cmd/triagebench", "-duration", b.Duration.String(), "-grace", b.Grace.String(), "-seed", b.Seed}
	if len(b.Only) > 0 {
		args = append(args, "-only", strings.Join(b.Only, ","))
	}
	return strings.Join(args, " ")
}

// run runs one implementation in one model, then replays its corpus, and
// returns its buckets; with Rescore, it only reads what an earlier run left.
func (b *Bench) run(ctx context.Context, im Impl, model string) (Run, error) {
	dir := filepath.Join(b.Out, im.Name+"-"+model)
	if !b.Rescore {
		if err := b.fuzz(ctx, dir, im, model); err != nil {
			return Run{}, err
		}
	}
	return read(dir, im, model)
}

// fuzz makes dir afresh and writes into it the run's corpus, report and
// log, and the replay of its corpus.
func (b *Bench) fuzz(ctx context.Context, dir string, im Impl, model string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	corpusDir, repPath := filepath.Join(dir, "corpus"), filepath.Join(dir, "report.json")
	fmt.Fprintf(b.Stderr, "triage-bench: %s in the %s model, %s\n", im.Name, model, b.Duration)
	// A run exits 1 when it finds a divergence, as it should, and replay
	// when a case diverges, which every kept one should: the report and
	// the replay's lines say the rest.
	_ = b.difffuzz(ctx, filepath.Join(dir, "run.log"), b.interruptAfter(), b.adapterArgs("run", im, model,
		"-duration", b.Duration.String(), "-seed", b.Seed, "-corpus", corpusDir, "-report", repPath)...)
	if _, err := os.Stat(corpusDir); err != nil {
		return nil // nothing to replay; read says whether there is a report
	}
	_ = b.difffuzz(ctx, filepath.Join(dir, "replay.log"), 0, b.adapterArgs("replay", im, model, corpusDir)...)
	return nil
}

// read reads a run's report, corpus and replay from dir.
func read(dir string, im Impl, model string) (Run, error) {
	rep, err := readReport(filepath.Join(dir, "report.json"))
	if err != nil {
		return Run{}, fmt.Errorf("the run wrote no report (%w); see %s", err, filepath.Join(dir, "run.log"))
	}
	if rep.Error != "" {
		return Run{}, fmt.Errorf("the run failed: %s", rep.Error)
	}
	r := Run{Model: model, Cases: rep.Cases, Buckets: buckets(rep, im.Name)}
	if len(r.Buckets) == 0 {
		return r, nil
	}
	corpusDir, logPath := filepath.Join(dir, "corpus"), filepath.Join(dir, "replay.log")
	kept, err := keptFiles(corpusDir, rep)
	if err != nil {
		return r, err
	}
	f, err := os.Open(logPath)
	if err != nil {
		return r, err
	}
	defer f.Close()
	out, err := replayed(f)
	if err != nil {
		return r, fmt.Errorf("%s: %w", logPath, err)
	}
	if len(out) == 0 {
		return r, fmt.Errorf("the replay of %s showed no divergence; see %s", corpusDir, logPath)
	}
	recheck(r.Buckets, kept, out, im.Name)
	return r, nil
}

// adapterArgs is a difffuzz command line comparing the in-process
// reference with the implementation in model, then more.
func (b *Bench) adapterArgs(command string, im Impl, model string, more ...string) []string {
	args := []string{command, "-adapters", "go," + im.Name, "-adapter", im.Name + "=" + im.Commands[model]}
	return append(args, more...)
}

// interruptAfter is when a run is interrupted: its duration and the grace;
// 0 means never.
func (b *Bench) interruptAfter() time.Duration {
	if b.Grace <= 0 {
		return 0
	}
	return b.Duration + b.Grace
}

// difffuzz runs the driver with args, its output to the file logPath,
// interrupting it (SIGINT, as Ctrl-C: it still writes its report) after
// interrupt unless that is 0, and killing it if it has not stopped a
// minute later. The error is the driver's exit (which says divergence as
// much as failure) or a failure to start it.
func (b *Bench) difffuzz(ctx context.Context, logPath string, interrupt time.Duration, args ...string) error {
	log, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer log.Close()
	if interrupt > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, interrupt)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, b.Difffuzz, args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Minute // then killed
	fmt.Fprintf(log, "$ %s %s\n", b.Difffuzz, strings.Join(args, " "))
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("%s exited %d", args[0], exit.ExitCode())
	}
	return err
}
