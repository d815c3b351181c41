package run

import (
	"time"

	"github.com/difffuzz/difffuzz/harness/events"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/internal/clip"
)

// The run's events (Config.Events): what the human output says, as data.
// Each method is a no-op without -events.

// eventStart says what the run is: its seed, limits and adapters.
func (r *runner) eventStart() {
	if r.cfg.Events == nil {
		return
	}
	s := &events.Start{Seed: r.cfg.Seed, DurationSeconds: r.cfg.Duration.Seconds(), Cases: r.cfg.Cases}
	for i, h := range r.lanes[0].Hellos() {
		s.Adapters = append(s.Adapters, events.Adapter{Name: r.names[i], Language: h.Language, Impl: h.Name, Version: h.Version, Model: h.Model})
	}
	r.cfg.Events.Write(events.Event{Type: events.TypeStart, Start: s})
}

// eventProgress is the status line's figures, every tick.
func (c *collector) eventProgress(lanes []*panel.Panel) {
	if c.cfg.Events == nil {
		return
	}
	elapsed := time.Since(c.start).Seconds()
	p := &events.Progress{ElapsedSeconds: elapsed, Cases: c.cases, Divergences: c.found, Buckets: len(c.groups), Phase: "fuzzing"}
	if elapsed > 0 {
		p.CasesPerSecond = float64(c.cases) / elapsed
	}
	c.cfg.Events.Write(events.Event{Type: events.TypeProgress, Progress: p})
}

// eventMinimizing is the progress of the minimization phase: bucket i
// (1-based) of n.
func (c *collector) eventMinimizing(i, n int) {
	if c.cfg.Events == nil {
		return
	}
	c.cfg.Events.Write(events.Event{Type: events.TypeProgress, Progress: &events.Progress{
		ElapsedSeconds: time.Since(c.start).Seconds(), Cases: c.cases, Divergences: c.found, Buckets: len(c.groups),
		Phase: "minimizing", Minimizing: i, Minimize: n}})
}

// exampleClip bounds an example in an event: the corpus file has it whole.
const exampleClip = 2000

// eventBucket announces a new bucket, a collision or one more
// implementation in a bucket.
func (c *collector) eventBucket(g *group, more bool) {
	if c.cfg.Events == nil {
		return
	}
	t := events.TypeBucket
	if g.twin != nil {
		t = events.TypeCollision
	}
	c.cfg.Events.Write(events.Event{Type: t, Bucket: &events.Bucket{
		Signature: g.Signature.String(), Kind: string(g.Signature.Kind), Cause: g.Signature.Cause, Deviants: g.Signature.Deviants,
		Example: clip.String(g.Example, exampleClip), Twin: clip.String(g.Twin, exampleClip), Path: g.First, More: more}})
}

// eventMinimized says what became of bucket g's minimization: its
// minimized example and label, or why it has none.
func (c *collector) eventMinimized(g *group, was string) {
	if c.cfg.Events == nil {
		return
	}
	m := &events.Minimized{Bucket: was, Signature: g.Signature.String(), Path: g.MinimizedPath, Rounds: g.MinimizeRounds,
		Minimal: g.Minimized && !g.MinimizeIncomplete, Seconds: g.MinimizeSeconds}
	if g.Minimized {
		m.Input, m.Twin = clip.String(g.MinimizedInput, exampleClip), clip.String(g.MinimizedTwin, exampleClip)
	} else {
		m.Note = g.NotMinimized
		if g.MinimizeNote != "" {
			m.Note += ": " + g.MinimizeNote
		}
	}
	c.cfg.Events.Write(events.Event{Type: events.TypeMinimized, Minimized: m})
}

// eventSummary closes the stream: how the run ended.
func (c *collector) eventSummary(rep *report.Report) {
	if c.cfg.Events == nil {
		return
	}
	c.cfg.Events.Write(events.Event{Type: events.TypeSummary, Summary: &events.Summary{
		Exit: rep.Exit, Cases: rep.Cases, Seconds: time.Since(c.start).Seconds(), Divergences: rep.Divergences,
		Buckets: len(rep.Distinct), Interrupted: rep.Interrupted, Report: c.cfg.Outputs["json"]}})
}
