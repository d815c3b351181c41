package run

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/minimize"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/internal/memlimit"
	"github.com/difffuzz/difffuzz/value"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// The run's last stage: each bucket's example is minimized within one
// budget for the run, the bucket is labelled by what its minimized example
// shows, and buckets whose minimized examples show one signature become
// one (docs/triage.md, "Minimized, relabelled, merged").

// Defaults of the run's minimization budget (Config.MinimizeTime 0): a
// MinimizeShare-th of the time the run fuzzed, at least MinMinimizeBudget
// and at most MaxMinimizeBudget. A quarter keeps a run's time mostly
// fuzzing however long it is; the floor lets a short CI run (seconds of
// fuzzing) still shrink its few buckets, most of which are 1-minimal in
// a second or two, and the slowest an honest SDK makes (a pure-Python
// encoder's 513 levels, 7 ms a candidate, 45 s in all); the ceiling keeps
// an hour's run from minimizing for another quarter of an hour. A run that
// fuzzed for 27 s once minimized its 41 buckets for 17.6 minutes, 10 s
// each: now it takes a minute at most, the most severe and largest
// buckets first.
const (
	MinimizeShare     = 4
	MinMinimizeBudget = time.Minute
	MaxMinimizeBudget = 10 * time.Minute
)

// MinimizeBudget is the run's budget for minimizing its buckets: set (the
// -minimize-time flag) when not 0, negative for none; else the default
// for a run that fuzzed for fuzzed.
func MinimizeBudget(set, fuzzed time.Duration) time.Duration {
	if set != 0 {
		return set
	}
	return min(max(fuzzed/MinimizeShare, MinMinimizeBudget), MaxMinimizeBudget)
}

// severity ranks a kind for the budget, most severe first: a collision (a
// false dedup, silent in production) or one input given two digests (a
// call run twice, as silent), a crash or a hang, an internal
// failure or wrong output, a rejection (an error code where another was
// due, or where a text was).
func severity(k compare.Kind) int {
	switch k {
	case compare.KindCollision, compare.KindNondeterministic:
		return 0
	case compare.KindCrash, compare.KindHang:
		return 1
	case compare.KindRejection, compare.KindErrorCode:
		return 3
	}
	return 2
}

// minimizeOrder is the order the budget is spent in: by severity, then by
// findings (the largest bucket first), then by signature, so that the same
// run spends it alike whichever bucket came first.
func (c *collector) minimizeOrder() []*group {
	order := make([]*group, 0, len(c.order))
	for _, key := range c.order {
		order = append(order, c.groups[key])
	}
	slices.SortFunc(order, func(a, b *group) int {
		return cmp.Or(cmp.Compare(severity(a.Signature.Kind), severity(b.Signature.Kind)), cmp.Compare(b.Count, a.Count), strings.Compare(a.Signature.String(), b.Signature.String()))
	})
	return order
}

// share is the time the next bucket gets of what is left of the budget,
// with n buckets still to go: its fair share, but at least
// minimize.DefaultTime while that lasts, so that the first (most severe,
// largest) buckets get the time a large example needs. What a bucket does
// not use goes to those after it.
func share(left time.Duration, n int) time.Duration {
	return min(left, max(left/time.Duration(n), minimize.DefaultTime))
}

// minimizeGroups spends the run's budget on its buckets in minimizeOrder,
// relabels each by its minimized example, stores the example in the corpus
// and merges the buckets whose labels are now one (regroup). A bucket the
// budget or an interruption (ctx) leaves out says so (Group.NotMinimized).
// Only a corpus that cannot be written is an error.
func (c *collector) minimizeGroups(ctx context.Context, l *panel.Panel, budget time.Duration) error {
	order := c.minimizeOrder()
	defer func() { c.regroup(append(order, c.late...)) }()
	said := make(map[*group]bool, len(order))
	defer func() { // the buckets skipped say why, in the events too
		for _, g := range order {
			if !said[g] {
				c.eventMinimized(g, g.Signature.String())
			}
		}
	}()
	if budget < 0 {
		skip(order, report.NotMinimizedDisabled, "")
		return nil
	}
	// Candidates are near-copies of a finding, maybe megabytes each.
	defer memlimit.Thrifty(os.Getenv("GOGC"))()
	l.MaxCandidateBytes = minimize.BatchBytesFor(c.cfg.MaxMemory)
	status := &minStatus{start: c.start}
	l.MinimizeProgress = status.progress
	defer func() { l.MinimizeProgress = nil }()
	defer c.watchMinimizing(status)()
	deadline := time.Now().Add(budget)
	for i, g := range order {
		left := time.Until(deadline)
		switch {
		case ctx.Err() != nil:
			skip(order[i:], report.NotMinimizedInterrupted, "")
			return nil
		case left <= 0:
			skip(order[i:], report.NotMinimizedBudget, fmt.Sprintf("the run's minimization budget (%v, -minimize-time) went to the %d buckets before it; "+
				"a larger -minimize-time, or difffuzz minimize on its first file, shrinks it", budget, i))
			return nil
		}
		fmt.Fprintf(c.cfg.Stderr, "%6.0fs  minimizing %d/%d  %v of %v left  %s\n", time.Since(c.start).Seconds(), i+1, len(order),
			roughly(left), budget, compare.Visible(clip.String(g.Signature.String(), 200)))
		c.eventMinimizing(i+1, len(order))
		status.bucket(i+1, len(order), g.Signature.String())
		mctx, cancel := context.WithTimeout(ctx, share(left, len(order)-i))
		began, was := time.Now(), g.Signature.String()
		err := c.minimizeOne(mctx, l, g)
		g.MinimizeSeconds = time.Since(began).Seconds()
		cancel()
		if err != nil {
			return err
		}
		c.eventMinimized(g, was)
		said[g] = true
	}
	return nil
}

// roughly is d to three figures or so, for the progress line.
func roughly(d time.Duration) time.Duration {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second)
	case d >= time.Second:
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

// skip marks groups as not minimized, and why.
func skip(groups []*group, why, note string) {
	for _, g := range groups {
		if !g.Minimized {
			g.NotMinimized, g.MinimizeNote = why, note
		}
	}
}

// skipAll marks every group as not minimized, and why: the run ended on
// an error before it got to them.
func (c *collector) skipAll(why string) {
	skip(c.minimizeOrder(), why, "")
}

// minimizeOne minimizes g's example (a collision's as a pair) and labels
// g by what the result shows. A finding that cannot be minimized is noted
// on g; only a corpus that cannot be written is an error.
func (c *collector) minimizeOne(ctx context.Context, l *panel.Panel, g *group) error {
	if g.twin != nil {
		return c.minimizePair(ctx, l, g)
	}
	if g.Signature.Kind == compare.KindNondeterministic {
		g.NotMinimized, g.MinimizeNote = report.NotMinimizedNondeterministic, nondeterministicNote
		return nil
	}
	if err := c.recheck(ctx, l, g); err != nil {
		return err
	}
	done, fresh, err := c.needsEarlier(ctx, l, g)
	if done || err != nil {
		return err
	}
	ml := l // the lane the example is shrunk on: a fresh one when there is one
	if fresh != nil {
		defer fresh.Close()
		fresh.MaxCandidateBytes, ml = l.MaxCandidateBytes, fresh
	}
	res, err := ml.Minimize(ctx, g.input, g.exampleSig)
	if err != nil {
		notMinimized(g, err)
		return nil
	}
	label, ok := res.Label(g.exampleSig)
	if !ok {
		notMinimized(g, fmt.Errorf("not reproducible: the minimized example no longer shows %q", g.exampleSig))
		return nil
	}
	label = l.Family(ctx, label, res.Input) // a cause of a family: the implementation's profile
	e := l.Entry(res.Input, res.Verdict, []compare.Signature{label}, res.Outs)
	e.Kind, e.MinimizedFrom = g.Kind, filepath.Base(g.First)
	path, err := corpus.Write(c.cfg.CorpusDir, e)
	if err != nil {
		return err
	}
	g.minimized(path, res.Input, nil, res.Rounds, res.Minimal)
	g.MinimizePasses = res.Passes
	g.Diff = c.cmp.Render(res.Verdict, res.Outs)
	g.relabel(label)
	return nil
}

// minimizePair shrinks a collision group's example as a pair, keeping its
// cause (see panel.MinimizePair), and labels the group by the collision the
// minimized pair shows (panel.CollisionLabel): the same cause, in the
// implementation that collides, named by its family where it has one.
func (c *collector) minimizePair(ctx context.Context, l *panel.Panel, g *group) error {
	m, err := l.MinimizePair(ctx, g.input, g.twin.input, g.twin.adapter, g.exampleSig)
	if err != nil {
		notMinimized(g, err)
		return nil
	}
	label, ok := l.CollisionLabel(ctx, m.X, m.A, m.B, m.JA, m.JB)
	if !ok {
		notMinimized(g, fmt.Errorf("not reproducible: %s no longer gives the minimized pair one digest", c.names[g.twin.adapter]))
		return nil
	}
	e := l.CollisionEntry(label, m.A, m.B, m.JA, m.JB)
	e.MinimizedFrom = filepath.Base(g.First)
	path, err := corpus.Write(c.cfg.CorpusDir, e)
	if err != nil {
		return err
	}
	g.minimized(path, m.A, m.B, m.Rounds, m.Minimal)
	g.MinimizePasses = m.Passes
	g.Diff = c.cmp.RenderCollision(g.twin.adapter, m.JA.Outs, m.JB.Outs)
	g.relabel(label)
	return nil
}

// notMinimized notes why g's minimization failed: the run was interrupted
// (the minimizer's context cancelled), or the finding no longer showed.
func notMinimized(g *group, err error) {
	if errors.Is(err, context.Canceled) {
		g.NotMinimized = report.NotMinimizedInterrupted
		return
	}
	g.NotMinimized, g.MinimizeNote = report.NotMinimizedFailed, err.Error()
}

// minimized records g's minimized example (a collision's twin too), at
// path in the corpus.
func (g *group) minimized(path string, input, twin any, rounds int, minimal bool) {
	g.Minimized, g.MinimizedPath, g.MinimizeRounds = true, path, rounds
	g.MinimizedInput = string(value.AppendText(nil, input))
	if twin != nil {
		g.MinimizedTwin = string(value.AppendText(nil, twin))
	}
	if !minimal {
		g.MinimizeIncomplete = true
		g.MinimizeNote = fmt.Sprintf("the minimizer stopped after %d rounds when its share of the run's budget ran out; "+
			"a larger -minimize-time (or difffuzz minimize %s) may shrink it further", rounds, g.First)
	}
}

// relabel makes label, what the minimized example shows, the group's
// signature: its kind and cause, and only the implementations whose own
// output on it shows the cause. An overflow bucket keeps its label: it
// stands for many causes, of which the example shows one.
func (g *group) relabel(label compare.Signature) {
	if g.Signature.Cause == compare.OverflowCause {
		return
	}
	g.fuzzed = g.Signature.String()
	g.name(label)
}

// regroup makes the buckets whose labels are one signature one bucket, in
// order (minimizeOrder): the first of them that was minimized keeps its
// example and its minimized one, and takes the others' findings; the bucket lists the
// signatures they had while fuzzing (Group.MergedFrom). Then each plain
// bucket goes into the collision bucket of its cause (mergeTwins).
func (c *collector) regroup(order []*group) {
	c.groups, c.order = map[string]*group{}, nil
	for _, g := range order {
		key := g.Signature.String()
		base := c.groups[key]
		switch {
		case base == nil:
			c.groups[key], c.order = g, append(c.order, key)
		case !base.Minimized && g.Minimized:
			c.groups[key] = g
			g.absorb(base)
		default:
			base.absorb(g)
		}
	}
	c.mergeTwins()
	for _, key := range c.order {
		if g := c.groups[key]; len(g.MergedFrom) > 0 {
			fmt.Fprintf(c.cfg.Stderr, "difffuzz: %d buckets are one, %s: their minimized examples show its cause (%s)\n",
				len(g.MergedFrom), compare.Visible(g.Signature.String()), compare.Visible(strings.Join(g.MergedFrom, "; ")))
		}
	}
}

// mergeTwins merges each plain bucket into the collision bucket of its
// cause in the same implementations (triage.Twins, the step corpus merge
// takes too): one bug, seen as a wrong text and as the two calls that
// text makes one. The bucket is the collision's, its kind, label and
// minimized pair: a collision is the more severe sign (a false dedup,
// silent in production), and a collision mutant must be found as one
// (make mutants).
func (c *collector) mergeTwins() {
	sigs, minimized := make([]compare.Signature, len(c.order)), make([]bool, len(c.order))
	for i, key := range c.order {
		sigs[i], minimized[i] = c.groups[key].Signature, c.groups[key].Minimized
	}
	into := triage.Twins(sigs, minimized)
	order := c.order[:0:0]
	for i, key := range c.order {
		if j := into[i]; j >= 0 {
			c.groups[c.order[j]].absorb(c.groups[key])
			delete(c.groups, key)
			continue
		}
		order = append(order, key)
	}
	c.order = order
}

// absorb adds o, a bucket with g's label, to g: its findings, its corpus
// files, and the signatures it was made of.
func (g *group) absorb(o *group) {
	g.MergedFrom = append(g.madeOf(), o.madeOf()...)
	g.Count += o.Count
	g.keys = append(g.keys, o.keys...)
}

// madeOf is the signatures the fuzzing gave the buckets g is made of.
func (g *group) madeOf() []string {
	if len(g.MergedFrom) > 0 {
		return g.MergedFrom
	}
	return []string{cmp.Or(g.fuzzed, g.Signature.String())}
}
