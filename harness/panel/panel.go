package panel

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/minimize"
	"github.com/difffuzz/difffuzz/harness/probe"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Panel is one instance of every adapter of a run, and the restart policy
// they live by: one goroutine drives it; within a batch, its adapters work
// in parallel. A batch's outcomes come back per case and adapter; a worker
// that fails a batch is restarted and the batch re-run case by case, so
// that the case that broke it is found.
type Panel struct {
	adapters    []adapter.Adapter
	names       []string
	inProcess   []bool // adapters[i] runs in this process (see each)
	cmp         *compare.Comparator
	results     [][]wire.Result
	stats       []Stats
	maxRestarts int
	log         io.Writer
	families    map[probe.Family]*profiles            // measured by Family, once a panel
	drifts      []Drift                               // the last Run's (Drifts)
	reasked     []int                                 // the last Run's (Reasked)
	fresh       func(context.Context) (*Panel, error) // a new panel of the same adapters (Fresh); nil for Of's
	// RoundTrips counts the batches Judge sent to each adapter.
	RoundTrips int
	// Contract names the contract the panel's reference follows when it is
	// not this project's ("" for that): its corpus entries record it.
	Contract string
	// ContractFile is the path of that contract's file, "" for a
	// built-in (contract.Contract.Source).
	ContractFile string
	// MaxCandidateBytes bounds the text of the candidates Minimize judges
	// at once (minimize.Options.MaxBatchBytes); 0 means the minimizer's
	// default. The caller sizes it to its memory budget.
	MaxCandidateBytes int
	// MinimizeProgress, if set, is told where Minimize and MinimizePair
	// are (minimize.Options.Progress), for a status line.
	MinimizeProgress func(minimize.Progress)
}

// DefaultMaxRestarts is how many times in a row a worker may fail to
// restart, or break the protocol, before the panel gives up on it.
const DefaultMaxRestarts = 3

// Stats are one adapter's counters in one panel.
type Stats struct {
	// Batches and Busy (summed wall time of its batches, in nanoseconds)
	// are read by the status line while the panel runs.
	Batches      atomic.Uint64
	Busy         atomic.Int64
	Failures     uint64 // batches it failed (crash, hang, protocol, killed)
	ProtocolErrs uint64
	setupFails   int // consecutive failed restarts
	protoStreak  int // consecutive protocol failures
}

// Start starts one instance of every adapter; maxRestarts 0 means
// DefaultMaxRestarts. On error it stops those it started; the error is a
// *adapter.Failure for a worker that would not start.
func Start(ctx context.Context, specs []adapter.Spec, maxRestarts int, log io.Writer) (*Panel, error) {
	if maxRestarts <= 0 {
		maxRestarts = DefaultMaxRestarts
	}
	l := &Panel{maxRestarts: maxRestarts, log: log, stats: make([]Stats, len(specs))}
	l.fresh = func(ctx context.Context) (*Panel, error) { return Start(ctx, specs, maxRestarts, log) }
	for _, s := range specs {
		l.names = append(l.names, s.Name)
		l.inProcess = append(l.inProcess, s.InProcess)
		var a adapter.Adapter
		if s.InProcess {
			var err error
			if a, err = adapter.NewInProcessFor(s.Name, s.Contract); err != nil {
				l.Close()
				return nil, err
			}
		} else {
			w, err := adapter.Start(ctx, s)
			if err != nil {
				l.Close()
				if f, ok := adapter.AsFailure(err); ok && s.Build != "" {
					f.Err = fmt.Errorf("%w (is it built? %q builds it)", f.Err, s.Build)
				}
				return nil, err
			}
			a = w
		}
		l.adapters = append(l.adapters, a)
		l.results = append(l.results, nil)
	}
	judged := contract.Default
	if len(specs) > 0 && specs[0].Contract.Name != "" {
		judged = specs[0].Contract // a worker follows it by its own command line
	}
	l.JudgeBy(judged)
	return l, nil
}

// Of makes a panel of adapters its caller has started already (the survey
// starts each library once, and its tests pass fake libraries in process),
// named by names, with the default restart policy. The panel owns them:
// Close stops them.
func Of(names []string, adapters []adapter.Adapter, log io.Writer) *Panel {
	l := &Panel{maxRestarts: DefaultMaxRestarts, log: log, stats: make([]Stats, len(adapters)),
		names: slices.Clone(names), adapters: slices.Clone(adapters), results: make([][]wire.Result, len(adapters))}
	for _, a := range adapters {
		_, worker := a.(*adapter.Worker)
		l.inProcess = append(l.inProcess, !worker)
	}
	l.cmp = compare.New(l.names)
	return l
}

// JudgeBy says the panel's reference follows contract c: its divergences'
// causes say what c wants (compare.NewFor), and its corpus entries name c
// when it is not this project's. New calls it with its reference's
// contract; a caller of Of whose reference follows another calls it
// before the first Judge.
func (l *Panel) JudgeBy(c contract.Contract) {
	l.cmp = compare.NewFor(l.names, c)
	l.cmp.WithVariants(adapter.Variants(c))
	l.Contract, l.ContractFile = "", c.Source
	if c.Name != contract.Default.Name {
		l.Contract = c.Name
	}
}

// Adapters are the panel's adapters, in the order of its specs.
func (l *Panel) Adapters() []adapter.Adapter { return l.adapters }

// Stats are adapter ai's counters in this panel.
func (l *Panel) Stats(ai int) *Stats { return &l.stats[ai] }

// hellos are what the panel's implementations say of themselves.
func (l *Panel) Hellos() []wire.Hello {
	hs := make([]wire.Hello, len(l.adapters))
	for i, a := range l.adapters {
		hs[i] = a.Hello()
	}
	return hs
}

// Close stops every adapter of the panel at once (each worker by escalation)
// and waits for them.
func (l *Panel) Close() {
	var wg sync.WaitGroup
	for _, a := range l.adapters {
		wg.Add(1)
		go func() { defer wg.Done(); a.Close() }()
	}
	wg.Wait()
}

// run gives outs[i][a], adapter a's outcome on cases[i]. A case some adapter
// could not answer within the protocol has ok[i] false and is not compared.
// A non-nil error is fatal to the run (a worker that cannot be restarted).
//
// When b is digest-only, the cases whose outcomes its digests do not settle
// (see compare.Settled) are asked again with text: on the fuzzing loop's hot
// path, where nearly every case agrees, this keeps the canonical texts off
// the pipes and out of the driver. An adapter whose second answer differs
// from its first is a Drift (Drifts): the second answer is in outs, the
// first is not forgotten.
func (l *Panel) Run(ctx context.Context, b *adapter.Batch, outs [][]compare.Outcome, ok []bool) error {
	l.drifts, l.reasked = l.drifts[:0], l.reasked[:0]
	if err := l.runBatch(ctx, b, outs, ok); err != nil {
		return err
	}
	if !b.DigestOnly {
		return nil
	}
	cases := b.Cases
	var again []int
	for i := range cases {
		if ok[i] && !compare.Settled(outs[i]) {
			again = append(again, i)
		}
	}
	if len(again) == 0 {
		return nil
	}
	first := l.firstAnswers(outs, again)
	l.reasked = again
	if err := l.reask(ctx, cases, outs, ok, again); err != nil {
		return err
	}
	l.noteDrifts(first, outs, ok, again)
	return nil
}

// reask asks each adapter again, with text, for those of the cases again
// whose outcome it gave without text; its other outcomes (errors, crashes)
// stand, so that a crashing case is not run twice.
func (l *Panel) reask(ctx context.Context, cases []any, outs [][]compare.Outcome, ok []bool, again []int) error {
	asked := make([][]int, len(l.adapters))
	for ai := range l.adapters {
		for _, i := range again {
			if outs[i][ai].Textless() {
				asked[ai] = append(asked[ai], i)
			}
		}
	}
	unanswered := make([][]int, len(l.adapters))
	err := l.each(func(ai int) (err error) {
		if len(asked[ai]) == 0 {
			return nil
		}
		sub := make([]any, len(asked[ai]))
		rows := make([][]compare.Outcome, len(asked[ai])) // outs' own rows, filled in place
		for j, i := range asked[ai] {
			sub[j], rows[j] = cases[i], outs[i]
		}
		unanswered[ai], err = l.runAdapter(ctx, ai, &adapter.Batch{Cases: sub}, rows)
		return err
	})
	for ai, js := range unanswered {
		for _, j := range js {
			ok[asked[ai][j]] = false
		}
	}
	return err
}

// runBatch is one round trip of b to every adapter, in parallel.
func (l *Panel) runBatch(ctx context.Context, b *adapter.Batch, outs [][]compare.Outcome, ok []bool) error {
	unanswered := make([][]int, len(l.adapters))
	err := l.each(func(ai int) (err error) {
		unanswered[ai], err = l.runAdapter(ctx, ai, b, outs)
		return err
	})
	for i := range ok {
		ok[i] = true
	}
	for _, is := range unanswered {
		for _, i := range is {
			ok[i] = false
		}
	}
	return err
}

// each runs fn(ai) for every adapter at once and returns the first error in
// adapter order. The worker-backed adapters get a goroutine each; the
// in-process ones run on the calling goroutine, which lives as long as the
// panel, so its stack grows once for the deepest cases instead of on every
// batch (a fresh goroutine's stack would be copied again and again as the
// Go implementation recurses into a case 1,000 levels deep).
func (l *Panel) each(fn func(ai int) error) error {
	errs := make([]error, len(l.adapters))
	var wg sync.WaitGroup
	for ai := range l.adapters {
		if !l.inProcess[ai] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[ai] = fn(ai)
			}()
		}
	}
	for ai := range l.adapters {
		if l.inProcess[ai] {
			errs[ai] = fn(ai)
		}
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// runAdapter runs b on adapter ai and fills outs[i][ai] for each case. A
// batch the adapter fails is re-run case by case; it returns the indexes of
// the cases left unanswered (a protocol breach, an outside kill), which are
// not to be compared.
func (l *Panel) runAdapter(ctx context.Context, ai int, b *adapter.Batch, outs [][]compare.Outcome) ([]int, error) {
	a, st, cases := l.adapters[ai], &l.stats[ai], b.Cases
	if cap(l.results[ai]) < len(cases) {
		l.results[ai] = make([]wire.Result, len(cases))
	}
	res := l.results[ai][:len(cases)]
	start := time.Now()
	err := a.RunBatch(ctx, b, res)
	st.Batches.Add(1)
	st.Busy.Add(int64(time.Since(start)))
	if err == nil {
		st.setupFails, st.protoStreak = 0, 0
		for i, r := range res {
			outs[i][ai] = compare.OutcomeOf(r).WithTemplate(cases[i])
		}
		return nil, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	f, isFailure := adapter.AsFailure(err)
	if !isFailure {
		return nil, err
	}
	st.Failures++
	fmt.Fprintf(l.log, "difffuzz: %v; restarting it and re-running the batch's %d cases one by one\n", f, len(cases))
	if f.Kind == adapter.Setup {
		if err := l.setupFailed(ctx, ai, f); err != nil {
			return nil, err
		}
	}
	var unanswered []int
	for i, c := range cases {
		o, answered, err := l.isolate(ctx, ai, c, b.DigestOnly)
		if err != nil {
			return nil, err
		}
		outs[i][ai] = o
		if !answered {
			unanswered = append(unanswered, i)
		}
	}
	return unanswered, nil
}

// isolate runs one case alone on adapter ai, restarting it as needed. A case
// that crashes or hangs the worker is an outcome; a protocol breach or an
// outside kill leaves the case unanswered.
func (l *Panel) isolate(ctx context.Context, ai int, c any, digestOnly bool) (compare.Outcome, bool, error) {
	a, st := l.adapters[ai], &l.stats[ai]
	var r [1]wire.Result
	for kills := 0; ; {
		err := a.RunBatch(ctx, &adapter.Batch{Cases: []any{c}, DigestOnly: digestOnly}, r[:])
		if err == nil {
			st.setupFails, st.protoStreak = 0, 0
			return compare.OutcomeOf(r[0]).WithTemplate(c), true, nil
		}
		if ctx.Err() != nil {
			return compare.Outcome{}, false, ctx.Err()
		}
		f, isFailure := adapter.AsFailure(err)
		if !isFailure {
			return compare.Outcome{}, false, err
		}
		switch f.Kind {
		case adapter.Crash:
			return compare.Outcome{Failure: compare.FailCrash, Detail: failureDetail(f)}.WithTemplate(c), true, nil
		case adapter.Hang:
			return compare.Outcome{Failure: compare.FailHang, Detail: failureDetail(f)}.WithTemplate(c), true, nil
		case adapter.Setup:
			if err := l.setupFailed(ctx, ai, f); err != nil {
				return compare.Outcome{}, false, err
			}
		case adapter.Protocol:
			st.ProtocolErrs++
			st.protoStreak++
			fmt.Fprintf(l.log, "difffuzz: %v\n", f)
			if st.protoStreak > l.maxRestarts {
				return compare.Outcome{}, false, fmt.Errorf("adapter %s breaks the protocol again and again (last: %v); giving up", a.Name(), f.Err)
			}
			return compare.Outcome{}, false, nil
		case adapter.Killed:
			// Not the input's fault, unless it happens every time: then the
			// case likely makes the worker exhaust memory.
			if kills++; kills > 2 {
				return compare.Outcome{Failure: compare.FailCrash, Detail: failureDetail(f)}.WithTemplate(c), true, nil
			}
			fmt.Fprintf(l.log, "difffuzz: %v (not the input's fault); retrying the case\n", f)
		}
	}
}

// setupFailed counts a worker that would not start again and waits a
// little longer each time before the next try, so that a worker that cannot
// start does not spin; an interrupted run stops waiting at once.
func (l *Panel) setupFailed(ctx context.Context, ai int, f *adapter.Failure) error {
	st := &l.stats[ai]
	st.setupFails++
	if st.setupFails > l.maxRestarts {
		return fmt.Errorf("%v: could not be restarted after %d tries\n%s", f, l.maxRestarts, f.StderrTail())
	}
	backoff := time.NewTimer(time.Duration(st.setupFails) * 100 * time.Millisecond)
	defer backoff.Stop()
	select {
	case <-backoff.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func failureDetail(f *adapter.Failure) string {
	return f.Err.Error() + "\n" + f.Stderr
}
