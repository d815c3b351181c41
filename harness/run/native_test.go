package run

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// The generator steers away from the native models' reasons only when
// every implementation under test has a native model; the reference's own
// model does not decide it.
func TestAvoided(t *testing.T) {
	exact := wire.Hello{Model: wire.ModelExact}
	v1 := wire.Hello{} // a version 1 worker: exact
	goAny := wire.Hello{Model: wire.ModelNative, Inexpressible: []string{"duplicate_key", "lone_surrogate", "big_int", "non_string_key", "unsupported_value"}}
	serde := wire.Hello{Model: wire.ModelNative, Inexpressible: []string{"duplicate_key", "non_finite", "teleport"}}
	goReasons := value.NeedsDuplicateKey | value.NeedsLoneSurrogate | value.NeedsBigInt | value.NeedsNonStringKey | value.NeedsUnsupported
	tests := []struct {
		name   string
		hellos []wire.Hello
		want   value.Reasons
	}{
		{"all exact", []wire.Hello{exact, exact, v1}, 0},
		{"the reference alone", []wire.Hello{goAny}, 0},
		{"one native under test", []wire.Hello{exact, goAny}, goReasons},
		{"two native: the union, unknown names left out", []wire.Hello{v1, goAny, serde}, goReasons | value.NeedsNonFinite},
		{"an exact one under test among natives", []wire.Hello{exact, goAny, exact}, 0},
		{"a native reference and a native under test", []wire.Hello{serde, goAny}, goReasons | value.NeedsNonFinite},
		{"a native reference, exact under test", []wire.Hello{goAny, exact}, 0},
	}
	for _, tt := range tests {
		if got := avoided(tt.hellos); got != tt.want {
			t.Errorf("%s: avoided %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A run whose implementation under test is native (the fake worker on
// encoding/json's any, which cannot hold 56% of the generator's own
// cases) compares at least 90% of its cases, and its cases are the
// generator's under the worker's declared reasons: a repeat of the run
// gets them again.
func TestNativeRunMostlyExpressible(t *testing.T) {
	const cases = 3000
	var out, errb bytes.Buffer
	cfg := Config{Adapters: specs(t, "native-float64"), Workers: 1, Batch: 256, Cases: cases, Seed: 3, CorpusDir: t.TempDir(), MinimizeTime: -1,
		StatusEvery: 10 * time.Millisecond, Stdout: &out, Stderr: &errb}
	rep, code := Run(context.Background(), cfg)
	if code != triage.ExitOK || rep.Divergences != 0 {
		t.Fatalf("exit %d, %d divergences\n%s\n%s", code, rep.Divergences, out.String(), errb.String())
	}
	fake := rep.Adapters[1]
	if share := float64(rep.Compared-fake.Inexpressible) / float64(rep.Compared); share < 0.90 || fake.Inexpressible == 0 {
		t.Errorf("fake expressed %.1f%% of %d cases (%d inexpressible), want at least 90%%, and some not", 100*share, rep.Compared, fake.Inexpressible)
	}
	if !strings.Contains(errb.String(), "cases drawn to need none of duplicate_key, lone_surrogate, big_int") {
		t.Errorf("the run does not say it steers the generator:\n%s", lastLines(errb.String(), 20))
	}
	avoid, _ := value.ParseReasons([]string{"duplicate_key", "lone_surrogate", "big_int", "non_string_key", "unsupported_value"})
	wantCoverage(t, rep, gen.Config{Seed: 3, Avoid: avoid}, cases)
}

// A run of exact implementations sends exactly the generator's own cases
// (those TestCasesMatchGolden pins): its coverage is theirs, class by class.
func TestExactRunCasesUnchanged(t *testing.T) {
	const cases = 3000
	var out, errb bytes.Buffer
	cfg := Config{Adapters: specs(t, "ok"), Workers: 1, Batch: 256, Cases: cases, Seed: 3, CorpusDir: t.TempDir(), MinimizeTime: -1,
		Stdout: &out, Stderr: &errb}
	rep, code := Run(context.Background(), cfg)
	if code != triage.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if strings.Contains(errb.String(), "cases drawn to need none") {
		t.Errorf("a run of exact models steers the generator:\n%s", errb.String())
	}
	wantCoverage(t, rep, gen.Config{Seed: 3}, cases)
}

// wantCoverage holds a report's class coverage to that of the first n
// cases of a generator of cfg.
func wantCoverage(t *testing.T, rep *report.Report, cfg gen.Config, n uint64) {
	t.Helper()
	g := gen.New(cfg)
	want := map[string]uint64{}
	for i := range n {
		_, classes := g.Case(i)
		for _, c := range gen.List() {
			if classes.Has(c) {
				want[c.String()]++
			}
		}
	}
	for _, c := range rep.Coverage {
		if c.Cases != want[c.Class] {
			t.Errorf("class %s: %d cases in the run, %d in the generator's first %d under %+v", c.Class, c.Cases, want[c.Class], n, cfg)
		}
	}
}
