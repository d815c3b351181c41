package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/difffuzz/difffuzz/harness/collide"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/harness/retain"
	"github.com/difffuzz/difffuzz/harness/triage"
)

// runner is the state of one Run.
type runner struct {
	cfg    Config
	gen    *gen.Generator
	names  []string
	lanes  []*panel.Panel
	next   atomic.Uint64 // next batch number
	nbatch uint64        // batches in all, 0 for no bound
	col    *collector
	keep   *retain.Keeper // shared by the lanes (wants) and the collector (write)
	watch  *collide.Watch // the collision oracle, shared by the lanes; nil when off
	// resends are the cases waiting to be sent again (resend.go), shared
	// by the lanes.
	resends *resender
	mem     *memory // the budget: shared by the producers, lanes and loop
	// storage holds finished batches' encoding buffers for new ones
	// (adapter.Batch.Release), at most one per lane and per producer.
	storage chan []byte
}

// Run fuzzes until the duration, the case count or ctx ends, and returns the
// report and the exit status. Findings are on disk before they are counted;
// the report is written even when ctx is cancelled (Ctrl-C).
func Run(ctx context.Context, cfg Config) (*report.Report, int) {
	cfg.setDefaults()
	r := &runner{cfg: cfg}
	for _, s := range cfg.Adapters {
		r.names = append(r.names, s.Name)
	}
	if cfg.Cases > 0 {
		r.nbatch = (cfg.Cases + uint64(cfg.Batch) - 1) / uint64(cfg.Batch)
	}
	r.keep = retain.NewKeeper(cfg.KeepPerBucket, retain.NewCauses(cfg.MaxBuckets))
	r.watch = collide.New(r.names, cfg.CollisionSlots)
	r.col = newCollector(&r.cfg, r.names, r.keep)
	r.mem = newMemory(&r.cfg, os.Getenv, len(r.names))
	defer r.mem.stop()
	r.col.mem = r.mem
	if cfg.KnownPath != "" {
		var old *triage.OldFormError
		if _, err := triage.LoadKnown(cfg.KnownPath); err != nil && !(cfg.UpdateKnown && errors.As(err, &old)) {
			return r.col.setupFailed(err), triage.ExitSetup
		}
	}
	fmt.Fprintf(cfg.Stderr, "difffuzz: seed %d, shard %d/%d, %d lanes of %v, batch %d, contract %s%s\n", cfg.Seed, cfg.Shard, cfg.Shards, cfg.Workers, r.names, cfg.Batch, cfg.contract().Name, cfg.workerReference())
	if cfg.Command != "" {
		fmt.Fprintf(cfg.Stderr, "difffuzz: repeat with: %s\n", cfg.Command)
	}
	if err := r.startLanes(ctx); err != nil {
		return r.col.setupFailed(err), triage.ExitSetup
	}
	defer r.closeLanes()
	r.resends = newResender(&r.cfg, len(r.lanes))
	r.eventStart()
	r.gen = gen.New(r.genConfig()) // the workers' models are known now
	r.col.caseOf = func(i uint64) any { v, _ := r.gen.Case(i); return v }
	// The corpus folder is made only once the adapters are up: a run that
	// fails at setup leaves nothing behind.
	if err := os.MkdirAll(cfg.CorpusDir, 0o755); err != nil {
		return r.col.setupFailed(fmt.Errorf("corpus: %w", err)), triage.ExitSetup
	}
	began := time.Now()
	err := r.loop(ctx)
	if err == nil {
		err = r.col.minimizeGroups(ctx, r.lanes[0], MinimizeBudget(cfg.MinimizeTime, time.Since(began)))
	} else {
		r.col.skipAll(report.NotMinimizedRunError)
	}
	// A Ctrl-C while minimizing interrupts the run too: the report says
	// so, and which buckets it left as they came.
	rep := r.col.finish(r.lanes, err, ctx.Err() != nil)
	r.col.eventSummary(rep)
	return rep, rep.Exit
}

// startLanes starts every lane at once; if one cannot start, the others are
// stopped and the first error is the run's.
func (r *runner) startLanes(ctx context.Context) error {
	lanes := make([]*panel.Panel, r.cfg.Workers)
	g, gctx := errgroup.WithContext(ctx)
	for i := range lanes {
		g.Go(func() (err error) {
			lanes[i], err = panel.Start(gctx, r.cfg.Adapters, r.cfg.MaxRestarts, r.cfg.Stderr)
			return err
		})
	}
	err := g.Wait()
	for _, l := range lanes {
		if l != nil {
			r.lanes = append(r.lanes, l)
		}
	}
	if err != nil {
		r.closeLanes()
		r.lanes = nil
		return panel.SetupError(err)
	}
	return nil
}

func (r *runner) closeLanes() {
	var g errgroup.Group
	for _, l := range r.lanes {
		g.Go(func() error { l.Close(); return nil })
	}
	g.Wait()
}

// loop drives the lanes and collects their results until the run ends: the
// duration, the case count, ctx, or the first lane or corpus error, which
// stops the others taking batches.
func (r *runner) loop(ctx context.Context) error {
	runCtx, cancel := r.runContext(ctx)
	defer cancel()
	g, gctx := errgroup.WithContext(runCtx)
	batches := r.produce(gctx)
	results := make(chan batchDone, len(r.lanes))
	for ln, l := range r.lanes {
		g.Go(func() error { return r.drive(gctx, ctx, ln, l, batches, results) })
	}
	lanesDone := make(chan error, 1)
	go func() { lanesDone <- g.Wait(); close(results) }()
	tick := time.NewTicker(r.cfg.StatusEvery)
	defer tick.Stop()
	var fatal error
	for {
		select {
		case d, ok := <-results:
			if !ok {
				r.col.status(r.lanes, true)
				if err := <-lanesDone; fatal == nil && ctx.Err() == nil {
					fatal = err
				}
				return fatal
			}
			err := r.col.add(d, r.lanes)
			r.mem.release(d)
			if err != nil && fatal == nil {
				fatal = err
				cancel()
			}
		case err := <-r.mem.over:
			if fatal == nil {
				fatal = err
				cancel()
			}
		case <-tick.C:
			r.col.status(r.lanes, false)
			r.col.eventProgress(r.lanes)
		}
	}
}

// runContext ends when the run's duration is over, or when ctx ends.
func (r *runner) runContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if r.cfg.Duration > 0 {
		return context.WithTimeout(ctx, r.cfg.Duration)
	}
	return context.WithCancel(ctx)
}
