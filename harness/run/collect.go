package run

import (
	"fmt"
	"strings"
	"time"

	"difffuzz/harness/compare"
	"difffuzz/harness/corpus"
	"difffuzz/harness/gen"
	"difffuzz/harness/lane"
	"difffuzz/harness/report"
	"difffuzz/internal/procstat"
	"difffuzz/value"
)

// group is one distinct divergence as the collector keeps it. Its example
// is the finding with the lowest case index, whichever lane answered first,
// so that the same seed and case count give the same report and minimize
// the same input.
type group struct {
	report.Group
	sig   compare.Signature
	input any
	index uint64
}

// collector owns the run's counts and findings; only the loop's goroutine
// touches it.
type collector struct {
	cfg      *Config
	names    []string
	cmp      *compare.Comparator // for rendering diffs
	start    time.Time
	last     time.Time
	lastN    uint64
	cases    uint64
	compared uint64
	found    uint64
	groups   map[string]*group // by signature text
	order    []string
	classes  [64]uint64
	cov      gen.Coverage
	// inexpressible counts, per adapter and edge-class bit, the cases the
	// adapter's native model could not hold; absentN is the total.
	inexpressible [][64]uint64
	absentN       []uint64
	// warm is when the warm-up was over (its at is zero before); win is
	// the start of the current window after it (see Config.Window),
	// windows the ones done.
	warm    mark
	win     mark
	windows []report.Steady
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
func (c *collector) add(d batchDone, lanes []*lane.Lane) error {
	for _, f := range d.findings {
		path, err := corpus.Write(c.cfg.CorpusDir, f.entry)
		if err != nil {
			return err
		}
		if c.found == 0 {
			c.firstAt, c.firstCases = time.Since(c.start), c.cases+uint64(d.cases)
		}
		c.found++
		for _, sig := range f.signatures {
			c.count(sig, f, path)
		}
	}
	c.cases += uint64(d.cases)
	c.compared += uint64(d.compared)
	c.cov.Merge(d.cov)
	c.advance(d.n)
	if c.cfg.Warmup > 0 && c.warm.at.IsZero() && time.Since(c.start) >= c.cfg.Warmup {
		c.warm = c.mark(lanes)
		c.win = c.warm
	}
	if c.cfg.Window > 0 && !c.warm.at.IsZero() && time.Since(c.win.at) >= c.cfg.Window {
		now := c.mark(lanes)
		c.windows = append(c.windows, *since(c.win, now))
		c.win = now
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

// advance marks batch n done and moves the done prefix past it.
func (c *collector) advance(n uint64) {
	c.done[n] = true
	for c.done[c.prefix] {
		delete(c.done, c.prefix)
		c.prefix++
	}
}

// countBits adds one to the count of each class in cl.
func countBits(counts *[64]uint64, cl gen.Classes) {
	for bit := 0; cl != 0; bit, cl = bit+1, cl>>1 {
		if cl&1 != 0 {
			counts[bit]++
		}
	}
}

// count adds a finding to the group of one of its signatures.
func (c *collector) count(sig compare.Signature, f finding, path string) {
	key := sig.String()
	g := c.groups[key]
	if g == nil {
		g = &group{sig: sig, Group: report.Group{Signature: key, Kind: string(sig.Kind)}}
		c.groups[key] = g
		c.order = append(c.order, key)
		g.example(c.cmp, f, path)
		fmt.Fprintf(c.cfg.Stderr, "difffuzz: new divergence %s\n  input: %s\n%s", key, report.Clip(g.Example, 300), g.Diff)
	} else if f.index < g.index {
		g.example(c.cmp, f, path)
	}
	g.Count++
}

// example makes f the group's example.
func (g *group) example(cmp *compare.Comparator, f finding, path string) {
	g.input, g.index, g.First = f.input, f.index, path
	g.Example, g.Diff = string(value.AppendText(nil, f.input)), cmp.Render(f.verdict, f.outs)
}

// status prints the one-line progress report.
func (c *collector) status(lanes []*lane.Lane, final bool) {
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
			busy += time.Duration(l.Stats(ai).Busy.Load())
			n += l.Stats(ai).Batches.Load()
		}
		if n > 0 {
			lat = append(lat, fmt.Sprintf("%s %.1fms", name, float64(busy.Microseconds())/1000/float64(n)))
		}
	}
	fmt.Fprintf(c.cfg.Stderr, "%6.0fs  cases %d  %.0f/s  divergences %d (%d distinct)%s  rss %dMiB  batch latency: %s\n",
		now.Sub(c.start).Seconds(), c.cases, rate, c.found, len(c.groups), c.absentSummary(), procstat.CurrentRSS()>>20, strings.Join(lat, ", "))
}

// absentSummary is the status line's note of inexpressible cases, by
// adapter and edge class, "" if none.
func (c *collector) absentSummary() string {
	var parts []string
	for ai, n := range c.absentN {
		if n == 0 {
			continue
		}
		var byClass []string
		for _, cc := range classCounts(&c.inexpressible[ai], false) {
			byClass = append(byClass, fmt.Sprintf("%s %d", cc.Class, cc.Cases))
		}
		parts = append(parts, fmt.Sprintf("%s %d (%s)", c.names[ai], n, strings.Join(byClass, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return "  inexpressible: " + strings.Join(parts, ", ")
}
