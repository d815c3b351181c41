package bench

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/harness/panel"
)

// cost is one implementation's CPU per case alone: canonicalize and hash,
// and with decoding; and split, the share of the second that is the first.
type cost struct{ cpu, decode, split float64 }

// makeSample is the cases every implementation times itself over.
func makeSample(cfg Config) []any {
	g := gen.New(gen.Config{Seed: cfg.Seed})
	sample := make([]any, cfg.Sample)
	for i := range sample {
		sample[i], _ = g.Case(uint64(i))
	}
	return sample
}

// timeImpls has each implementation time itself over the sample in a fresh
// worker process (a JIT compiles each process differently: one TypeScript
// worker in a few decodes a third slower than the others for its whole
// life), adds the timings to all, and returns each one's costs: this
// round's medians.
func timeImpls(ctx context.Context, cfg Config, sample []any, all []timings) ([]cost, error) {
	var costs []cost
	for i, s := range cfg.Adapters {
		a, err := openAdapter(ctx, s)
		if err != nil {
			return nil, err
		}
		var t timings
		all[i].rounds, err = t.take(ctx, a, sample, all[i].rounds)
		a.Close()
		if err != nil {
			return nil, err
		}
		all[i].add(t)
		costs = append(costs, t.cost())
	}
	return costs, nil
}

func openAdapter(ctx context.Context, s adapter.Spec) (adapter.Adapter, error) {
	if s.InProcess {
		return adapter.NewInProcessFor(s.Name, s.Contract)
	}
	w, err := adapter.Start(ctx, s)
	if err != nil {
		return nil, panel.SetupError(err)
	}
	return w, nil
}

// timingsEach is how many times a worker process times itself: the medians
// of all of an implementation's timings (pairs*timingsEach) are its costs,
// so that neither one disturbed timing (another process, a collection) nor
// one unlucky process moves the limit.
const timingsEach = 3

// timings holds one implementation's timings per case, by figure, and the
// rounds a timing takes (0 before the first calibration).
type timings struct {
	wall, cpu, decode []float64
	rounds            int
}

func (t *timings) add(u timings) {
	t.wall, t.cpu, t.decode = append(t.wall, u.wall...), append(t.cpu, u.cpu...), append(t.decode, u.decode...)
}

// cost is the medians of the timings' CPU figures, and the median of
// their splits: each timing's two loops run back to back, so a slowed host
// moves both alike, where the medians of either may come from different
// seconds.
func (t *timings) cost() cost {
	splits := make([]float64, len(t.cpu))
	for i := range splits {
		splits[i] = 1
		if t.decode[i] > 0 {
			splits[i] = min(t.cpu[i]/t.decode[i], 1)
		}
	}
	return cost{median(slices.Clone(t.cpu)), median(slices.Clone(t.decode)), median(splits)}
}

// rate is the implementation's cost: the median of its wall-clock timings
// beside c, the medians of its CPU figures (cost).
func (t *timings) rate(c cost) ImplRate {
	r := ImplRate{NsPerCase: median(slices.Clone(t.wall)), CPUNsPerCase: c.cpu, DecodeCPUNsPerCase: c.decode}
	r.CasesPerSec = 1e9 / r.NsPerCase
	return r
}

// take has a time itself timingsEach times over sample, each timing of
// rounds passes; rounds 0 means to calibrate first, with one round, to about
// 0.7 seconds' worth (which a process warms up on too). It returns the
// rounds it used.
func (t *timings) take(ctx context.Context, a adapter.Adapter, sample []any, rounds int) (int, error) {
	one, err := a.Bench(ctx, sample, 1)
	if err != nil {
		return 0, fmt.Errorf("adapter %s: bench: %w", a.Name(), err)
	}
	if rounds == 0 {
		rounds = min(int(700*time.Millisecond/max(time.Duration(one.ElapsedNS), time.Millisecond))+1, 100)
	}
	for range timingsEach {
		b, err := a.Bench(ctx, sample, rounds)
		if err != nil || b.Count == 0 {
			return 0, fmt.Errorf("adapter %s: bench: %v (count %d)", a.Name(), err, b.Count)
		}
		if b.CPUNS == 0 { // a version 1 worker: its wall time stands in
			b.CPUNS, b.DecodeCPUNS = b.ElapsedNS, b.ElapsedNS
		}
		n := float64(b.Count)
		t.wall = append(t.wall, float64(b.ElapsedNS)/n)
		t.cpu = append(t.cpu, float64(b.CPUNS)/n)
		t.decode = append(t.decode, float64(b.DecodeCPUNS)/n)
	}
	return rounds, nil
}

func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}
