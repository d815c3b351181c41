// Mutanthunt measures difffuzz's fuzzing power on the mutant zoo (package zoo):
// `make mutants` runs it. For each mutant it runs
//
//	difffuzz run -adapters go,mutant -adapter 'mutant=bin/mutant NAME' -duration 60s -seed 1 ...
//
// stops the run (as Ctrl-C does) as soon as the first divergence is
// reported, takes the seconds and cases to it from the run's JSON report
// (first_divergence_seconds, first_divergence_cases), then minimizes that
// finding with `difffuzz minimize`, bounded by -minimize-time. A collision
// mutant (zoo.Collides: its bug gives two calls one digest) is hunted for
// its first collision instead (first_collision_seconds and _cases), and
// its pair minimized; its row shows both inputs, joined by " ≍ ". A
// stateful mutant (zoo.Stateful: it answers one input two ways) is hunted
// for its first nondeterministic bucket, timed by the event, its example
// kept as found. It prints one line per mutant and ends with
//
//	mutants: F/N found, median S s
//
// where the median runs over every mutant, one not found counting as
// slower than any found. Every run's corpus, report and log are kept under
// -out, with a Markdown table of the results (table.md). With -md PATH it
// also writes the results as a page, with the command that made it, as
// `make mutants` does to docs/mutants.md; a partial hunt (-only) should not
// rewrite that page, so give it an empty -md, as in
//
//	make mutants MUTANT_ARGS="-only float-17g -md="
//
// The exit status is 0 when every mutant was found, 1 when one was not, 2 on
// a setup error.
//
// Flags:
//
//	-duration D       the longest hunt of one mutant (60s)
//	-cases N          the most cases of one hunt (0: no limit)
//	-minimize-time D  the longest minimization of one finding (3m)
//	-seed S           the generator seed of every hunt (1)
//	-only A,B         hunt these mutants only
//	-out DIR          every run's files (out/mutants)
//	-md PATH          write the results page there (empty: none)
//	-difffuzz, -mutant, -config   the programs and difffuzz's adapter config
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/difffuzz/difffuzz/adapters/go/zoo"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/events"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/internal/atomicfile"
	"github.com/difffuzz/difffuzz/internal/clip"
	"github.com/difffuzz/difffuzz/value"
)

// Hunt is one hunt over the zoo.
type Hunt struct {
	Difffuzz     string        // the driver's executable
	Mutant       string        // the mutant worker's executable
	Config       string        // difffuzz's adapter config; "" means its default
	Duration     time.Duration // the longest hunt of one mutant
	Cases        uint64        // the most cases of one hunt; 0 means no limit
	MinimizeTime time.Duration // the longest minimization of one finding
	Seed         string        // the generator's seed, the same for every mutant
	Out          string        // folder for every run's files
	Only         []string      // mutants to hunt; empty means all
	MD           string        // the results page (Markdown); "" means none
	Stdout       io.Writer     // the results
	Stderr       io.Writer     // logs
}

// Result is one mutant's hunt.
type Result struct {
	Name, Desc string
	Found      bool
	Seconds    float64 // to the first divergence
	Cases      uint64  // run by the end of the batch that held it
	Signature  string  // the first divergence's signature
	Minimized  string  // the minimized input in extended JSON; "" if not minimized
	Note       string  // why not found or not minimized, for people
}

func main() {
	h := Hunt{Stdout: os.Stdout, Stderr: os.Stderr}
	only := ""
	flag.StringVar(&h.Difffuzz, "difffuzz", "bin/difffuzz", "the difffuzz executable")
	flag.StringVar(&h.Mutant, "mutant", "bin/mutant", "the mutant worker executable")
	flag.StringVar(&h.Config, "config", "", "difffuzz's adapter config (default: its own default)")
	flag.DurationVar(&h.Duration, "duration", 60*time.Second, "the longest hunt of one mutant")
	flag.Uint64Var(&h.Cases, "cases", 0, "the most cases of one hunt (0: no limit)")
	flag.DurationVar(&h.MinimizeTime, "minimize-time", 3*time.Minute, "the longest minimization of one finding (text-over-1mib, whose candidates are 1 MiB each, takes about 105 s to its smallest)")
	flag.StringVar(&h.Seed, "seed", "1", "the generator seed of every hunt")
	flag.StringVar(&h.Out, "out", "out/mutants", "folder for every run's corpus, report and log")
	flag.StringVar(&only, "only", "", "comma-separated mutants to hunt (default: all)")
	flag.StringVar(&h.MD, "md", "", "write the results as a Markdown page to this file (make mutants: docs/mutants.md)")
	flag.Parse()
	if only != "" {
		h.Only = strings.Split(only, ",")
	}
	results, err := h.Run(context.Background())
	if err != nil {
		fmt.Fprintf(os.Stderr, "hunt: %v\n", err)
		os.Exit(2)
	}
	for _, r := range results {
		if !r.Found {
			os.Exit(1)
		}
	}
}

// Run hunts every mutant in turn (one at a time: each run uses every core).
func (h *Hunt) Run(ctx context.Context) ([]Result, error) {
	var ms []zoo.Mutant
	for _, m := range zoo.Mutants {
		if len(h.Only) == 0 || slices.Contains(h.Only, m.Name) {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("no mutant named %v", h.Only)
	}
	start := time.Now()
	var results []Result
	for _, m := range ms {
		r, err := h.one(ctx, m)
		if err != nil {
			return results, fmt.Errorf("%s: %w", m.Name, err)
		}
		fmt.Fprintln(h.Stdout, r.Line(h.Duration))
		results = append(results, r)
	}
	fmt.Fprintln(h.Stdout, Summary(results))
	if err := atomicfile.Write(filepath.Join(h.Out, "table.md"), []byte(Table(results, h.Duration))); err != nil {
		return results, err
	}
	if h.MD == "" {
		return results, nil
	}
	page := Markdown(results, Page{Command: h.Command(), Limit: h.Duration, Took: time.Since(start)})
	return results, atomicfile.WriteAll(h.MD, []byte(page))
}

// Command is the command line that makes the hunt again, for its page: the
// flags that change the results, the programs and folders left out.
func (h *Hunt) Command() string {
	args := []string{"go run ./cmd/mutanthunt", "-duration", h.Duration.String(), "-minimize-time", h.MinimizeTime.String(), "-seed", h.Seed}
	if h.Cases > 0 {
		args = append(args, "-cases", fmt.Sprint(h.Cases))
	}
	if len(h.Only) > 0 {
		args = append(args, "-only", strings.Join(h.Only, ","))
	}
	if h.Config != "" {
		args = append(args, "-config", h.Config)
	}
	if h.MD != "" {
		args = append(args, "-md", h.MD)
	}
	return strings.Join(args, " ")
}

// huntBatch is the cases of a hunt's batch. A hunt is timed to its first
// divergence and counts cases to the end of the batch that held it, so it
// keeps the small batches of one-shot work rather than the fuzzing run's
// default, which buys throughput with batches eight times longer.
const huntBatch = panel.DefaultBatch

// args is a difffuzz command line comparing the in-process Go with mutant
// name, then more.
func (h *Hunt) args(command, name string, more ...string) []string {
	args := []string{command, "-adapters", "go,mutant", "-adapter", "mutant=" + h.Mutant + " " + name}
	if h.Config != "" {
		args = append(args, "-config", h.Config)
	}
	return append(args, more...)
}

// one hunts one mutant: a run stopped at its first divergence, then a
// minimization of that finding.
func (h *Hunt) one(ctx context.Context, m zoo.Mutant) (Result, error) {
	r := Result{Name: m.Name, Desc: m.Desc}
	dir := filepath.Join(h.Out, m.Name)
	if err := os.RemoveAll(dir); err != nil {
		return r, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, err
	}
	repPath := filepath.Join(dir, "report.json")
	firstSig, at, err := h.run(ctx, dir, m.Name, repPath, wanted(m.Name))
	if err != nil {
		return r, err
	}
	data, err := os.ReadFile(repPath)
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "run.log"))
		return r, fmt.Errorf("the run wrote no report: %w; its log ends: %s", err, lastLine(string(log)))
	}
	var rep report.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return r, fmt.Errorf("%s: %w", repPath, err)
	}
	if rep.Error != "" {
		return r, fmt.Errorf("the run failed: %s", rep.Error)
	}
	if zoo.Collides(m.Name) {
		return h.collision(ctx, r, dir, &rep, firstSig)
	}
	if zoo.Stateful(m.Name) {
		return nondeterministic(r, &rep, firstSig, at), nil
	}
	if rep.Divergences == 0 || len(rep.Distinct) == 0 {
		r.Note = fmt.Sprintf("not found in %d cases", rep.Cases)
		return r, nil
	}
	r.Found, r.Seconds, r.Cases = true, rep.FirstDivergenceSeconds, rep.FirstDivergenceCases
	first := rep.Distinct[0]
	for _, g := range rep.Distinct { // the report sorts groups by count: find the first
		if g.Signature.String() == firstSig {
			first = g
		}
	}
	r.Signature = first.Signature.String()
	r.Minimized, r.Note = h.minimize(ctx, dir, m.Name, first.First)
	return r, nil
}

// wanted is the event that ends mutant name's hunt: a collision for a
// collision mutant, a nondeterministic bucket for a stateful one, else any
// new bucket.
func wanted(name string) func(events.Event) bool {
	switch {
	case zoo.Collides(name):
		return func(e events.Event) bool { return e.Type == events.TypeCollision }
	case zoo.Stateful(name):
		return func(e events.Event) bool { return e.Bucket.Kind == nondeterministicKind }
	}
	return func(events.Event) bool { return true }
}

// nondeterministicKind is compare.KindNondeterministic's word in a report.
const nondeterministicKind = "nondeterministic"

// run starts difffuzz run and interrupts it once its event stream reports a
// new bucket that want takes, whose signature it returns with the seconds
// the run took to it.
func (h *Hunt) run(ctx context.Context, dir, name, repPath string, want func(events.Event) bool) (firstSig string, at float64, err error) {
	logf, err := os.Create(filepath.Join(dir, "run.log"))
	if err != nil {
		return "", 0, err
	}
	defer logf.Close()
	cmd := exec.CommandContext(ctx, h.Difffuzz, h.args("run", name, "-duration", h.Duration.String(), "-seed", h.Seed,
		"-batch", fmt.Sprint(huntBatch), "-minimize-time", h.MinimizeTime.String(), "-cases", fmt.Sprint(h.Cases), "-corpus", filepath.Join(dir, "corpus"),
		"-report", repPath, "-events", "-")...)
	cmd.Stderr = logf
	stream, err := cmd.StdoutPipe()
	if err != nil {
		return "", 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return "", 0, err
	}
	readErr := events.Read(stream, func(e events.Event) error {
		if firstSig != "" || e.Bucket == nil || e.Bucket.More || !want(e) {
			return nil
		}
		firstSig, at = e.Bucket.Signature, time.Since(start).Seconds()
		// The first Ctrl-C: the run stops generating, writes every
		// finding and its report, and stops the workers.
		return cmd.Process.Signal(syscall.SIGINT)
	})
	if readErr != nil {
		_ = cmd.Process.Kill()
	}
	_, _ = io.Copy(io.Discard, stream)
	var exit *exec.ExitError
	if err := cmd.Wait(); err != nil && !errors.As(err, &exit) {
		return "", 0, err
	}
	if readErr != nil {
		return "", 0, fmt.Errorf("the run's events: %w", readErr)
	}
	return firstSig, at, nil // the exit status says divergence or interrupted; the report says more
}

// collisionPrefix starts a collision's signature in the run's log.
const collisionPrefix = "collision: "

// collision reads a collision mutant's hunt: found when the run reported a
// collision, at the first collision's seconds and cases, its pair
// minimized (difffuzz minimize shrinks an entry with a twin as a pair).
func (h *Hunt) collision(ctx context.Context, r Result, dir string, rep *report.Report, firstSig string) (Result, error) {
	var first *report.Group
	for i, g := range rep.Distinct {
		if g.Kind == strings.TrimSuffix(collisionPrefix, ": ") && (first == nil || g.Signature.String() == firstSig) {
			first = &rep.Distinct[i]
		}
	}
	if first == nil {
		r.Note = fmt.Sprintf("no collision in %d cases (%d divergences)", rep.Cases, rep.Divergences)
		return r, nil
	}
	r.Found, r.Seconds, r.Cases, r.Signature = true, rep.FirstCollisionSeconds, rep.FirstCollisionCases, first.Signature.String()
	r.Minimized, r.Note = h.minimize(ctx, dir, r.Name, first.First)
	return r, nil
}

// nondeterministic reads a stateful mutant's hunt: found when the run
// reported a nondeterministic bucket, at the seconds the hunt saw it
// (the report has no first-finding figures of the kind; the seconds
// include the driver's start-up) and the cases the run made in all.
// Its example is kept as found: a nondeterministic bucket is not
// minimized (the state is the process's, not the input's).
func nondeterministic(r Result, rep *report.Report, firstSig string, at float64) Result {
	for _, g := range rep.Distinct {
		if g.Kind == nondeterministicKind && (!r.Found || g.Signature.String() == firstSig) {
			r.Found, r.Signature = true, g.Signature.String()
			r.Note = "not minimized (nondeterministic): " + g.Example
		}
	}
	if !r.Found {
		r.Note = fmt.Sprintf("no nondeterministic bucket in %d cases (%d divergences)", rep.Cases, rep.Divergences)
		return r
	}
	r.Seconds, r.Cases = at, rep.Cases
	return r
}

// minimize shrinks the finding in file with difffuzz minimize, within
// MinimizeTime, and returns the result in extended JSON, or a note.
func (h *Hunt) minimize(ctx context.Context, dir, name, file string) (minimized, note string) {
	mctx, cancel := context.WithTimeout(ctx, h.MinimizeTime)
	defer cancel()
	out := filepath.Join(dir, "minimized")
	cmd := exec.CommandContext(mctx, h.Difffuzz, h.args("minimize", name, "-corpus", out, file)...)
	text, _ := cmd.CombinedOutput() // exit 1: it diverges, as it should
	_ = os.WriteFile(filepath.Join(dir, "minimize.log"), text, 0o644)
	if mctx.Err() != nil {
		return "", fmt.Sprintf("not minimized within %s", h.MinimizeTime)
	}
	if files, _ := filepath.Glob(filepath.Join(out, "*.json")); len(files) == 1 { // -corpus out holds what minimize wrote
		e, err := corpus.Load(files[0])
		if err != nil {
			return "", err.Error()
		}
		if e.Twin != nil { // a collision: both inputs
			return string(value.AppendText(nil, e.Input)) + " ≍ " + string(value.AppendText(nil, e.Twin)), ""
		}
		return string(value.AppendText(nil, e.Input)), ""
	}
	return "", "not minimized: " + lastLine(string(text))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// Line is the result for people, one line.
func (r Result) Line(limit time.Duration) string {
	if !r.Found {
		return fmt.Sprintf("%-28s NOT FOUND in %s (%s)", r.Name, limit, r.Note)
	}
	size := "-"
	if r.Minimized != "" {
		size = fmt.Sprintf("%d B", len(r.Minimized))
	}
	return fmt.Sprintf("%-28s found %6.2fs %9d cases  minimized %7s  %s", r.Name, r.Seconds, r.Cases, size, clip.String(r.Minimized+r.Note, 100))
}

// Summary is the closing line: how many were found, and the median seconds
// to the first divergence over all of them (a mutant not found counts as
// slower than any found one).
func Summary(rs []Result) string {
	found := 0
	secs := make([]float64, len(rs))
	for i, r := range rs {
		secs[i] = math.Inf(1)
		if r.Found {
			found++
			secs[i] = r.Seconds
		}
	}
	slices.Sort(secs)
	med := "-"
	if len(secs) > 0 {
		m := secs[(len(secs)-1)/2]
		if len(secs)%2 == 0 {
			m = (m + secs[len(secs)/2]) / 2
		}
		med = fmt.Sprintf("%.2f", m)
		if math.IsInf(m, 1) {
			med = "over the limit,"
		}
	}
	return fmt.Sprintf("mutants: %d/%d found, median %s s", found, len(rs), med)
}
