package run

import (
	"fmt"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/harness/retain"
	"github.com/difffuzz/difffuzz/internal/clip"
	"github.com/difffuzz/difffuzz/internal/cpumeter"
	"github.com/difffuzz/difffuzz/value"
)

// group is one bucket, one root cause, as the collector keeps it. Its
// signature names every implementation that showed the cause in some case;
// its example is the finding with the lowest case index, whichever lane
// answered first, so that the same seed and case count give the same
// report and minimize the same input, and exampleSig is the signature that
// example showed, which its minimization keeps.
type group struct {
	report.Group
	exampleSig compare.Signature
	input      any
	index      uint64
	twin       *twin             // a collision's other case
	before     []uint64          // the calls before the example (history.go)
	outs       []compare.Outcome // the example's outcomes, which recheck asks again
	// keys are the buckets (Signature.Bucket) the group's findings were
	// counted in while fuzzing: its own, and those of the groups merged
	// into it (regroup), whose corpus files it counts.
	keys []string
	// fuzzed is the signature the fuzzing gave the group, when its
	// minimized example relabelled it (relabel).
	fuzzed string
	// folded counts an overflow bucket's causes (fold); nil for others.
	folded *retain.Folded
}

// collector owns the run's counts and findings; only the loop's goroutine
// touches it.
type collector struct {
	cfg      *Config
	keep     *retain.Keeper
	mem      *memory
	names    []string
	cmp      *compare.Comparator // for rendering diffs
	start    time.Time
	last     time.Time
	lastN    uint64
	cases    uint64
	compared uint64
	found    uint64
	groups   map[string]*group // by root cause (Signature.Bucket)
	order    []string
	classes  [64]uint64
	cov      gen.Coverage
	// inexpressible counts, per adapter and edge-class bit, the cases the
	// adapter's native model could not hold; absentN is the total.
	inexpressible [][64]uint64
	absentN       []uint64
	absentWhy     []map[string]uint64 // per adapter, by the worker's reason
	// profiles are what each adapter did that the contract allows.
	profiles profiles
	// meter leaves out the warm-up and cuts the span after it into
	// windows (Config.Warmup, Config.Window).
	meter *cpumeter.Meter
	// caseOf makes case index again, for a sequence's earlier calls
	// (history.go); nil before the generator is made.
	caseOf func(index uint64) any
	// shrunkSequence are the labels of the sequences shrunk (history.go),
	// by the deviants of the symptom they were shrunk for, so that another
	// bucket of those deviants is merged, not shrunk.
	shrunkSequence map[string]compare.Signature
	// late are the buckets made while minimizing (recheck), which
	// regroup takes in.
	late []*group
	// done holds the numbers of finished batches past the prefix: prefix
	// batches 0..prefix-1 are all done, so the first prefix*Batch cases
	// are exactly what an interrupted run can be repeated with.
	done   map[uint64]bool
	prefix uint64
	// firstAt is when the first finding was counted, and firstIndex the
	// lowest case index of a finding, so that the report says how many cases
	// it took to the case, not to the batch.
	firstAt    time.Duration
	firstIndex uint64
	// firstCollision is when the first collision was counted, and
	// collisionIndex the lowest later case of one (see collisions).
	firstCollision time.Duration
	collisionIndex uint64
}

func newCollector(cfg *Config, names []string, keep *retain.Keeper) *collector {
	now := time.Now()
	return &collector{cfg: cfg, keep: keep, names: names, cmp: compare.NewFor(names, cfg.contract()), start: now, last: now, groups: map[string]*group{},
		meter:         cpumeter.New(now, cfg.Warmup, cfg.Window),
		inexpressible: make([][64]uint64, len(names)), absentN: make([]uint64, len(names)), absentWhy: make([]map[string]uint64, len(names)), done: map[uint64]bool{},
		profiles: make(profiles, len(names))}
}

// add takes a lane's batch: it writes each finding the keeper wants to the
// corpus, then counts it. A corpus that cannot be written ends the run.
func (c *collector) add(d batchDone, lanes []*panel.Panel) error {
	for _, f := range d.findings {
		buckets := c.keep.Causes().Assign(f.signatures)
		path := ""
		if f.entry != nil {
			var err error
			if path, err = c.keep.Write(c.cfg.CorpusDir, f.entry, buckets, f.index); err != nil {
				return err
			}
		}
		at := f.index
		if f.pair != 0 {
			at = f.pair // a collision is complete at its later case
		}
		if c.found == 0 {
			c.firstAt, c.firstIndex = time.Since(c.start), at
		}
		c.firstIndex = min(c.firstIndex, at)
		c.found++
		c.collisions(f)
		for i, sig := range buckets {
			c.count(sig, f.signatures[i], f, path)
		}
	}
	c.cases += uint64(d.cases)
	c.compared += uint64(d.compared)
	c.cov.Merge(d.cov)
	c.advance(d.n)
	c.meter.Tick(func() cpumeter.Reading { return c.reading(lanes) })
	for _, cl := range d.classes {
		countBits(&c.classes, cl)
	}
	for _, ac := range d.allowed {
		c.profiles.add(ac)
	}
	for _, a := range d.inexpressible {
		c.absentN[a.adapter]++
		if c.absentWhy[a.adapter] == nil {
			c.absentWhy[a.adapter] = map[string]uint64{}
		}
		c.absentWhy[a.adapter][a.reason]++
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

// count adds a finding to bucket sig: its own signature own or, past the
// bucket limit, own's overflow bucket (causes.assign). A bucket that an
// implementation joins is news, and said so like a new one. The example
// keeps own, so that the minimizer holds on to one true cause.
func (c *collector) count(sig, own compare.Signature, f finding, path string) {
	key := sig.Bucket()
	g := c.groups[key]
	switch {
	case g == nil:
		g = &group{keys: []string{key}}
		if sig.Cause == compare.OverflowCause {
			g.folded = retain.NewFolded()
		}
		g.name(sig)
		c.groups[key] = g
		c.order = append(c.order, key)
		g.example(c.cmp, f, path, own)
		c.announce("new divergence", g)
		c.eventBucket(g, false)
	case !g.Signature.Covers(sig):
		g.name(g.Signature.Merge(sig))
		c.announce("more implementations in", g)
		c.eventBucket(g, true)
	}
	if f.index < g.index && f.input != nil {
		g.example(c.cmp, f, path, own)
	}
	if g.folded != nil {
		g.folded.Add(&g.Group, own)
	}
	g.Count++
}

// name makes sig the bucket's signature, in its report fields too: only
// when it changes, not on every finding counted.
func (g *group) name(sig compare.Signature) {
	g.Signature, g.Kind, g.Cause, g.Deviants = sig, string(sig.Kind), sig.Cause, sig.Deviants
}

func (c *collector) announce(what string, g *group) {
	twin := ""
	if g.Twin != "" {
		twin = "\n  twin:  " + compare.Visible(clip.String(g.Twin, 300))
	}
	fmt.Fprintf(c.cfg.Stderr, "difffuzz: %s %s\n  input: %s%s\n%s", what, compare.Visible(g.Signature.String()), compare.Visible(clip.String(g.Example, 300)), twin, g.Diff)
}

// example makes f, which shows the bucket's cause as sig, the group's
// example.
func (g *group) example(cmp *compare.Comparator, f finding, path string, sig compare.Signature) {
	g.input, g.index, g.First, g.exampleSig, g.before, g.outs = f.input, f.index, path, sig, f.before, f.outs
	g.Example = string(value.AppendText(nil, f.input))
	if d := f.drift; d != nil { // no verdict: one adapter against itself
		g.Diff = compare.RenderNondeterministic(sig.Deviants[0], d.How, d.Before, d.After)
		return
	}
	g.Diff = cmp.Render(f.verdict, f.outs)
	g.Unanimous = f.verdict.Unanimous()
	if g.twin = f.twin; f.twin != nil {
		g.Twin, g.Diff = string(value.AppendText(nil, f.twin.input)), cmp.RenderCollision(f.twin.adapter, f.outs, f.twin.outs)
	}
}

// status prints the one-line progress report (see statusWriter); final is
// the run's last one.
func (c *collector) status(lanes []*panel.Panel, final bool) {
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
	c.cfg.status.status(fmt.Sprintf("%6.0fs  cases %d  %.0f/s  divergences %d (%d distinct)%s%s  %s  batch latency: %s",
		now.Sub(c.start).Seconds(), c.cases, rate, c.found, len(c.groups), c.absentSummary(), restartSummary(c.names, lanes),
		c.mem.status(c.names, lanes), strings.Join(lat, ", ")), final)
}

// absentSummary is the status line's note of the cases each adapter with a
// native model could express (and so test), "" if every adapter expressed
// every case; the reasons are in the summary.
func (c *collector) absentSummary() string {
	var parts []string
	for ai, n := range c.absentN {
		if n > 0 && c.compared > 0 {
			parts = append(parts, fmt.Sprintf("%s %.0f%%", c.names[ai], 100*float64(c.compared-min(n, c.compared))/float64(c.compared)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "  expressible: " + strings.Join(parts, ", ")
}
