package memlimit

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercentFor(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name    string
		h       heap
		target  int64
		ceiling int
		want    int
	}{
		{"the goal comes to the target", heap{marked: 50 * mib, stacks: 1 * mib, globals: 1 * mib}, 256 * mib, tuneCap, 396},
		{"little live: a high percent, capped", heap{marked: 2 * mib}, 1024 * mib, tuneCap, tuneCap},
		{"... whose floor for the goal is the target", heap{marked: 2 * mib}, 256 * mib, tuneCap, 6400},
		{"... but never past the ceiling", heap{marked: 2 * mib}, 256 * mib, 400, 400},
		{"more than half the target live: twice what is live", heap{marked: 200 * mib}, 256 * mib, tuneCap, ThriftyGC},
		{"more than the target live", heap{marked: 300 * mib}, 256 * mib, tuneCap, ThriftyGC},
		{"nothing marked yet", heap{}, 256 * mib, tuneCap, ThriftyGC},
		{"a ceiling below the floor is the floor", heap{marked: 2 * mib}, 256 * mib, 10, ThriftyGC},
	} {
		if got := percentFor(tc.h, tc.target, tc.ceiling); got != tc.want {
			t.Errorf("%s: percentFor(%+v, %d, %d) = %d, want %d", tc.name, tc.h, tc.target, tc.ceiling, got, tc.want)
		}
	}
}

// sink keeps a live set reachable across collections.
var sink [][]byte

// collect runs a collection and waits until Tune has heard of it, then
// returns the runtime's heap goal.
func collect(t *testing.T) uint64 {
	t.Helper()
	seen := tuning.cycles.Load()
	deadline := time.Now().Add(10 * time.Second)
	for tuning.cycles.Load() == seen {
		if time.Now().After(deadline) {
			t.Fatal("no retune within 10 s of a collection")
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func near(got, want uint64, tol float64) bool {
	return float64(got) >= float64(want)*(1-tol) && float64(got) <= float64(want)*(1+tol)
}

// Tune aims the goal at the target while little is live, at twice what is
// live past half of it, and at twice what is live under Thrifty; stop
// gives back the percent from before.
func TestTuneHoldsTheGoal(t *testing.T) {
	const mib = 1 << 20
	const target = 96 * mib
	before := debug.SetGCPercent(137)
	defer debug.SetGCPercent(before)

	stop := Tune(target, "")
	live := func(n int) {
		sink = nil
		for range n {
			sink = append(sink, make([]byte, mib))
		}
	}
	live(8)
	if goal := collect(t); !near(goal, target, 0.05) {
		t.Errorf("8 MiB live: goal %d MiB, want the target, %d MiB", goal/mib, target/mib)
	}
	live(64)
	if goal := collect(t); !near(goal, 128*mib, 0.10) {
		t.Errorf("64 MiB live: goal %d MiB, want about twice what is live, 128 MiB", goal/mib)
	}
	live(8)
	restore := Thrifty("")
	if goal := collect(t); !near(goal, 16*mib, 0.25) {
		t.Errorf("8 MiB live, thrifty: goal %d MiB, want about twice what is live, 16 MiB", goal/mib)
	}
	restore()
	if goal := collect(t); !near(goal, target, 0.05) {
		t.Errorf("8 MiB live, thrifty ended: goal %d MiB, want the target again, %d MiB", goal/mib, target/mib)
	}
	stop()
	if p := debug.SetGCPercent(before); p != 137 {
		t.Errorf("after stop the GC percent is %d, want the 137 from before", p)
	}
	sink = nil
}

// A GOGC in the environment, or no target, leaves the collector alone.
func TestTuneLeavesTheUsersGOGC(t *testing.T) {
	before := debug.SetGCPercent(137)
	defer debug.SetGCPercent(before)
	for _, tc := range []struct {
		target int64
		env    string
	}{{64 << 20, "50"}, {0, ""}, {-1, ""}} {
		stop := Tune(tc.target, tc.env)
		runtime.GC()
		if p := debug.SetGCPercent(137); p != 137 {
			t.Errorf("Tune(%d, %q) set the GC percent to %d", tc.target, tc.env, p)
		}
		stop()
	}
}
