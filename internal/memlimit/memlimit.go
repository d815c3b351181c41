// Package memlimit holds a process to a memory budget (difffuzz's
// -max-memory): it makes the budget the Go runtime's soft memory limit,
// counts in bytes what the driver holds on purpose (the batches in flight,
// the findings waiting to be written) so that producers wait rather than
// grow the heap, and watches the resident set, so that a run that cannot
// keep to its budget stops and says so instead of being killed by the
// kernel's OOM killer without a report.
package memlimit

import (
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
)

// Default is the driver's budget when none is given: 2 GiB. A 7 GB CI
// runner (GitHub's standard Linux runner) then holds the driver, its
// workers (two lanes of three worker processes, each under 150 MiB in an
// hour's soak: docs/performance.md), the OS and the runner's own agent,
// with a gigabyte to spare. A clean run keeps under 400 MiB of it, so the
// budget binds only on what would otherwise have grown without bound.
const Default = 2 << 30

// Size is a number of bytes, written as a flag with a unit: 2GiB, 512MiB,
// 1.5G, 300M, 64KiB, or bytes alone. Decimal units (K, M, G, KB, MB, GB)
// are powers of 1,000, binary ones (KiB, MiB, GiB) powers of 1,024.
type Size int64

var units = []struct {
	suffix string
	mult   float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1e3}, {"m", 1e6}, {"g", 1e9}, {"t", 1e12},
	{"b", 1},
}

// Set parses s (flag.Value).
func (z *Size) Set(s string) error {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range units {
		if num, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(num), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || !(f >= 0) || f*mult >= math.MaxInt64 { // !(f >= 0): NaN too
		return fmt.Errorf("%q is not a size: want a number of bytes with a unit, such as 2GiB, 512MiB or 1.5G", s)
	}
	*z = Size(f * mult)
	return nil
}

// String writes z in the largest binary unit that divides it, or in MiB
// to a tenth.
func (z Size) String() string {
	switch {
	case z == 0:
		return "0"
	case z%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", z>>30)
	case z%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", z>>20)
	case z >= 1<<20:
		return fmt.Sprintf("%.1fMiB", float64(z)/(1<<20))
	}
	return strconv.FormatInt(int64(z), 10) + "B"
}

// Limit makes budget the Go runtime's soft memory limit
// (debug.SetMemoryLimit), so that the collector runs more often as the
// heap nears it, whatever GOGC says; budget <= 0 leaves the runtime's
// limit alone. A GOMEMLIMIT in the environment wins: it is the user's.
// The limit covers the Go runtime's memory, not the binary's text or the
// kernel's pages, so the resident set can stand a little above it; Watch
// allows for that. It returns the function that restores the limit before.
func Limit(budget int64, env string) (restore func()) {
	if budget <= 0 || env != "" {
		return func() {}
	}
	old := debug.SetMemoryLimit(budget)
	return func() { debug.SetMemoryLimit(old) }
}

// ThriftyGC is the GC percent of work whose heap is a few large values
// rather than a stream of small ones: minimizing a megabyte finding, whose
// candidates are near-copies of it. The driver fuzzes at GC percent 400
// (cmd/difffuzz: CPU for the implementations), under which the heap
// stands at five times what is live; minimizing the zoo's 1.2 MB finding
// peaked at 379 MiB so, and at 132 MiB at 100 (docs/performance.md).
const ThriftyGC = 100

// Thrifty sets the GC percent to ThriftyGC, unless GOGC (env) is set: the
// user's word wins. While Tune is holding the heap at its target, Thrifty
// lowers its ceiling to ThriftyGC too, so the next collection does not
// undo it. It returns the function that restores both.
func Thrifty(env string) (restore func()) {
	if env != "" {
		return func() {}
	}
	ceiling := tuning.ceiling.Swap(ThriftyGC)
	old := debug.SetGCPercent(ThriftyGC)
	return func() {
		tuning.ceiling.Store(ceiling)
		debug.SetGCPercent(old)
	}
}
