package harness

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"difffuzz/harness/adapter"
	"difffuzz/harness/compare"
	"difffuzz/harness/corpus"
	"difffuzz/harness/gen"
	"difffuzz/harness/report"
	"difffuzz/harness/wire"
)

// batch is a run of consecutive case numbers of this shard.
type batch struct {
	n       uint64 // the batch's number: it holds cases n*Batch onward
	indexes []uint64
	cases   []any
	classes []gen.Classes
	wire    *adapter.Batch // the cases as sent, digest-only, encoded by the producer
}

// finding is one case on which the adapters disagreed.
type finding struct {
	index      uint64
	input      any
	outs       []compare.Outcome
	verdict    compare.Verdict
	signatures []string
}

// batchDone is what a lane reports after a batch.
type batchDone struct {
	n             uint64 // the batch's number
	cases         int
	compared      int
	findings      []finding
	classes       []gen.Classes
	inexpressible []absent
}

// absent is one case an adapter's native model could not hold.
type absent struct {
	adapter int
	classes gen.Classes
}

// runner is the state of one Run.
type runner struct {
	cfg     Config
	gen     *gen.Generator
	names   []string
	lanes   []*lane
	next    atomic.Uint64 // next batch number
	nbatch  uint64        // batches in all, 0 for no bound
	results chan batchDone
	fatal   chan error
	col     *collector
}

// Run fuzzes until the duration, the case count or ctx ends, and returns the
// report and the exit status. Findings are on disk before they are counted;
// the report is written even when ctx is cancelled (Ctrl-C).
func Run(ctx context.Context, cfg Config) (*report.Report, int) {
	cfg.setDefaults()
	r := &runner{cfg: cfg, gen: gen.New(cfg.Gen), results: make(chan batchDone, cfg.Workers), fatal: make(chan error, cfg.Workers)}
	for _, s := range cfg.Adapters {
		r.names = append(r.names, s.Name)
	}
	if cfg.Cases > 0 {
		r.nbatch = (cfg.Cases + uint64(cfg.Batch) - 1) / uint64(cfg.Batch)
	}
	r.col = newCollector(&r.cfg, r.names)
	if cfg.KnownPath != "" {
		if _, err := report.LoadKnown(cfg.KnownPath); err != nil {
			return r.col.setupFailed(err), ExitSetup
		}
	}
	fmt.Fprintf(cfg.Stderr, "difffuzz: seed %d, shard %d/%d, %d lanes of %v, batch %d\n", cfg.Seed, cfg.Shard, cfg.Shards, cfg.Workers, r.names, cfg.Batch)
	if cfg.Command != "" {
		fmt.Fprintf(cfg.Stderr, "difffuzz: repeat with: %s\n", cfg.Command)
	}
	if err := r.startLanes(ctx); err != nil {
		return r.col.setupFailed(err), ExitSetup
	}
	defer r.closeLanes()
	// The corpus folder is made only once the adapters are up: a run that
	// fails at setup leaves nothing behind.
	if err := os.MkdirAll(cfg.CorpusDir, 0o755); err != nil {
		return r.col.setupFailed(fmt.Errorf("corpus: %w", err)), ExitSetup
	}
	r.col.hellos = r.lanes[0].hellos()
	err := r.loop(ctx)
	interrupted := ctx.Err() != nil
	if err == nil && !interrupted && cfg.MinimizeTime > 0 {
		err = r.col.minimizeGroups(ctx, r.lanes[0])
	}
	rep := r.col.finish(r.lanes, err, interrupted)
	return rep, rep.Exit
}

func (r *runner) startLanes(ctx context.Context) error {
	lanes := make([]*lane, r.cfg.Workers)
	errs := make([]error, r.cfg.Workers)
	var wg sync.WaitGroup
	for i := range lanes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lanes[i], errs[i] = startLane(ctx, r.cfg.Adapters, r.cfg.MaxRestarts, r.cfg.Stderr)
		}()
	}
	wg.Wait()
	for _, l := range lanes {
		if l != nil {
			r.lanes = append(r.lanes, l)
		}
	}
	if firstErr(errs) >= 0 {
		r.closeLanes()
		r.lanes = nil
		return setupError(errs[firstErr(errs)])
	}
	return nil
}

func firstErr(errs []error) int {
	for i, e := range errs {
		if e != nil {
			return i
		}
	}
	return -1
}

func (r *runner) closeLanes() {
	var wg sync.WaitGroup
	for _, l := range r.lanes {
		wg.Add(1)
		go func() { defer wg.Done(); l.close() }()
	}
	wg.Wait()
}

// loop drives the lanes and collects their results until the run ends.
func (r *runner) loop(ctx context.Context) error {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if r.cfg.Duration > 0 {
		var c2 context.CancelFunc
		runCtx, c2 = context.WithTimeout(runCtx, r.cfg.Duration)
		defer c2()
	}
	batches := r.produce(runCtx)
	var wg sync.WaitGroup
	for _, l := range r.lanes {
		wg.Add(1)
		go func() { defer wg.Done(); r.drive(runCtx, ctx, l, batches) }()
	}
	go func() { wg.Wait(); close(r.results) }()
	tick := time.NewTicker(r.cfg.StatusEvery)
	defer tick.Stop()
	var fatal error
	for {
		select {
		case d, ok := <-r.results:
			if !ok {
				r.col.status(r.lanes, true)
				return fatal
			}
			if err := r.col.add(d); err != nil && fatal == nil {
				fatal = err
				cancel()
			}
		case err := <-r.fatal:
			if fatal == nil {
				fatal = err
			}
			cancel()
		case <-tick.C:
			r.col.status(r.lanes, false)
		}
	}
}

// producers is how many goroutines generate batches ahead of the lanes.
const producers = 2

// produce generates batches off the lanes' goroutines, so that no worker
// waits while its next batch is made; the channel is closed when the case
// count is reached or runCtx ends.
func (r *runner) produce(runCtx context.Context) <-chan batch {
	out := make(chan batch, len(r.lanes))
	var wg sync.WaitGroup
	for range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for runCtx.Err() == nil {
				n := r.next.Add(1) - 1
				if r.nbatch > 0 && n >= r.nbatch {
					return
				}
				select {
				case out <- r.makeBatch(n):
				case <-runCtx.Done():
				}
			}
		}()
	}
	go func() { wg.Wait(); close(out) }()
	return out
}

// drive is one lane's loop: take a batch, run it, compare. A batch taken is
// finished unless the parent context (Ctrl-C) ends.
func (r *runner) drive(runCtx, parent context.Context, l *lane, batches <-chan batch) {
	cmp := compare.New(r.names)
	var outs [][]compare.Outcome
	var ok []bool
	for {
		var b batch
		select {
		case next, more := <-batches:
			if !more {
				return
			}
			b = next
		case <-runCtx.Done():
			return
		}
		outs, ok = grow(outs, ok, len(b.cases), len(r.names))
		if err := l.run(parent, b.wire, outs, ok); err != nil {
			if parent.Err() == nil {
				r.fatal <- err
			}
			return
		}
		r.results <- r.judge(cmp, b, outs, ok)
	}
}

func grow(outs [][]compare.Outcome, ok []bool, n, k int) ([][]compare.Outcome, []bool) {
	for len(outs) < n {
		outs = append(outs, make([]compare.Outcome, k))
	}
	if cap(ok) < n {
		ok = make([]bool, n)
	}
	return outs[:n], ok[:n]
}

// makeBatch generates batch n: this shard's case numbers n*Batch.. onward.
func (r *runner) makeBatch(n uint64) batch {
	size := uint64(r.cfg.Batch)
	first := n * size
	if r.cfg.Cases > 0 && first+size > r.cfg.Cases {
		size = r.cfg.Cases - first
	}
	b := batch{n: n, indexes: make([]uint64, size), cases: make([]any, size), classes: make([]gen.Classes, size)}
	for i := range b.cases {
		idx := (first+uint64(i))*r.cfg.Shards + r.cfg.Shard
		b.indexes[i] = idx
		b.cases[i], b.classes[i] = r.gen.Case(idx)
	}
	// Encoding here keeps it off the lanes, and on a long-lived goroutine
	// whose stack has already grown for the deepest cases. An error shows
	// again when a worker asks for the encoding.
	b.wire = &adapter.Batch{Cases: b.cases, DigestOnly: true}
	_, _ = b.wire.Encoded()
	return b
}

// judge compares every answered case of a batch.
func (r *runner) judge(cmp *compare.Comparator, b batch, outs [][]compare.Outcome, ok []bool) batchDone {
	d := batchDone{n: b.n, cases: len(b.cases), classes: b.classes}
	for i, c := range b.cases {
		if !ok[i] {
			continue
		}
		d.compared++
		for ai, o := range outs[i] {
			if o.Absent() {
				d.inexpressible = append(d.inexpressible, absent{ai, b.classes[i]})
			}
		}
		v := cmp.Compare(outs[i])
		if v.Agree {
			continue
		}
		o := append([]compare.Outcome(nil), outs[i]...)
		d.findings = append(d.findings, finding{index: b.indexes[i], input: c, outs: o, verdict: v, signatures: cmp.Signatures(v)})
	}
	return d
}

// entryOf is the corpus entry of a finding.
func entryOf(f finding, names []string, hellos []wire.Hello, seed uint64) *corpus.Entry {
	e := &corpus.Entry{Input: f.input, Kind: entryKind(f.verdict), Signature: strings.Join(f.signatures, "; "), Seed: seed, Index: f.index, Generated: true}
	e.Outcomes = outcomes(names, hellos, f.outs)
	return e
}

// entryKind is "crash" or "hang" when some adapter failed so on the case,
// else "divergence".
func entryKind(v compare.Verdict) string {
	for _, d := range v.Deviations {
		if d.Kind == compare.KindCrash || d.Kind == compare.KindHang {
			return string(d.Kind)
		}
	}
	return "divergence"
}

// outcomes records each adapter's answer with the implementation and version
// its hello named, so that a finding says which versions disagreed.
func outcomes(names []string, hellos []wire.Hello, outs []compare.Outcome) []corpus.Outcome {
	res := make([]corpus.Outcome, len(outs))
	for i, o := range outs {
		co := corpus.Outcome{Adapter: names[i], Canonical: string(o.Canonical), Error: o.Error, Failure: o.Failure, Inexpressible: o.Inexpressible}
		if o.Canonical != nil {
			co.Digest = hexDigest(o.Digest)
		}
		if o.Failure != "" || o.Error == "internal" {
			co.Stderr = o.Detail
		}
		if i < len(hellos) {
			co.Impl, co.Version = hellos[i].Name, hellos[i].Version
		}
		res[i] = co
	}
	return res
}
