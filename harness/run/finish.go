package run

import (
	"fmt"
	"math/bits"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/internal/cpumeter"
	"github.com/difffuzz/difffuzz/internal/procstat"
	"github.com/difffuzz/difffuzz/internal/version"
)

// finish builds the report, holds it to the known list, writes it, prints
// the summary and says where everything went.
func (c *collector) finish(lanes []*panel.Panel, err error, interrupted bool) *report.Report {
	rep := c.report(lanes)
	rep.Interrupted = interrupted
	if err != nil {
		rep.Error = err.Error()
	}
	if interrupted {
		rep.Command = ""
		if n := c.ranCases(); n > 0 {
			rep.Command = repeatCases(c.cfg.Command, n)
		} else if c.cfg.Command != "" {
			// -cases 0 would mean no limit: there is nothing to repeat.
			fmt.Fprintln(c.cfg.Stderr, "difffuzz: interrupted before the first batch finished: nothing to repeat")
		}
	}
	triage.Finish(rep, triage.Policy{KnownPath: c.cfg.KnownPath, UpdateKnown: c.cfg.UpdateKnown,
		CheckStale: c.cfg.Shards == 1 && !interrupted, Interrupted: interrupted, Outputs: c.cfg.Outputs}, c.cfg.Stdout, c.cfg.Stderr)
	where := c.cfg.Outputs.Describe()
	if where == "" {
		where = "no report file (-report, -junit, -summary)"
	} else {
		where = "wrote " + where
	}
	fmt.Fprintf(c.cfg.Stderr, "difffuzz: %s; findings in %s/\n", where, filepath.Clean(c.cfg.CorpusDir))
	return rep
}

// firstCases is how many of this shard's cases it took to the first finding
// in case order, that case included; 0 without one.
func (c *collector) firstCases() uint64 {
	if c.found == 0 {
		return 0
	}
	return (c.firstIndex-c.cfg.Shard)/c.cfg.Shards + 1
}

// report is the run's report without its verdict.
func (c *collector) report(lanes []*panel.Panel) *report.Report {
	rep := &report.Report{
		Version: version.String(), Seed: c.cfg.Seed, Shard: c.cfg.Shard, Shards: c.cfg.Shards, Command: c.cfg.Command,
		Started: c.start, Seconds: time.Since(c.start).Seconds(), Cases: c.cases, Compared: c.compared,
		Divergences: c.found, FirstDivergenceSeconds: c.firstAt.Seconds(), FirstDivergenceCases: c.firstCases(),
		FirstCollisionSeconds: c.firstCollision.Seconds(), FirstCollisionCases: c.firstCollisionCases(),
		MaxBuckets: max(c.cfg.MaxBuckets, 0), Contract: c.cfg.contract().Name,
	}
	rep.Rate = float64(c.cases) / rep.Seconds
	cpu, rss := procstat.SelfUsage()
	rep.DriverCPUSeconds, rep.DriverMaxRSS = cpu.Seconds(), rss
	rep.Adapters = adapterReports(c.names, lanes)
	rep.Profiles = c.profiles.report(c.names)
	c.mem.fill(rep, lanes)
	if rep.Steady = c.steady(lanes); rep.Steady != nil {
		rep.SteadyRate = float64(rep.Steady.Cases) / rep.Steady.Seconds
	}
	for ai := range rep.Adapters {
		rep.Adapters[ai].Inexpressible = c.absentN[ai]
		rep.Adapters[ai].InexpressibleByClass = classCounts(&c.inexpressible[ai], 0)
		rep.Adapters[ai].InexpressibleByReason = reasonCounts(c.absentWhy[ai])
	}
	for _, key := range c.order {
		g := c.groups[key].Group
		g.Written = 0
		for _, k := range c.groups[key].keys {
			g.Written += uint64(c.keep.Written(k))
		}
		rep.Distinct = append(rep.Distinct, g)
	}
	sort.SliceStable(rep.Distinct, func(i, j int) bool {
		a, b := rep.Distinct[i], rep.Distinct[j]
		return a.Count > b.Count || (a.Count == b.Count && a.Signature.String() < b.Signature.String())
	})
	drawn := gen.ClassesUnder(c.cfg.contract())
	rep.Coverage = classCounts(&c.classes, drawn)
	rep.Cells = cellCounts(&c.cov, drawn)
	return rep
}

// classCounts lists counts by edge class, in the generator's order: those
// counted, and with zeros those of zeros (the classes the run's contract
// lets the generator draw, for a coverage that shows what it missed).
func classCounts(counts *[64]uint64, zeros gen.Classes) []report.ClassCount {
	var out []report.ClassCount
	for _, cl := range gen.List() {
		if n := counts[bits.TrailingZeros64(uint64(cl))]; n > 0 || zeros.Has(cl) {
			out = append(out, report.ClassCount{Class: cl.String(), Cases: n})
		}
	}
	return out
}

// reasonCounts lists inexpressible counts by reason, most first.
func reasonCounts(why map[string]uint64) []report.ReasonCount {
	var out []report.ReasonCount
	for r, n := range why {
		out = append(out, report.ReasonCount{Reason: r, Cases: n})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Cases > out[j].Cases || out[i].Cases == out[j].Cases && out[i].Reason < out[j].Reason
	})
	return out
}

// cellCounts lists the cases that hit each (class × context) cell of the
// classes drawn.
func cellCounts(cov *gen.Coverage, drawn gen.Classes) []report.CellCount {
	var out []report.CellCount
	for _, cell := range gen.AllCells() {
		if !drawn.Has(cell.Class) {
			continue
		}
		out = append(out, report.CellCount{Class: cell.Class.String(), Context: cell.Context.String(), Cases: cov.Count(cell)})
	}
	return out
}

// setupFailed ends a run that never started: the error alone, no summary
// (there is nothing to sum up), and the report files, so that a CI job still
// finds the error where it looks.
func (c *collector) setupFailed(err error) *report.Report {
	rep := &report.Report{Version: version.String(), Seed: c.cfg.Seed, Shard: c.cfg.Shard, Shards: c.cfg.Shards,
		Command: c.cfg.Command, Started: c.start, Error: err.Error(), Exit: triage.ExitSetup}
	fmt.Fprintf(c.cfg.Stderr, "difffuzz: %v\n", err)
	for _, werr := range rep.WriteAll(c.cfg.Outputs) {
		fmt.Fprintf(c.cfg.Stderr, "difffuzz: %v\n", werr)
	}
	return rep
}

// ranCases is how many cases from the first an interrupted run finished:
// its done prefix of batches, but no more than -cases, since the last
// batch of a bounded run may be short.
func (c *collector) ranCases() uint64 {
	n := c.prefix * uint64(c.cfg.Batch)
	if c.cfg.Cases > 0 {
		n = min(n, c.cfg.Cases)
	}
	return n
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

// reading is every process's CPU clock now (cpumeter.Read): the driver's,
// each worker's as of its last batch, so that it spans the same batches as
// the worker's own figures, and what each adapter's implementation said
// its batches cost (adapter.Adapter.BatchCPU), summed over the lanes.
func (c *collector) reading(lanes []*panel.Panel) cpumeter.Reading {
	var adapters, batches []time.Duration
	for _, l := range lanes {
		for ai, a := range l.Adapters() {
			if len(adapters) <= ai {
				adapters, batches = append(adapters, 0), append(batches, 0)
			}
			if w, ok := a.(*adapter.Worker); ok {
				adapters[ai] += w.CPUAtBatch() // the same batches as BatchCPU
			}
			batches[ai] += a.BatchCPU()
		}
	}
	return cpumeter.Read(c.cases, adapters, batches)
}

// steady is the run after its warm-up, and its windows; nil without one.
func (c *collector) steady(lanes []*panel.Panel) *report.Steady {
	span, windows, ok := c.meter.Steady(c.cases, func() cpumeter.Reading { return c.reading(lanes) })
	if !ok {
		return nil
	}
	return &report.Steady{Span: span, Windows: windows}
}

func adapterReports(names []string, lanes []*panel.Panel) []report.AdapterReport {
	var out []report.AdapterReport
	for ai, name := range names {
		ar := report.AdapterReport{Name: name}
		var busy time.Duration
		for _, l := range lanes {
			st, a := l.Stats(ai), l.Adapters()[ai]
			h := a.Hello()
			ar.Impl, ar.Version = h.Name, h.Version
			ar.Batches += st.Batches.Load()
			ar.Failures += st.Failures
			ar.ProtocolErrors += st.ProtocolErrs
			busy += time.Duration(st.Busy.Load())
			if w, ok := a.(*adapter.Worker); ok {
				ar.Starts += w.StartCount()
				ar.Restarts += max(w.StartCount()-1, 0)
				ar.RestartsByReason = addCounts(ar.RestartsByReason, w.Restarts())
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
