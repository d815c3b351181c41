package harness

import (
	"context"
	"difffuzz/internal/procstat"
	"difffuzz/internal/version"
	"fmt"
	"io"
	"math/bits"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	canonjson "difffuzz/adapters/go"
	"difffuzz/harness/adapter"
	"difffuzz/harness/compare"
	"difffuzz/harness/corpus"
	"difffuzz/harness/gen"
	"difffuzz/harness/report"
	"difffuzz/harness/wire"
)

// group is one distinct divergence as the collector keeps it. Its example
// is the finding with the lowest case index, whichever lane answered first,
// so that the same seed and case count give the same report and minimize
// the same input.
type group struct {
	report.Group
	input any
	index uint64
}

// collector owns the run's counts and findings; only the loop's goroutine
// touches it.
type collector struct {
	cfg      *Config
	names    []string
	hellos   []wire.Hello // from the first lane, for corpus entries
	cmp      *compare.Comparator
	start    time.Time
	last     time.Time
	lastN    uint64
	cases    uint64
	compared uint64
	found    uint64
	groups   map[string]*group
	order    []string
	classes  [64]uint64
	// inexpressible counts, per adapter and edge-class bit, the cases the
	// adapter's native model could not hold; absentN is the total.
	inexpressible [][64]uint64
	absentN       []uint64
	warmAt        time.Time // when the warm-up was over (zero before)
	warmN         uint64    // cases done by then
	// done holds the numbers of finished batches past the prefix: prefix
	// batches 0..prefix-1 are all done, so the first prefix*Batch cases
	// are exactly what an interrupted run can be repeated with.
	done   map[uint64]bool
	prefix uint64
	// firstAt and firstCases are when the first finding was counted: its
	// run time, and the cases run by the end of its batch (0 before).
	firstAt    time.Duration
	firstCases uint64
}

func newCollector(cfg *Config, names []string) *collector {
	now := time.Now()
	return &collector{cfg: cfg, names: names, cmp: compare.New(names), start: now, last: now, groups: map[string]*group{},
		inexpressible: make([][64]uint64, len(names)), absentN: make([]uint64, len(names)), done: map[uint64]bool{}}
}

// add takes a lane's batch: it writes each finding to the corpus, then counts
// it. A corpus that cannot be written ends the run.
func (c *collector) add(d batchDone) error {
	for _, f := range d.findings {
		path, err := corpus.Write(c.cfg.CorpusDir, entryOf(f, c.names, c.hellos, c.cfg.Seed))
		if err != nil {
			return err
		}
		if c.found == 0 {
			c.firstAt, c.firstCases = time.Since(c.start), c.cases+uint64(d.cases)
		}
		c.found++
		for i, sig := range f.signatures {
			c.count(sig, f, path, f.verdict.Deviations[i].Kind)
		}
	}
	c.cases += uint64(d.cases)
	c.compared += uint64(d.compared)
	c.done[d.n] = true
	for c.done[c.prefix] {
		delete(c.done, c.prefix)
		c.prefix++
	}
	if c.cfg.Warmup > 0 && c.warmAt.IsZero() && time.Since(c.start) >= c.cfg.Warmup {
		c.warmAt, c.warmN = time.Now(), c.cases
	}
	for _, cl := range d.classes {
		countBits(&c.classes, cl)
	}
	for _, a := range d.inexpressible {
		c.absentN[a.adapter]++
		countBits(&c.inexpressible[a.adapter], a.classes)
	}
	return nil
}

// countBits adds one to the count of each class in cl.
func countBits(counts *[64]uint64, cl gen.Classes) {
	for bit := 0; cl != 0; bit, cl = bit+1, cl>>1 {
		if cl&1 != 0 {
			counts[bit]++
		}
	}
}

// absentSummary is the status line's note of inexpressible cases, "" if none.
func (c *collector) absentSummary() string {
	var parts []string
	for ai, n := range c.absentN {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", c.names[ai], n))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "  inexpressible: " + strings.Join(parts, ", ")
}

// count adds a finding to the group of one of its signatures.
func (c *collector) count(sig string, f finding, path string, kind compare.Kind) {
	g := c.groups[sig]
	if g == nil {
		g = &group{Group: report.Group{Signature: sig, Kind: string(kind)}}
		c.groups[sig] = g
		c.order = append(c.order, sig)
		g.example(c.cmp, f, path)
		fmt.Fprintf(c.cfg.Stderr, "difffuzz: new divergence %s\n  input: %s\n%s", sig, report.Clip(g.Example, 300), g.Diff)
	} else if f.index < g.index {
		g.example(c.cmp, f, path)
	}
	g.Count++
}

// example makes f the group's example.
func (g *group) example(cmp *compare.Comparator, f finding, path string) {
	g.input, g.index, g.First = f.input, f.index, path
	g.Example, g.Diff = string(canonjson.AppendText(nil, f.input)), cmp.Render(f.verdict, f.outs)
}

// status prints the one-line progress report.
func (c *collector) status(lanes []*lane, final bool) {
	now := time.Now()
	rate := float64(c.cases-c.lastN) / now.Sub(c.last).Seconds()
	if final {
		rate = float64(c.cases) / now.Sub(c.start).Seconds()
	}
	c.last, c.lastN = now, c.cases
	var lat []string
	for ai, name := range c.names {
		var busy time.Duration
		var n uint64
		for _, l := range lanes {
			busy += time.Duration(l.stats[ai].Busy.Load())
			n += l.stats[ai].Batches.Load()
		}
		if n > 0 {
			lat = append(lat, fmt.Sprintf("%s %.1fms", name, float64(busy.Microseconds())/1000/float64(n)))
		}
	}
	fmt.Fprintf(c.cfg.Stderr, "%6.0fs  cases %d  %.0f/s  divergences %d (%d distinct)%s  rss %dMiB  batch latency: %s\n",
		now.Sub(c.start).Seconds(), c.cases, rate, c.found, len(c.groups), c.absentSummary(), procstat.CurrentRSS()>>20, strings.Join(lat, ", "))
}

// minimizeGroups shrinks one example of each distinct divergence, each within
// the configured time, and stores the result in the corpus.
func (c *collector) minimizeGroups(ctx context.Context, l *lane) error {
	sort.Strings(c.order) // the same order every time, whichever came first
	for _, sig := range c.order {
		g := c.groups[sig]
		mctx, cancel := context.WithTimeout(ctx, c.cfg.MinimizeTime)
		res, err := minimizeCase(mctx, l, c.names, g.input, sig)
		cancel()
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			g.MinimizeNote = err.Error()
			continue
		}
		e := &corpus.Entry{Input: res.Input, Kind: g.Kind, Signature: sig, MinimizedFrom: filepath.Base(g.First), Outcomes: outcomes(c.names, l.hellos(), res.Outs)}
		path, err := corpus.Write(c.cfg.CorpusDir, e)
		if err != nil {
			return err
		}
		g.Minimized, g.MinimizedPath, g.MinimizeRounds = string(canonjson.AppendText(nil, res.Input)), path, res.Rounds
		g.Diff = c.cmp.Render(res.Verdict, res.Outs)
	}
	return nil
}

// finish builds the report, writes it, prints the summary and decides the
// exit status.
func (c *collector) finish(lanes []*lane, err error, interrupted bool) *report.Report {
	rep := &report.Report{
		Version: version.String(), Seed: c.cfg.Seed, Shard: c.cfg.Shard, Shards: c.cfg.Shards, Command: c.cfg.Command,
		Started: c.start, Seconds: time.Since(c.start).Seconds(), Cases: c.cases, Compared: c.compared,
		Divergences: c.found, Interrupted: interrupted,
		FirstDivergenceSeconds: c.firstAt.Seconds(), FirstDivergenceCases: c.firstCases,
	}
	rep.Rate = float64(c.cases) / rep.Seconds
	if !c.warmAt.IsZero() && c.cases > c.warmN {
		rep.SteadyRate = float64(c.cases-c.warmN) / time.Since(c.warmAt).Seconds()
	}
	cpu, rss := procstat.SelfUsage()
	rep.DriverCPUSeconds, rep.DriverMaxRSS = cpu.Seconds(), rss
	rep.Adapters = adapterReports(c.names, lanes)
	for ai := range rep.Adapters {
		rep.Adapters[ai].Inexpressible = c.absentN[ai]
		for _, cl := range gen.List() {
			if n := c.inexpressible[ai][bits.TrailingZeros64(uint64(cl))]; n > 0 {
				rep.Adapters[ai].InexpressibleByClass = append(rep.Adapters[ai].InexpressibleByClass, report.ClassCount{Class: cl.String(), Cases: n})
			}
		}
	}
	for _, sig := range c.order {
		rep.Distinct = append(rep.Distinct, c.groups[sig].Group)
	}
	sort.SliceStable(rep.Distinct, func(i, j int) bool {
		a, b := rep.Distinct[i], rep.Distinct[j]
		return a.Count > b.Count || (a.Count == b.Count && a.Signature < b.Signature)
	})
	for _, cl := range gen.List() {
		rep.Coverage = append(rep.Coverage, report.ClassCount{Class: cl.String(), Cases: c.classes[bits.TrailingZeros64(uint64(cl))]})
	}
	switch {
	case err != nil:
		rep.Error, rep.Exit = err.Error(), ExitSetup
	case c.found > 0:
		rep.Exit = ExitDivergence
	}
	if interrupted {
		rep.Command = repeatCases(c.cfg.Command, c.prefix*uint64(c.cfg.Batch))
	}
	out := outputs{c.cfg.ReportPath, c.cfg.JUnitPath, c.cfg.SummaryPath}
	finishReport(rep, c.cfg.KnownPath, c.cfg.UpdateKnown, c.cfg.Shards == 1 && !interrupted, out, c.cfg.Stdout, c.cfg.Stderr, interrupted)
	fmt.Fprintf(c.cfg.Stderr, "difffuzz: %s; findings in %s/\n", out.describe(), filepath.Clean(c.cfg.CorpusDir))
	return rep
}

// setupFailed ends a run that never started: the error alone, no summary
// (there is nothing to sum up), and the report files, so that a CI job still
// finds the error where it looks.
func (c *collector) setupFailed(err error) *report.Report {
	rep := &report.Report{Version: version.String(), Seed: c.cfg.Seed, Shard: c.cfg.Shard, Shards: c.cfg.Shards,
		Command: c.cfg.Command, Started: c.start, Error: err.Error(), Exit: ExitSetup}
	fmt.Fprintf(c.cfg.Stderr, "difffuzz: %v\n", err)
	for _, write := range []func() error{
		func() error { return rep.Write(c.cfg.ReportPath) },
		func() error { return rep.WriteJUnit(c.cfg.JUnitPath) },
		func() error { return rep.WriteMarkdown(c.cfg.SummaryPath) },
	} {
		if werr := write(); werr != nil {
			fmt.Fprintf(c.cfg.Stderr, "difffuzz: %v\n", werr)
		}
	}
	return rep
}

// repeatCases is the command that repeats the first n cases of an
// interrupted run: its -duration and -cases give way to -cases n.
func repeatCases(command string, n uint64) string {
	if command == "" {
		return ""
	}
	f := strings.Fields(command)
	var out []string
	for i := 0; i < len(f); i++ {
		switch {
		case f[i] == "-cases" || f[i] == "-duration":
			i++
		case strings.HasPrefix(f[i], "-cases=") || strings.HasPrefix(f[i], "-duration="):
		default:
			out = append(out, f[i])
		}
	}
	return strings.Join(append(out, "-cases", strconv.FormatUint(n, 10)), " ")
}

// outputs are the files a report is written to; "" skips one.
type outputs struct{ json, junit, markdown string }

// describe says where the report went, for the run's last lines.
func (o outputs) describe() string {
	var parts []string
	for _, f := range [][2]string{{"report", o.json}, {"JUnit", o.junit}, {"summary", o.markdown}} {
		if f[1] != "" {
			parts = append(parts, f[0]+" "+f[1])
		}
	}
	if len(parts) == 0 {
		return "no report file (-report, -junit, -summary)"
	}
	return "wrote " + strings.Join(parts, ", ")
}

// finishReport holds the report to the known list, writes it everywhere it
// is asked for and prints the summary. A file that cannot be written makes
// the exit status 2: the run's outcome would otherwise be lost.
func finishReport(rep *report.Report, knownPath string, update, checkStale bool, out outputs, stdout, stderr io.Writer, interrupted bool) {
	if knownPath != "" {
		k, err := report.LoadKnown(knownPath)
		switch {
		case err != nil:
			rep.Error, rep.Exit = err.Error(), ExitSetup
		case update:
			if err := k.Update(knownPath, rep); err != nil {
				rep.Error, rep.Exit = err.Error(), ExitSetup
			} else if k, err = report.LoadKnown(knownPath); err == nil {
				k.Apply(rep, checkStale)
				fmt.Fprintf(stderr, "difffuzz: rewrote %s with %d entries\n", knownPath, len(rep.Distinct))
			}
		default:
			k.Apply(rep, checkStale)
		}
	}
	if interrupted && rep.Exit != ExitSetup {
		rep.Exit = ExitInterrupted // the report must say what the process exits with
	}
	for _, write := range []func() error{
		func() error { return rep.Write(out.json) },
		func() error { return rep.WriteJUnit(out.junit) },
		func() error { return rep.WriteMarkdown(out.markdown) },
	} {
		if err := write(); err != nil {
			fmt.Fprintf(stderr, "difffuzz: %v\n", err)
			rep.Exit = ExitSetup
		}
	}
	rep.Summary(stdout)
}

func adapterReports(names []string, lanes []*lane) []report.AdapterReport {
	var out []report.AdapterReport
	for ai, name := range names {
		ar := report.AdapterReport{Name: name}
		var busy time.Duration
		for _, l := range lanes {
			st := &l.stats[ai]
			h := l.adapters[ai].Hello()
			ar.Impl, ar.Version = h.Name, h.Version
			ar.Batches += st.Batches.Load()
			ar.Failures += st.Failures
			ar.ProtocolErrors += st.ProtocolErrs
			busy += time.Duration(st.Busy.Load())
			if w, ok := l.adapters[ai].(*adapter.Worker); ok {
				ar.Starts += w.StartCount()
				ar.Restarts += max(w.StartCount()-1, 0)
				ar.CPUSeconds += procstat.ProcessCPU(w.Pid()).Seconds()
			}
		}
		if ar.Batches > 0 {
			ar.MeanBatchMs = float64(busy.Microseconds()) / 1000 / float64(ar.Batches)
		}
		out = append(out, ar)
	}
	return out
}
