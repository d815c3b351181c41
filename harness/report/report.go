// Package report renders the outcome of a run for people and machines: the
// JSON report, the closing summary, a JUnit file for CI systems, Markdown for
// a CI job summary, and the list of known divergences a run is held to.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/minimize"
	"github.com/difffuzz/difffuzz/internal/clip"
	"github.com/difffuzz/difffuzz/internal/cpumeter"
)

// Report is the outcome of a run, written as JSON with -report and printed
// as a summary.
type Report struct {
	// Version is the difffuzz that made the report.
	Version string `json:"difffuzz_version,omitempty"`
	Seed    uint64 `json:"seed"`
	// Contract is the contract the run was judged by: the one its
	// in-process reference followed (docs/canonical-json.md §7).
	Contract string    `json:"contract,omitempty"`
	Shard    uint64    `json:"shard"`
	Shards   uint64    `json:"shards"`
	Command  string    `json:"command,omitempty"`
	Started  time.Time `json:"started"`
	Seconds  float64   `json:"seconds"`
	Cases    uint64    `json:"cases"`
	Compared uint64    `json:"compared"`
	Rate     float64   `json:"cases_per_second"`
	// SteadyRate is the rate after the run's warm-up (Config.Warmup: the
	// workers' start and JIT compilation), what a long run sustains; 0 when
	// the run asked for none or ended before it was over.
	SteadyRate  float64         `json:"steady_cases_per_second,omitempty"`
	Adapters    []AdapterReport `json:"adapters"`
	Divergences uint64          `json:"divergences"`
	// FirstDivergenceSeconds and FirstDivergenceCases say when the first
	// divergence was found: seconds into the run when it was counted, and
	// the cases of this shard up to and including the first diverging case
	// in case order (how fast a run finds a bug); 0 without one.
	FirstDivergenceSeconds float64 `json:"first_divergence_seconds,omitempty"`
	FirstDivergenceCases   uint64  `json:"first_divergence_cases,omitempty"`
	// FirstCollisionSeconds and FirstCollisionCases say the same of the
	// first collision (docs/triage.md, "Collisions"), up to its later case.
	FirstCollisionSeconds float64 `json:"first_collision_seconds,omitempty"`
	FirstCollisionCases   uint64  `json:"first_collision_cases,omitempty"`
	Distinct              []Group `json:"distinct"`
	// Profiles are what each implementation does that the contract
	// allows (profile.go): not divergences. Empty under a contract that
	// leaves nothing open.
	Profiles []Profile `json:"profiles,omitempty"`
	// Known lists the distinct divergences the known list accepts, and Stale
	// the listed ones that did not occur; both empty without a known list.
	Known    []string     `json:"known,omitempty"`
	Stale    []string     `json:"stale,omitempty"`
	Coverage []ClassCount `json:"coverage"`
	// Cells counts the cases of every (class × context) cell.
	Cells []CellCount `json:"cells,omitempty"`
	// Steady is the run after its warm-up; nil when SteadyRate is 0.
	Steady *Steady `json:"steady,omitempty"`
	// DriverCPUSeconds is the driver's own CPU time, the in-process Go
	// adapter included, and DriverMaxRSS its peak resident set in bytes.
	DriverCPUSeconds float64 `json:"driver_cpu_seconds"`
	DriverMaxRSS     int64   `json:"driver_max_rss"`
	// MaxMemory is the driver's memory budget in bytes (-max-memory), 0
	// for none; BatchBytesPeak the most its batches in flight and findings
	// waiting held at once by the budget's count.
	MaxMemory      int64 `json:"max_memory,omitempty"`
	BatchBytesPeak int64 `json:"batch_bytes_peak,omitempty"`
	// MaxBuckets is the run's bucket limit (-max-buckets), 0 for none:
	// past it, new causes are counted in overflow buckets
	// (compare.OverflowCause).
	MaxBuckets  int    `json:"max_buckets,omitempty"`
	Interrupted bool   `json:"interrupted"`
	Error       string `json:"error,omitempty"`
	Exit        int    `json:"exit"`
}

// Group is one bucket: every finding with the same signature, that is the
// same kind, root cause and deviating implementations (docs/triage.md).
type Group struct {
	Signature compare.Signature `json:"signature"`
	Kind      string            `json:"kind"`
	Cause     string            `json:"cause,omitempty"`
	Deviants  []string          `json:"deviants,omitempty"`
	Count     uint64            `json:"count"`
	// Written is how many of its findings are in the corpus (at most the
	// run's -keep, unless -keep-all), the minimized one apart.
	Written uint64 `json:"written,omitempty"`
	// Unanimous is the hint that every implementation but the reference
	// agrees against it; the reference stays the truth.
	Unanimous bool `json:"unanimous,omitempty"`
	// First is the corpus file of the first finding of the group.
	First string `json:"first"`
	// Example is the first finding's input in extended JSON.
	Example string `json:"example"`
	// Twin is, for a collision, the example's other input, which the same
	// implementation gives the example's digest; MinimizedTwin the other
	// input of the minimized pair.
	Twin          string `json:"twin,omitempty"`
	MinimizedTwin string `json:"minimized_twin,omitempty"`
	// Minimized says the example was minimized and the bucket relabelled
	// by what the minimized example shows (docs/triage.md); when false,
	// NotMinimized says why. MinimizedInput is the shrunk input in extended
	// JSON and MinimizedPath its corpus file.
	Minimized      bool   `json:"minimized"`
	NotMinimized   string `json:"not_minimized,omitempty"`
	MinimizedInput string `json:"minimized_input,omitempty"`
	MinimizedPath  string `json:"minimized_path,omitempty"`
	MinimizeRounds int    `json:"minimize_rounds,omitempty"`
	// MinimizeSeconds is how long its minimization took.
	MinimizeSeconds float64 `json:"minimize_seconds,omitempty"`
	// MinimizePasses are what each of the minimizer's passes did on it
	// (tries, hits, shrinks, bytes removed, time), Hypothesis's habit: a
	// pass that never pays shows up.
	MinimizePasses []minimize.Pass `json:"minimize_passes,omitempty"`
	// MinimizeIncomplete says the minimizer stopped before its result was
	// 1-minimal (its time ran out): a smaller example may exist, and more
	// -minimize-time would find it. MinimizeNote says so for people.
	MinimizeIncomplete bool   `json:"minimize_incomplete,omitempty"`
	MinimizeNote       string `json:"minimize_note,omitempty"`
	// MergedFrom lists the signatures of the buckets this one was made of:
	// buckets whose minimized examples showed one signature are one bug,
	// however their first, larger examples were labelled, and so are a
	// collision and a bucket of the cause it is named by (a key left
	// unescaped, and the two calls it makes one). Empty when the
	// bucket is one of the fuzzing's own.
	MergedFrom []string `json:"merged_from,omitempty"`
	// Folded is, for an overflow bucket (compare.OverflowCause), the first
	// causes it counted (at most MaxFoldedListed), each with its findings;
	// FoldedCauses how many distinct causes it counted in all, up to
	// MaxFoldedCounted (FoldedMore: more than that).
	Folded       []FoldedCause `json:"folded,omitempty"`
	FoldedCauses int           `json:"folded_causes,omitempty"`
	FoldedMore   bool          `json:"folded_more,omitempty"`
	Diff         string        `json:"diff"`
	// KnownReason is the known list's reason when the divergence is accepted.
	KnownReason string `json:"known_reason,omitempty"`
}

// Why a bucket was not minimized (Group.NotMinimized).
const (
	// NotMinimizedDisabled: the run minimized nothing (-minimize-time
	// negative).
	NotMinimizedDisabled = "disabled"
	// NotMinimizedBudget: the run's minimization budget was spent on
	// buckets before this one.
	NotMinimizedBudget = "budget spent"
	// NotMinimizedInterrupted: the run was stopped (Ctrl-C) first.
	NotMinimizedInterrupted = "interrupted"
	// NotMinimizedFailed: the minimizer could not keep the bucket (its
	// example no longer shows it: flaky); MinimizeNote says how.
	NotMinimizedFailed = "failed"
	// NotMinimizedRunError: the run stopped on an error before it
	// minimized.
	NotMinimizedRunError = "run error"
	// NotMinimizedNondeterministic: the bucket is one input given two
	// answers, which a shrinker that asks each candidate once cannot keep.
	NotMinimizedNondeterministic = "nondeterministic"
)

// FoldedCause is one root cause an overflow bucket counted: its signature
// as the finding showed it (compare.Signature.Bucket, "KIND: CAUSE") and
// how many findings showed it.
type FoldedCause struct {
	Cause string `json:"cause"`
	Count uint64 `json:"count"`
}

// Bounds of an overflow bucket's list of causes: it lists the first
// MaxFoldedListed with their counts, and counts distinct causes up to
// MaxFoldedCounted. The overflow exists because causes came without bound;
// its list must not grow without one either.
const (
	MaxFoldedListed  = 20
	MaxFoldedCounted = 10000
)

// FoldedText says how many causes an overflow bucket folded: "1,234
// causes", "more than 10000 causes".
func (g Group) FoldedText() string {
	if g.FoldedMore {
		return fmt.Sprintf("more than %d causes", g.FoldedCauses)
	}
	if g.FoldedCauses == 1 {
		return "1 cause"
	}
	return fmt.Sprintf("%d causes", g.FoldedCauses)
}

// AdapterReport is one adapter's figures over all lanes.
type AdapterReport struct {
	Name           string  `json:"name"`
	Impl           string  `json:"impl"`
	Version        string  `json:"version"`
	Batches        uint64  `json:"batches"`
	MeanBatchMs    float64 `json:"mean_batch_ms"`
	Failures       uint64  `json:"failures"`
	ProtocolErrors uint64  `json:"protocol_errors"`
	Starts         int     `json:"starts"`
	// CPUSeconds is the CPU time of the adapter's live worker processes at
	// the end of the run (0 for the in-process adapter: see DriverCPU).
	CPUSeconds float64 `json:"cpu_seconds"`
	// Starts counts worker processes started, Restarts those of them that
	// replaced one that failed; both 0 for the in-process adapter.
	Restarts int `json:"restarts"`
	// RestartsByReason splits Restarts by what ended the process before
	// (adapter.RestartReasons: crash, hang, protocol, memory, setup,
	// stopped), those with none left out.
	RestartsByReason map[string]int `json:"restarts_by_reason,omitempty"`
	// MaxRSS is the largest peak resident set (VmHWM) of any of the
	// adapter's worker processes, in bytes; 0 for the in-process adapter.
	MaxRSS int64 `json:"max_rss,omitempty"`
	// Inexpressible counts the cases the adapter's native value model could
	// not hold (never compared), and InexpressibleByClass splits them by
	// edge class (a case counts once in each of its classes).
	Inexpressible        uint64       `json:"inexpressible,omitempty"`
	InexpressibleByClass []ClassCount `json:"inexpressible_by_class,omitempty"`
	// InexpressibleByReason splits them by the reason the worker gave
	// (each case once), most first.
	InexpressibleByReason []ReasonCount `json:"inexpressible_by_reason,omitempty"`
}

// ReasonCount is how many cases an adapter could not express for one
// reason.
type ReasonCount struct {
	Reason string `json:"reason"`
	Cases  uint64 `json:"cases"`
}

// Steady is the part of a run after its warm-up, with the CPU time that
// every process spent on it, so that a cost per case can leave out what
// starting the workers and compiling their JIT code cost.
type Steady struct {
	cpumeter.Span
	// Windows cut the same span into equal parts (run.Config.Window), each
	// with its own figures; none unless asked for.
	Windows []cpumeter.Span `json:"windows,omitempty"`
}

// processes says how the adapter ran: in process, or how many worker
// processes started and how many of those were restarts.
func (a AdapterReport) processes() string {
	if a.Starts == 0 {
		return "in process"
	}
	return fmt.Sprintf("%d worker processes (%d restarts%s)", a.Starts, a.Restarts, ReasonsText(a.RestartsByReason, ": "))
}

// ReasonsText is counts by reason for people, "crash 2, hang 1" in
// adapter.RestartReasons' order, after sep; "" when there are none.
func ReasonsText(byReason map[string]int, sep string) string {
	var parts []string
	for _, r := range adapter.RestartReasons {
		if n := byReason[r]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", r, n))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return sep + strings.Join(parts, ", ")
}

// Input is the group's input as reports show it: the minimized one, else
// the example; for a collision, both inputs of that pair, one a line.
func (g Group) Input() string {
	if g.MinimizedInput != "" {
		return joinTwin(g.MinimizedInput, g.MinimizedTwin)
	}
	return joinTwin(g.Example, g.Twin)
}

func joinTwin(input, twin string) string {
	if twin == "" {
		return input
	}
	return input + "\n" + twin
}

// writtenText notes how many of a bucket's findings are on disk, when not
// all of them are.
func (g Group) writtenText() string {
	if g.Written == 0 || g.Written >= g.Count {
		return ""
	}
	return fmt.Sprintf(", %d in the corpus", g.Written)
}

// listSome is up to n of items, and how many more there are.
func listSome(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more (the JSON report lists them all)", strings.Join(items[:n], ", "), len(items)-n)
}

// InexpressibleText is the count of inexpressible cases by reason, for
// people: "12 (repeated keys 10, lone surrogate 2)". The counts by edge
// class (which overlap) are in the JSON report.
func (a AdapterReport) InexpressibleText() string {
	var parts []string
	for _, c := range a.InexpressibleByReason {
		parts = append(parts, fmt.Sprintf("%s %d", c.Reason, c.Cases))
	}
	return fmt.Sprintf("%d (%s)", a.Inexpressible, strings.Join(parts, ", "))
}

// CellCount is how many cases hit one (edge class × context) cell: the
// class placed in that context (a size of container, a position, a depth,
// a role), so that a bug that needs the conjunction can be drawn at all.
type CellCount struct {
	Class   string `json:"class"`
	Context string `json:"context"`
	Cases   uint64 `json:"cases"`
}

// Cell is the cell's name, "escape/size-1000+".
func (c CellCount) Cell() string { return c.Class + "/" + c.Context }

// UnhitCells names the cells no case hit.
func (r *Report) UnhitCells() []string {
	var out []string
	for _, c := range r.Cells {
		if c.Cases == 0 {
			out = append(out, c.Cell())
		}
	}
	return out
}

// ClassCount is how many cases exercised one edge class.
type ClassCount struct {
	Class string `json:"class"`
	Cases uint64 `json:"cases"`
}

func init() {
	Register(Format{Name: "json", Flag: "report", Default: "out/report.json",
		Usage: "write the JSON report to this `file` (\"\": none)", Render: (*Report).JSON})
}

// JSON is the report as indented JSON, the schema of the fields' tags.
func (r *Report) JSON() []byte {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("report: %v", err)) // every field is plain data
	}
	return append(data, '\n')
}

// Summary prints the closing summary for people.
func (r *Report) Summary(w io.Writer) {
	fmt.Fprintf(w, "difffuzz: %d cases in %.1fs (%.0f cases/s), %d compared, seed %d, shard %d/%d\n",
		r.Cases, r.Seconds, r.Rate, r.Compared, r.Seed, r.Shard, r.Shards)
	for _, a := range r.Adapters {
		fmt.Fprintf(w, "  %-10s %s %s: %d batches, %.2f ms/batch, %d failures, %d protocol errors, %s\n",
			a.Name, a.Impl, a.Version, a.Batches, a.MeanBatchMs, a.Failures, a.ProtocolErrors, a.processes())
		if a.Inexpressible > 0 {
			fmt.Fprintf(w, "  %-10s cannot express %s of %d cases (%.0f%% expressible)\n", "", a.InexpressibleText(), r.Compared,
				100*float64(r.Compared-min(a.Inexpressible, r.Compared))/float64(max(r.Compared, 1)))
		}
	}
	r.memorySummary(w)
	var unhit, counts []string
	for _, c := range r.Coverage {
		counts = append(counts, fmt.Sprintf("%s %d", c.Class, c.Cases))
		if c.Cases == 0 {
			unhit = append(unhit, c.Class)
		}
	}
	if len(counts) > 0 {
		fmt.Fprintf(w, "  edge-class coverage (cases): %s\n", strings.Join(counts, ", "))
	}
	if r.Cases > 0 && len(unhit) > 0 {
		fmt.Fprintf(w, "  edge classes never hit: %s\n", strings.Join(unhit, ", "))
	}
	if len(r.Cells) > 0 {
		never := r.UnhitCells()
		fmt.Fprintf(w, "  context coverage: %d of %d (class × context) cells hit", len(r.Cells)-len(never), len(r.Cells))
		if len(never) > 0 {
			fmt.Fprintf(w, "; never hit: %s", listSome(never, 10))
		}
		fmt.Fprintln(w)
	}
	r.profileSummary(w)
	for i, g := range r.Distinct {
		r.groupSummary(w, i+1, g)
	}
	if r.Interrupted {
		fmt.Fprintln(w, "difffuzz: interrupted; every finding so far is on disk")
	}
	if r.Error != "" {
		fmt.Fprintf(w, "difffuzz: error: %s\n", r.Error)
	}
	for _, sig := range r.Stale {
		fmt.Fprintf(w, "stale known divergence (no longer occurs; remove it from the list): %s\n", sig)
	}
	if r.Command != "" {
		fmt.Fprintf(w, "difffuzz: repeat with: %s\n", r.Command)
	}
	fmt.Fprintf(w, "difffuzz: %d divergences, %d distinct (%d known, %d stale); exit %d\n", r.Divergences, len(r.Distinct), len(r.Known), len(r.Stale), r.Exit)
}

// groupSummary prints bucket n: its signature and counts, what it was
// made of (merged buckets, folded causes), and its example, minimized or
// not and why.
func (r *Report) groupSummary(w io.Writer, n int, g Group) {
	known := ""
	if g.KnownReason != "" {
		known = " [known: " + g.KnownReason + "]"
	}
	fmt.Fprintf(w, "bug %d: %s (%d findings%s, first %s)%s\n", n, compare.Visible(g.Signature.String()), g.Count, g.writtenText(), g.First, known)
	if len(g.MergedFrom) > 0 {
		fmt.Fprintf(w, "  merged from %d: their minimized examples show this one cause: %s\n", len(g.MergedFrom), compare.Visible(strings.Join(g.MergedFrom, "; ")))
	}
	if g.Unanimous {
		fmt.Fprintf(w, "  hint: every implementation but the reference agrees on this; the reference stays the truth\n")
	}
	if g.Cause == compare.OverflowCause {
		fmt.Fprintf(w, "  hint: the run had %d buckets, its limit, so these findings' causes were not told apart (the example keeps its own): "+
			"a cause that names each input (a failure message with the input's words) makes a bucket of every finding; "+
			"fix that message, or raise -max-buckets\n", r.MaxBuckets)
		fmt.Fprintf(w, "  folded %s: %s\n", g.FoldedText(), compare.Visible(foldedList(g.Folded, 5)))
	}
	if g.MinimizedInput != "" {
		fmt.Fprintf(w, "  minimized (%d rounds, %.1fs): %s  [%s]\n", g.MinimizeRounds, g.MinimizeSeconds, compare.Visible(clip.String(g.MinimizedInput, 300)), g.MinimizedPath)
		if g.MinimizedTwin != "" {
			fmt.Fprintf(w, "  and its twin:         %s\n", compare.Visible(clip.String(g.MinimizedTwin, 300)))
		}
		if g.MinimizeIncomplete {
			fmt.Fprintf(w, "  not 1-minimal: %s\n", g.MinimizeNote)
		}
	} else {
		fmt.Fprintf(w, "  example: %s\n", compare.Visible(clip.String(g.Example, 300)))
		if g.Twin != "" {
			fmt.Fprintf(w, "  twin:    %s\n", compare.Visible(clip.String(g.Twin, 300)))
		}
		if g.NotMinimized != "" || g.MinimizeNote != "" {
			fmt.Fprintf(w, "  not minimized: %s\n", g.notMinimizedText())
		}
	}
	fmt.Fprint(w, g.Diff)
}

// notMinimizedText is why the bucket was not minimized, for people: the
// reason and the note that says more.
func (g Group) notMinimizedText() string {
	switch {
	case g.NotMinimized == "":
		return g.MinimizeNote
	case g.MinimizeNote == "":
		return g.NotMinimized
	}
	return g.NotMinimized + ": " + g.MinimizeNote
}

// foldedList is up to n of an overflow bucket's causes with their
// counts, and how many more the report lists.
func foldedList(folded []FoldedCause, n int) string {
	var parts []string
	for _, f := range folded[:min(n, len(folded))] {
		parts = append(parts, fmt.Sprintf("%s (%d)", f.Cause, f.Count))
	}
	s := strings.Join(parts, "; ")
	if len(folded) > n {
		s += fmt.Sprintf("; and %d more in the report", len(folded)-n)
	}
	return s
}
