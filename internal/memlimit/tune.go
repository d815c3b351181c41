package memlimit

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// HeapShare is the part of the budget the driver's heap stands at while
// it fuzzes (Tune): an eighth, 256 MiB of the default 2 GiB.
//
// A fixed GC percent makes the heap goal a multiple of what the last
// collection marked, and what it marks includes everything allocated
// while it marked. On a busy host a mark lasts longer and the driver
// allocates faster, so the goal, and the resident set after it, rose by
// a third over an hour with the live heap flat (docs/performance.md,
// "Memory"). Aiming the goal at a fixed size instead keeps the resident
// set flat whatever the host does; for the 50 MB a clean run of four
// adapters marks, the percent comes to about 390, near the 400 the driver
// fuzzed at before.
const HeapShare = 8

// tuneCap bounds the GC percent Tune sets when almost nothing is live, so
// that the goal stays a sane number (runtime.GC still works at any value).
const tuneCap = 10_000

// heapMinimum is the runtime's smallest heap goal at GC percent 100 (its
// defaultHeapMinimum, 4 MB). The runtime scales it by the percent, so a
// percent set while almost nothing is marked must not take that floor past
// the target: at the start of a run, GC percent 10,000 put the first goal
// at 400 MB against a target of 256 MiB.
const heapMinimum = 4 << 20

var tuning struct {
	mu      sync.Mutex
	target  int64        // the heap goal aimed at; 0 when not tuning
	ceiling atomic.Int32 // the highest GC percent to set (Thrifty lowers it)
	cycles  atomic.Int64 // collections seen, for tests
	gen     int64        // which Tune the live cleanup belongs to
}

// Tune holds the collector's heap goal near target bytes: after every
// collection it sets the GC percent so that the next goal, the marked heap
// plus that percent of the marked heap, stacks and globals, comes to
// target. The percent never goes below ThriftyGC, so once more than half
// the target is live the heap stands at twice what is live rather than
// collect without end. A GOGC in the environment (env) wins, as does
// target <= 0; stop restores the percent from before.
func Tune(target int64, env string) (stop func()) {
	if target <= 0 || env != "" {
		return func() {}
	}
	tuning.mu.Lock()
	defer tuning.mu.Unlock()
	tuning.target = target
	tuning.gen++
	tuning.ceiling.Store(tuneCap)
	old := debug.SetGCPercent(percentFor(readHeap(), target, tuneCap))
	arm(tuning.gen)
	return func() {
		tuning.mu.Lock()
		defer tuning.mu.Unlock()
		tuning.target = 0
		tuning.gen++ // the armed cleanup finds itself stale and stops
		debug.SetGCPercent(old)
	}
}

// arm attaches the next cycle's check to an object nothing holds, so that
// the runtime runs it after the collection that frees it: the way to hear
// of every collection without polling.
func arm(gen int64) {
	runtime.AddCleanup(new([64]byte), retune, gen)
}

// retune runs after each collection: it sets the percent for the next one
// and arms itself again, unless Tune was stopped (or restarted) since.
func retune(gen int64) {
	tuning.mu.Lock()
	defer tuning.mu.Unlock()
	if gen != tuning.gen || tuning.target == 0 {
		return
	}
	tuning.cycles.Add(1)
	debug.SetGCPercent(percentFor(readHeap(), tuning.target, int(tuning.ceiling.Load())))
	arm(gen)
}

// heap is what the runtime's goal is reckoned from.
type heap struct {
	marked, stacks, globals uint64
}

var heapMetrics = []string{"/gc/heap/live:bytes", "/gc/scan/stack:bytes", "/gc/scan/globals:bytes"}

func readHeap() heap {
	s := make([]metrics.Sample, len(heapMetrics))
	for i, name := range heapMetrics {
		s[i].Name = name
	}
	metrics.Read(s)
	u := func(i int) uint64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return s[i].Value.Uint64()
	}
	return heap{marked: u(0), stacks: u(1), globals: u(2)}
}

// percentFor is the GC percent whose goal is target, from the runtime's
// formula goal = marked + (marked+stacks+globals)·percent/100, within
// [ThriftyGC, ceiling], and low enough that the runtime's floor for the
// goal (heapMinimum scaled by the percent) is not above the target.
func percentFor(h heap, target int64, ceiling int) int {
	ceiling = max(min(ceiling, int(target*100/heapMinimum)), ThriftyGC)
	base := h.marked + h.stacks + h.globals
	if base == 0 || target <= int64(h.marked) {
		return ThriftyGC
	}
	p := float64(uint64(target)-h.marked) * 100 / float64(base)
	return int(math.Max(ThriftyGC, math.Min(p, float64(ceiling))))
}
