package conform

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// generated sends cfg.Cases generated cases, BatchSize a batch, and compares
// each answer with the in-process Go implementation's, byte for byte. A
// batch that breaks the worker ends the check.
func (r *runner) generated(ctx context.Context) (string, error) {
	g := gen.New(gen.Config{Seed: r.cfg.Seed, Contract: r.cfg.Contract})
	var fails failures
	n := r.cfg.Cases
	for lo := 0; lo < n; lo += BatchSize {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		cases := make([]any, min(BatchSize, n-lo))
		for i := range cases {
			cases[i], _ = g.Case(uint64(lo + i))
		}
		results, err := r.runTyped(ctx, "generated", cases)
		if err != nil {
			fails.add(r, "generated", "cases %d-%d: %v (the rest not run)", lo, lo+len(cases)-1, err)
			break
		}
		for i, c := range cases {
			if m := r.verdict(results[i], wantGo(c), c); m != "" {
				fails.add(r, "generated", "case %d of seed %d %s: %s", lo+i, r.cfg.Seed, clip.String(string(value.AppendText(nil, c)), 100), m)
			}
		}
	}
	return fmt.Sprintf("%d cases, seed %d", n, r.cfg.Seed), fails.err(n, "cases")
}

// digestOnlyCases is how many generated cases the digest-only check sends.
const digestOnlyCases = 2000

// digestOnly sends generated cases as one digest_only batch: each answer
// must be the Go implementation's, by error code or by digest (and by text
// when the worker sends the text anyway, which the protocol allows).
func (r *runner) digestOnly(ctx context.Context) (string, error) {
	g := gen.New(gen.Config{Seed: r.cfg.Seed, Contract: r.cfg.Contract})
	cases := make([]any, digestOnlyCases)
	for i := range cases {
		cases[i], _ = g.Case(uint64(i))
	}
	out := make([]wire.Result, len(cases))
	cpuBefore, start := r.w.BatchCPU(), time.Now()
	if err := r.w.RunBatch(ctx, &adapter.Batch{Cases: cases, DigestOnly: true}, out); err != nil {
		if f, ok := adapter.AsFailure(err); ok {
			r.stderrTail("digest-only", f.Stderr)
			return "", fmt.Errorf("%s: %w", f.Kind, f.Err)
		}
		return "", err
	}
	var fails failures
	texts := 0
	for i, c := range cases {
		w, got := wantGo(c), out[i]
		if got.Canonical != nil {
			texts++
		}
		if m := r.verdict(got, w, c); m != "" {
			fails.add(r, "digest-only", "case %d of seed %d %s: %s", i, r.cfg.Seed, clip.String(string(value.AppendText(nil, c)), 100), m)
		}
	}
	how := "texts left out"
	if texts > 0 {
		how = fmt.Sprintf("%d texts sent anyway (allowed)", texts)
	}
	cost, err := batchCost(r.w.BatchCPU()-cpuBefore, time.Since(start))
	if err != nil {
		fails.add(r, "digest-only", "%v", err)
	}
	return fmt.Sprintf("%d cases, %s, %s", len(cases), how, cost), fails.err(len(cases), "cases")
}

// batchCost describes what a worker said a batch cost it (batch_cpu_ns),
// which the bench charges to the implementation; a worker may leave it out,
// but no process spends more CPU than all the cores give over the batch's
// round trip.
func batchCost(cpu, wall time.Duration) (string, error) {
	if cpu == 0 {
		return "batch cost not said (no batch_cpu_ns: the bench then times it alone)", nil
	}
	if limit := wall*time.Duration(runtime.NumCPU()) + 10*time.Millisecond; cpu > limit {
		return "", fmt.Errorf("batch_cpu_ns says %v of CPU for a batch answered in %v on %d cores (nanoseconds?)", cpu, wall, runtime.NumCPU())
	}
	return fmt.Sprintf("batch cost %v of CPU", cpu.Round(time.Microsecond)), nil
}

// emptyBatch checks that a batch of no cases gets a results list of none.
func (r *runner) emptyBatch(ctx context.Context) (string, error) {
	_, err := r.runTyped(ctx, "empty-batch", []any{})
	return "", err
}

// largeValue is one large case of the large-values check.
type largeValue struct {
	name  string
	value func() any
}

var largeValues = []largeValue{
	{"a 4 MiB string", func() any { return tool(value.Object{{Key: "s", Value: bigString(4 << 20)}}) }},
	{"a 100,000-element array", func() any { return tool(value.Object{{Key: "a", Value: bigArray(100_000)}}) }},
	{"a 50,000-member object", func() any { return tool(bigObject(50_000)) }},
}

// largeValues sends each large value in a batch of its own, so that a
// failure names the value, and compares with the Go implementation.
func (r *runner) largeValues(ctx context.Context) (string, error) {
	for _, lv := range largeValues {
		v := lv.value()
		results, err := r.runTyped(ctx, "large-values", []any{v})
		if err != nil {
			return "", fmt.Errorf("%s: %w", lv.name, err)
		}
		if m := r.verdict(results[0], wantGo(v), v); m != "" {
			return "", fmt.Errorf("%s: %s", lv.name, m)
		}
	}
	return fmt.Sprintf("%d values", len(largeValues)), nil
}

// tool wraps args in the envelope.
func tool(args value.Object) value.Object {
	return value.Object{{Key: "tool_name", Value: "large"}, {Key: "args", Value: args}}
}

// bigString is up to n bytes of UTF-8 that mixes plain ASCII with every kind of
// escape: quotes, control characters, DEL, BMP and astral characters.
func bigString(n int) string {
	const unit = "plain ascii text / \"quoted\" \\ \n\t\x01\x7f \u00e9\u2028\uffff \U0001F600\U0010FFFF "
	return strings.Repeat(unit, n/len(unit))
}

// bigArray is n scalars of every kind.
func bigArray(n int) []any {
	a := make([]any, n)
	for i := range a {
		switch i % 5 {
		case 0:
			a[i] = int64(i) * 1_000_003
		case 1:
			a[i] = float64(i) / 7
		case 2:
			a[i] = strconv.Itoa(i)
		case 3:
			a[i] = i%2 == 0
		default:
			a[i] = nil
		}
	}
	return a
}

// bigObject has n members in reverse key order, keys of varied length and
// script so that sorting them takes more than a byte compare of ASCII.
func bigObject(n int) value.Object {
	o := make(value.Object, n)
	for i := range o {
		k := strconv.Itoa(n - i)
		switch i % 3 {
		case 1:
			k = "\uff61" + k
		case 2:
			k = "\U0001F600" + k
		}
		o[i] = value.Member{Key: k, Value: int64(i)}
	}
	return o
}
