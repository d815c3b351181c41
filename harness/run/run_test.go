package run

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	_ "github.com/difffuzz/difffuzz/harness/inprocess" // the in-process adapter
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/harness/retain"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/internal/testworker"
)

func specs(t *testing.T, mode string) []adapter.Spec {
	return []adapter.Spec{{Name: "go", InProcess: true}, {Name: "fake", Command: testworker.Command(t, mode)}}
}

func quietRun(t *testing.T, cfg Config) int {
	t.Helper()
	var out, errb bytes.Buffer
	cfg.Stdout, cfg.Stderr = &out, &errb
	_, code := Run(context.Background(), cfg)
	if code == triage.ExitSetup && cfg.KnownPath == "" {
		t.Fatalf("run failed:\n%s\n%s", out.String(), errb.String())
	}
	return code
}

// divergenceNames lists the corpus file names in dir but the collisions'.
func divergenceNames(t *testing.T, dir string) []string {
	files, err := corpus.Files([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	entries, _, err := corpus.LoadAll(files)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, e := range entries {
		if e.Kind != "collision" {
			out = append(out, filepath.Base(files[i]))
		}
	}
	return out
}

// names lists the corpus file names in dir.
func names(t *testing.T, dir string) []string {
	files, err := corpus.Files([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		out = append(out, filepath.Base(f))
	}
	sort.Strings(out)
	return out
}

func TestShardsAreDisjointAndMergeEqualsOneRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs five fuzzing runs")
	}
	const shards, perShard = 4, 100
	root := t.TempDir()
	seen := map[uint64]int{}
	var dirs []string
	for s := uint64(0); s < shards; s++ {
		dir := filepath.Join(root, "shard", string(rune('0'+s)))
		dirs = append(dirs, dir)
		// KeepAll: with the corpus bound, each shard would keep its own
		// first 20 of a bucket, and the union would not be one run's.
		code := quietRun(t, Config{Adapters: specs(t, "differ"), Workers: 1, Batch: 64, Cases: perShard, Seed: 9, KeepAll: true,
			Shard: s, Shards: shards, CorpusDir: filepath.Join(dir, "corpus"), Outputs: report.Outputs{"json": filepath.Join(dir, "report.json")}, MinimizeTime: -1})
		if code != triage.ExitDivergence {
			t.Fatalf("shard %d: exit %d, want 1", s, code)
		}
		files, _ := corpus.Files([]string{filepath.Join(dir, "corpus")})
		entries, _, err := corpus.LoadAll(files)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Kind == "collision" {
				continue // the differ worker's texts collide: a pair's entry holds a case of the shard again
			}
			if e.Index%shards != s {
				t.Errorf("shard %d made case %d", s, e.Index)
			}
			if prev, dup := seen[e.Index]; dup {
				t.Errorf("case %d made by shards %d and %d", e.Index, prev, s)
			}
			seen[e.Index] = int(s)
		}
	}
	one := filepath.Join(root, "one")
	quietRun(t, Config{Adapters: specs(t, "differ"), Workers: 2, Batch: 50, Cases: shards * perShard, Seed: 9, KeepAll: true, CorpusDir: one, MinimizeTime: -1})
	merged := filepath.Join(root, "merged")
	var out, errb bytes.Buffer
	if code := triage.Merge(triage.MergeConfig{Out: merged, Outputs: report.Outputs{"json": filepath.Join(root, "merged.json")}, Stdout: &out, Stderr: &errb}, dirs); code != triage.ExitDivergence {
		t.Fatalf("merge exit %d\n%s%s", code, out.String(), errb.String())
	}
	// Collision entries are named by both cases of a pair, and which pairs
	// a run meets depends on which cases it saw together: they are left out.
	got, want := divergenceNames(t, merged), divergenceNames(t, one)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("merged corpus has %d files, one run %d; they differ", len(got), len(want))
	}
	if !strings.Contains(out.String(), "400 cases") {
		t.Errorf("merged summary does not sum the shards' cases:\n%s", out.String())
	}
}

func TestKnownDivergences(t *testing.T) {
	dir := t.TempDir()
	known := filepath.Join(dir, "known.txt")
	run := func(mode string) int {
		return quietRun(t, Config{Adapters: specs(t, mode), Workers: 1, Cases: 2000, Seed: 5, CorpusDir: filepath.Join(dir, "corpus"), KnownPath: known, MinimizeTime: -1})
	}
	os.WriteFile(known, []byte("# accepted\nnumber: a number of 1e21 or more printed in full (want exponent form): fake # the fake prints big floats as integers\n"), 0o644)
	if code := run("number"); code != triage.ExitOK {
		t.Errorf("listed divergence: exit %d, want 0", code)
	}
	if code := run("keyorder"); code != triage.ExitDivergence {
		t.Errorf("a new divergence (and a stale entry): exit %d, want 1", code)
	}
	if code := run("ok"); code != triage.ExitDivergence {
		t.Errorf("stale entry alone: exit %d, want 1", code)
	}
	os.WriteFile(known, []byte("number: a number of 1e21 or more printed in full (want exponent form): fake\n"), 0o644)
	if code := run("number"); code != triage.ExitSetup {
		t.Errorf("entry without a reason: exit %d, want 2", code)
	}
	// A list in the old form (no cause) is a setup error that says how to
	// update it, and -update-known carries its reasons over.
	os.WriteFile(known, []byte("number: fake # the fake prints big floats as integers\n"), 0o644)
	if code := run("number"); code != triage.ExitSetup {
		t.Errorf("old-form entry: exit %d, want 2", code)
	}
	code := quietRun(t, Config{Adapters: specs(t, "number"), Workers: 1, Cases: 2000, Seed: 5, CorpusDir: filepath.Join(dir, "corpus"),
		KnownPath: known, UpdateKnown: true, MinimizeTime: -1})
	data, _ := os.ReadFile(known)
	if code != triage.ExitOK || !strings.Contains(string(data), "number: a number of 1e21 or more printed in full (want exponent form): fake # the fake prints big floats as integers (carried over") {
		t.Errorf("update of an old list: exit %d, list:\n%s", code, data)
	}
}

func TestMergeShardThatFoundNothing(t *testing.T) {
	root := t.TempDir()
	clean := filepath.Join(root, "clean")
	os.MkdirAll(clean, 0o755)
	os.WriteFile(filepath.Join(clean, "report.json"), []byte(`{"seed":3,"cases":500,"compared":500,"seconds":2,"command":"difffuzz run -shard 1/2 -seed 3"}`), 0o644)
	var out, errb bytes.Buffer
	merged := filepath.Join(root, "merged")
	code := triage.Merge(triage.MergeConfig{Out: merged, Outputs: report.Outputs{"json": filepath.Join(root, "m.json")}, Stdout: &out, Stderr: &errb}, []string{clean})
	if code != triage.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	if n := len(names(t, merged)); n != 0 {
		t.Errorf("merged corpus has %d files, want none (report.json is not a finding)", n)
	}
	for _, want := range []string{"500 cases", "repeat with: difffuzz run -shard I/2 -seed 3"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
}

// The run asks for digests only and asks again with text where they differ:
// every finding it saves must still carry each adapter's canonical text, and
// the worker's wrong text must be the one that deviates.
func TestDigestFirstFindingsCarryText(t *testing.T) {
	dir := t.TempDir()
	code := quietRun(t, Config{Adapters: specs(t, "keyorder"), Workers: 1, Batch: 64, Cases: 2000, Seed: 4, CorpusDir: dir, MinimizeTime: -1})
	if code != triage.ExitDivergence {
		t.Fatalf("exit %d, want 1", code)
	}
	files, err := corpus.Files([]string{dir})
	if err != nil || len(files) == 0 {
		t.Fatalf("no findings saved (%v)", err)
	}
	entries, _, err := corpus.LoadAll(files)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Signatures.String() != "key_order: keys in UTF-16 order: fake" {
			t.Errorf("finding with signature %q, want only key_order: keys in UTF-16 order: fake", e.Signatures)
		}
		for _, o := range e.Outcomes {
			if o.Canonical == "" || len(o.Digest) != 64 {
				t.Errorf("signature %q: %s's outcome lacks its text or digest: %+v", e.Signatures, o.Adapter, o)
			}
		}
		if e.Outcomes[0].Canonical == e.Outcomes[1].Canonical {
			t.Errorf("the saved texts are equal: %q", e.Outcomes[0].Canonical)
		}
	}
}

// A native worker's inexpressible answers are never compared nor counted
// as divergences: they are counted per adapter, by reason and by edge
// class, and the status line and the summary give the expressible share.
func TestInexpressibleCountedNotCompared(t *testing.T) {
	var out, errb bytes.Buffer
	cfg := Config{Adapters: specs(t, "native"), Workers: 1, Cases: 3000, Seed: 3, CorpusDir: t.TempDir(), MinimizeTime: -1,
		StatusEvery: time.Millisecond, Stdout: &out, Stderr: &errb}
	rep, code := Run(context.Background(), cfg)
	if code != triage.ExitOK || rep.Divergences != 0 {
		t.Fatalf("exit %d, %d divergences: a native model's gaps are not divergences\n%s", code, rep.Divergences, out.String())
	}
	fake := rep.Adapters[1]
	classes := map[string]uint64{}
	for _, c := range fake.InexpressibleByClass {
		classes[c.Class] = c.Cases
	}
	if fake.Inexpressible == 0 || classes["duplicate-key"] == 0 || classes["lone-surrogate"] == 0 {
		t.Errorf("inexpressible %d by class %v: want duplicate keys and lone surrogates among them", fake.Inexpressible, classes)
	}
	if rep.Adapters[0].Inexpressible != 0 {
		t.Errorf("the exact Go adapter has %d inexpressible cases", rep.Adapters[0].Inexpressible)
	}
	reasons := map[string]uint64{}
	var sum uint64
	for _, r := range fake.InexpressibleByReason {
		reasons[r.Reason], sum = r.Cases, sum+r.Cases
	}
	if sum != fake.Inexpressible || reasons["duplicate_key"] == 0 || reasons["lone_surrogate"] == 0 {
		t.Errorf("inexpressible %d by reason %v: want them all, duplicate keys and lone surrogates among them", fake.Inexpressible, reasons)
	}
	if !strings.Contains(out.String(), "cannot express") || !strings.Contains(out.String(), "duplicate_key ") ||
		!strings.Contains(out.String(), "% expressible") || !strings.Contains(errb.String(), "expressible: fake ") {
		t.Errorf("summary or status line does not show the inexpressible cases:\n%s\n%s", out.String(), lastLines(errb.String(), 5))
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// TestSteadyWindows: the span after the warm-up is cut into windows, each
// with its cases and every process's CPU, and together they are the span
// (the last, shorter piece left out).
//
// The run is a number of cases, not a duration, and its windows short: a
// window ends at the first batch 10 ms or more after it began, so 32
// batches through a worker make several windows on any host, more on a
// slow one, and the test never waits for the clock. (Not shorter: the
// batch that ends the warm-up also ends a window, empty, when reading
// every process's CPU takes longer than a window.)
func TestSteadyWindows(t *testing.T) {
	const window = 10 * time.Millisecond
	var out, errb bytes.Buffer
	cfg := Config{Adapters: specs(t, "ok"), Workers: 1, Batch: 256, Cases: 32 * 256, Warmup: window, Window: window,
		Seed: 4, CorpusDir: t.TempDir(), MinimizeTime: -1, StatusEvery: time.Hour, Stdout: &out, Stderr: &errb}
	rep, code := Run(context.Background(), cfg)
	if code != triage.ExitOK || rep.Steady == nil {
		t.Fatalf("exit %d, steady %v\n%s", code, rep.Steady, errb.String())
	}
	s := rep.Steady
	if len(s.Windows) < 3 {
		t.Fatalf("%d windows in a %.3fs span of %v windows", len(s.Windows), s.Seconds, window)
	}
	var cases uint64
	var seconds, cpu, inProcess, worker float64
	for _, w := range s.Windows {
		if w.Cases == 0 || w.Seconds < window.Seconds() || w.DriverCPUSeconds <= 0 || len(w.AdapterCPUSeconds) != 2 || len(w.BatchCPUSeconds) != 2 {
			t.Errorf("window %+v: want cases, at least %v, the driver's CPU and one figure per adapter", w, window)
			continue
		}
		// What the implementations said their batches cost is a part of
		// what their processes spent (/proc counts in 10 ms ticks). Either
		// may be 0 in one window of 10 ms on a busy host (the in-process
		// adapter answers ahead of the worker, and may have answered a
		// window's batches in the one before; a worker's clock may not
		// have ticked): each figure is there over the windows together.
		for ai, spent := range []float64{w.DriverCPUSeconds, w.AdapterCPUSeconds[1]} {
			if b := w.BatchCPUSeconds[ai]; b < 0 || b > spent+0.02 {
				t.Errorf("window %+v: adapter %d's batches took %.3fs of its process's %.3fs", w, ai, b, spent)
			}
		}
		cases, seconds, cpu = cases+w.Cases, seconds+w.Seconds, cpu+w.DriverCPUSeconds
		inProcess += w.BatchCPUSeconds[0]
		worker += w.BatchCPUSeconds[1]
	}
	if cases > s.Cases || seconds > s.Seconds+0.01 || cpu > s.DriverCPUSeconds+0.01 {
		t.Errorf("windows add up to %d cases, %.2fs, %.2fs of driver CPU: more than the span's %d, %.2fs, %.2fs",
			cases, seconds, cpu, s.Cases, s.Seconds, s.DriverCPUSeconds)
	}
	if inProcess <= 0 || worker <= 0 {
		t.Errorf("the batches took no CPU in %d windows: in process %.3fs, the worker's %.3fs", len(s.Windows), inProcess, worker)
	}
}

// A worker that diverges on every case fills no more than each bucket's
// share of the corpus: -keep examples, the first among them, and the
// minimized one; -keep-all writes them all. It answers every case with one
// text, so its cases collide too: collision buckets, bounded alike, whose
// findings are pairs of those cases.
//
// Under -short, 400 cases: two buckets still overflow the default -keep,
// and with -keep-all every finding is still a file (each one synced to
// disk, which is what the full 3,000 cost).
func TestCorpusBoundedPerBucket(t *testing.T) {
	cases := uint64(3000)
	if testing.Short() {
		cases = 400
	}
	for _, tt := range []struct {
		keep    int
		keepAll bool
	}{{0, false}, {3, false}, {0, true}} {
		t.Run(fmt.Sprintf("keep=%d,all=%v", tt.keep, tt.keepAll), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var out, errb bytes.Buffer
			rep, code := Run(context.Background(), Config{Adapters: specs(t, "differ"), Workers: 2, Batch: 256, Cases: cases, Seed: 6,
				CorpusDir: dir, KeepPerBucket: tt.keep, KeepAll: tt.keepAll, MinimizeTime: shortBudget(5 * time.Second), Stdout: &out, Stderr: &errb})
			if code != triage.ExitDivergence || len(rep.Distinct) == 0 {
				t.Fatalf("keep %d: exit %d, %d buckets\n%s", tt.keep, code, len(rep.Distinct), out.String())
			}
			keep := cmp.Or(tt.keep, retain.DefaultKeepPerBucket)
			var want, all uint64
			for _, g := range rep.Distinct {
				// Every case is a finding: of a plain bucket, or of the
				// collision bucket it was merged into (its twin, which
				// counts its pairs too).
				if g.Kind != "collision" || slices.ContainsFunc(g.MergedFrom, func(s string) bool { return !strings.HasPrefix(s, "collision: ") }) {
					all += g.Count
				}
				// A bucket merged from n kept each one's examples, and each
				// one's minimized example.
				n := uint64(max(len(g.MergedFrom), 1))
				w := min(g.Count, n*uint64(keep))
				if tt.keepAll {
					w = g.Count
				}
				if !tt.keepAll && (g.Written > w || g.Written < min(g.Count, uint64(keep))) {
					t.Errorf("keep %d: bucket %s (merged from %d) wrote %d of %d, want %d", tt.keep, g.Signature, n, g.Written, g.Count, w)
				}
				if _, err := os.Stat(g.First); err != nil {
					t.Errorf("keep %d: bucket %s's first example is not on disk: %v", tt.keep, g.Signature, err)
				}
				want += w
				if g.MinimizedPath != "" {
					want += n
				}
			}
			if n := uint64(len(names(t, dir))); n > want || all < cases {
				t.Errorf("keep %d, all %v: %d files, want at most %d, for %d findings", tt.keep, tt.keepAll, n, want, all)
			}
		})
	}
}

// shortBudget is the minimizing budget of a run whose test checks what
// minimizing adds (a file, a report field), not how far it gets: full in
// the long tests, half a second under -short, which the first buckets
// (the most severe, then the largest) get and the others go without.
func shortBudget(full time.Duration) time.Duration {
	if testing.Short() {
		return 500 * time.Millisecond
	}
	return full
}

// A worker whose failure messages name every input in words makes a root
// cause of every finding: past -max-buckets, the run counts them in one
// overflow bucket, writes at most -keep of them, and says why in the
// summary; without a limit every finding is a bucket.
//
// Under -short, 300 cases rather than 1,000: without a limit each bucket
// writes its files, synced one by one.
func TestBucketLimit(t *testing.T) {
	cases := 1000
	if testing.Short() {
		cases = 300
	}
	for _, tt := range []struct {
		max, want int // the limit; the buckets, the overflow one included (at least)
	}{{5, 6}, {-1, cases * 9 / 10}} {
		t.Run(fmt.Sprint("max=", tt.max), func(t *testing.T) {
			t.Parallel()
			bucketLimit(t, uint64(cases), tt.max, tt.want)
		})
	}
}

// bucketLimit is one run of TestBucketLimit: with the limit maxBuckets,
// want buckets (at least, without a limit).
func bucketLimit(t *testing.T, cases uint64, maxBuckets, want int) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	rep, code := Run(context.Background(), Config{Adapters: specs(t, "unique-errors"), Workers: 1, Batch: 256, Cases: cases, Seed: 3,
		CorpusDir: dir, KeepPerBucket: 2, MaxBuckets: maxBuckets, MinimizeTime: -1, Stdout: &out, Stderr: &errb})
	if maxBuckets < 0 {
		if len(rep.Distinct) < want {
			t.Errorf("no limit: %d buckets, want at least %d", len(rep.Distinct), want)
		}
		return
	}
	if code != triage.ExitDivergence || len(rep.Distinct) != want {
		t.Fatalf("max %d: exit %d, %d buckets, want %d", maxBuckets, code, len(rep.Distinct), want)
	}
	over := rep.Distinct[0] // the largest
	if over.Cause != compare.OverflowCause || over.Count != rep.Divergences-5 || over.Written != 2 {
		t.Errorf("the overflow bucket is %s, %d findings, %d written; want %q, %d, 2",
			over.Signature, over.Count, over.Written, compare.OverflowCause, rep.Divergences-5)
	}
	if !strings.Contains(out.String(), "hint: the run had 5 buckets, its limit") {
		t.Errorf("the summary does not explain the overflow bucket:\n%.3000s", out.String())
	}
	// Nearly every finding of this worker is a cause of its own (a
	// few words normalize alike): the overflow bucket counts them,
	// and lists the first 20 with their findings.
	listed := uint64(0)
	for _, f := range over.Folded {
		listed += f.Count
	}
	if over.FoldedCauses > int(over.Count) || over.FoldedCauses < int(over.Count)*9/10 || len(over.Folded) != report.MaxFoldedListed ||
		listed < report.MaxFoldedListed || !strings.Contains(out.String(), fmt.Sprintf("  folded %d causes: internal: ", over.FoldedCauses)) {
		t.Errorf("the overflow bucket of %d findings folded %d causes, listed %d (%d findings)\n%.3000s",
			over.Count, over.FoldedCauses, len(over.Folded), listed, out.String())
	}
	if n := len(names(t, dir)); n != 5+2 {
		t.Errorf("%d corpus files, want 7 (one each of 5 buckets, 2 of the overflow)", n)
	}
}
