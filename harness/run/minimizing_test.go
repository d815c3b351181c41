package run

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/harness/triage"
)

func TestMinimizeBudget(t *testing.T) {
	for _, tt := range []struct {
		set, fuzzed, want time.Duration
	}{
		{0, 27 * time.Second, MinMinimizeBudget}, // the 27 s run that minimized for 17.6 min
		{0, 0, MinMinimizeBudget},
		{0, 8 * time.Minute, 2 * time.Minute},
		{0, time.Hour, MaxMinimizeBudget},
		{5 * time.Second, time.Hour, 5 * time.Second},
		{-1, time.Hour, -1},
	} {
		if got := MinimizeBudget(tt.set, tt.fuzzed); got != tt.want {
			t.Errorf("MinimizeBudget(%v, %v) = %v, want %v", tt.set, tt.fuzzed, got, tt.want)
		}
	}
}

// A bucket gets its fair share of what is left, at least 10 s of it while
// that lasts, and never more than is left.
func TestShare(t *testing.T) {
	for _, tt := range []struct {
		left time.Duration
		n    int
		want time.Duration
	}{
		{30 * time.Second, 41, 10 * time.Second},
		{30 * time.Second, 1, 30 * time.Second},
		{10 * time.Minute, 3, 200 * time.Second},
		{4 * time.Second, 41, 4 * time.Second},
	} {
		if got := share(tt.left, tt.n); got != tt.want {
			t.Errorf("share(%v, %d) = %v, want %v", tt.left, tt.n, got, tt.want)
		}
	}
}

// testGroup is a bucket of n findings labelled sig.
func testGroup(sig string, n uint64) *group {
	s := compare.MustParseSignature(sig)
	g := &group{keys: []string{s.Bucket()}}
	g.name(s)
	g.Count = n
	return g
}

func collectorOf(groups ...*group) *collector {
	c := &collector{cfg: &Config{Stderr: &bytes.Buffer{}}, groups: map[string]*group{}}
	for _, g := range groups {
		c.groups[g.Signature.Bucket()] = g
		c.order = append(c.order, g.Signature.Bucket())
	}
	return c
}

func signatures(groups []*group) []string {
	var out []string
	for _, g := range groups {
		out = append(out, g.Signature.String())
	}
	return out
}

// The budget goes to collisions, then crashes and hangs, then internal
// failures and wrong output, then rejections; within one, the largest
// bucket first.
func TestMinimizeOrder(t *testing.T) {
	c := collectorOf(
		testGroup("rejection: rejects valid input with too_deep: b", 900),
		testGroup("key_order: keys in UTF-16 order: b", 50),
		testGroup("internal: Error: boom: a", 70),
		testGroup("hang: no answer: a", 1),
		testGroup("collision: a key: a", 2),
		testGroup("error_code: duplicate_key where want lone_surrogate: a", 1000),
		testGroup("crash: SIGSEGV: b", 3),
	)
	want := []string{"collision: a key: a", "crash: SIGSEGV: b", "hang: no answer: a", "internal: Error: boom: a",
		"key_order: keys in UTF-16 order: b", "error_code: duplicate_key where want lone_surrogate: a", "rejection: rejects valid input with too_deep: b"}
	if got := signatures(c.minimizeOrder()); !slices.Equal(got, want) {
		t.Errorf("order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Buckets whose minimized examples show one signature become one: the
// first minimized of them keeps its example, the bucket counts every
// finding and lists what it was made of; an overflow bucket keeps its
// label whatever its example shows.
func TestRegroup(t *testing.T) {
	relabelled := func(sig string, n uint64, label string) *group {
		g := testGroup(sig, n)
		g.Minimized, g.MinimizedInput = true, "min of "+sig
		g.relabel(compare.MustParseSignature(label))
		return g
	}
	big := relabelled("collision: a key: x, y", 10, "collision: a value: x")
	small := relabelled("collision: a value: x", 4, "collision: a value: x")
	late := testGroup("collision: a value: y", 1) // not minimized: kept apart, its label differs
	unminimized := testGroup("number: -0: x", 3)  // one label with a minimized bucket that comes after it
	numbers := relabelled("number: -0: x, y", 2, "number: -0: x")
	over := relabelled("internal: "+compare.OverflowCause+": x", 9, "internal: no handler for abc: x")
	c := collectorOf(big, small, late, unminimized, numbers, over)
	c.regroup([]*group{big, small, late, unminimized, numbers, over})
	if got, want := c.order, []string{"collision: a value: x", "collision: a value: y", "number: -0: x", "internal: " + compare.OverflowCause + ": x"}; !slices.Equal(got, want) {
		t.Fatalf("buckets %q, want %q", got, want)
	}
	g := c.groups["collision: a value: x"]
	if g != big || g.Count != 14 || !slices.Equal(g.MergedFrom, []string{"collision: a key: x, y", "collision: a value: x"}) || len(g.keys) != 2 {
		t.Errorf("merged collision: %d findings, merged from %q, keys %q", g.Count, g.MergedFrom, g.keys)
	}
	if g := c.groups["number: -0: x"]; g != numbers || g.Count != 5 || !g.Minimized || !slices.Equal(g.MergedFrom, []string{"number: -0: x, y", "number: -0: x"}) {
		t.Errorf("the minimized bucket does not lead its merge: %+v", g.Group)
	}
	if g := c.groups["collision: a value: y"]; len(g.MergedFrom) != 0 || g.Count != 1 {
		t.Errorf("a bucket merged with none lists %q", g.MergedFrom)
	}
	if over.Cause != compare.OverflowCause {
		t.Errorf("the overflow bucket was relabelled %s", over.Signature)
	}
}

// A plain bucket whose cause is a minimized collision's in the same
// implementation goes into the collision bucket: one bug, reported as a
// collision, listing both signatures. An unminimized collision, another
// implementation or a failure of the same words stays apart.
func TestRegroupTwins(t *testing.T) {
	minimized := func(sig string, n uint64) *group {
		g := testGroup(sig, n)
		g.Minimized, g.MinimizedInput = true, "min of "+sig
		g.relabel(g.Signature)
		return g
	}
	const quote = "a `\"` in a key left unescaped"
	plain := minimized("key_escape: "+quote+": x", 5) // before its collision: the order does not matter
	coll := minimized("collision: "+quote+": x", 2)
	other := minimized("key_escape: "+quote+": y", 3)
	rej := testGroup("rejection: accepts out-of-domain input (want too_deep): x", 4) // not minimized itself: still one cause
	collRej := minimized("collision: accepts out-of-domain input (want too_deep): x", 1)
	unproven := testGroup("collision: null where want an object: x", 1) // not minimized: its label is unproven
	null := minimized("structure: null where want an object: x", 6)
	c := collectorOf(plain, coll, other, rej, collRej, unproven, null)
	c.regroup([]*group{plain, coll, other, rej, collRej, unproven, null})
	want := []string{"collision: " + quote + ": x", "key_escape: " + quote + ": y", "collision: accepts out-of-domain input (want too_deep): x",
		"collision: null where want an object: x", "structure: null where want an object: x"}
	if !slices.Equal(c.order, want) {
		t.Fatalf("buckets:\n%s\nwant:\n%s", strings.Join(c.order, "\n"), strings.Join(want, "\n"))
	}
	for _, tt := range []struct {
		key    string
		g      *group
		count  uint64
		merged []string
	}{
		{"collision: " + quote + ": x", coll, 7, []string{"collision: " + quote + ": x", "key_escape: " + quote + ": x"}},
		{"collision: accepts out-of-domain input (want too_deep): x", collRej, 5,
			[]string{"collision: accepts out-of-domain input (want too_deep): x", "rejection: accepts out-of-domain input (want too_deep): x"}},
		{"key_escape: " + quote + ": y", other, 3, nil},
		{"structure: null where want an object: x", null, 6, nil},
	} {
		g := c.groups[tt.key]
		if g != tt.g || g.Count != tt.count || !slices.Equal(g.MergedFrom, tt.merged) || g.Signature.Kind != tt.g.Signature.Kind {
			t.Errorf("%s: %d findings, merged from %q; want %d, %q", tt.key, g.Count, g.MergedFrom, tt.count, tt.merged)
		}
	}
	if g := c.groups["collision: "+quote+": x"]; g.MinimizedInput != "min of collision: "+quote+": x" || len(g.keys) != 2 {
		t.Errorf("the collision bucket keeps %q and keys %q, want its own pair and both buckets' files", g.MinimizedInput, g.keys)
	}
}

// cancelOn is a writer that cancels a context the first time what is
// written holds a text: the run's own progress line is the cue.
type cancelOn struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	text   string
	cancel context.CancelFunc
}

func (w *cancelOn) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.text) {
		w.cancel()
	}
	return len(p), nil
}

// A Ctrl-C while the run minimizes is an interrupted run: the report says
// so, exits 130, and names the buckets it left as they came.
func TestInterruptWhileMinimizing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errw := &cancelOn{text: "minimizing 1/", cancel: cancel}
	var out bytes.Buffer
	rep, code := Run(ctx, Config{Adapters: specs(t, "differ"), Workers: 1, Batch: 256, Cases: 1000, Seed: 6, CorpusDir: t.TempDir(),
		MinimizeTime: time.Minute, Stdout: &out, Stderr: errw})
	if code != triage.ExitInterrupted || !rep.Interrupted || !strings.Contains(string(rep.JSON()), `"interrupted": true`) {
		t.Fatalf("exit %d, interrupted %v\n%s", code, rep.Interrupted, out.String())
	}
	left := 0
	for _, g := range rep.Distinct {
		if g.NotMinimized == report.NotMinimizedInterrupted {
			left++
		}
	}
	if left < len(rep.Distinct)-1 || !strings.Contains(out.String(), "not minimized: interrupted") {
		t.Errorf("%d of %d buckets say they were left by the interruption\n%s", left, len(rep.Distinct), out.String())
	}
}

// A budget spent before the last bucket leaves the rest as they came, and
// says so; it went to the most severe and largest buckets.
func TestBudgetSpent(t *testing.T) {
	var out, errb bytes.Buffer
	rep, _ := Run(context.Background(), Config{Adapters: specs(t, "differ"), Workers: 1, Batch: 256, Cases: 1000, Seed: 6, CorpusDir: t.TempDir(),
		MinimizeTime: 100 * time.Millisecond, Stdout: &out, Stderr: &errb})
	var spent, tried []report.Group
	for _, g := range rep.Distinct {
		if g.NotMinimized == report.NotMinimizedBudget {
			spent = append(spent, g)
		} else {
			tried = append(tried, g)
		}
	}
	if len(spent) == 0 || len(tried) == 0 || !strings.Contains(out.String(), "not minimized: budget spent: the run's minimization budget (100ms, -minimize-time) went to the") {
		t.Fatalf("%d of %d buckets say the budget was spent\n%s", len(spent), len(rep.Distinct), out.String())
	}
	rank := func(g report.Group) int { return severity(compare.Kind(g.Kind)) }
	for _, a := range tried {
		for _, b := range spent {
			if rank(a) > rank(b) || rank(a) == rank(b) && a.Count < b.Count {
				t.Errorf("the budget went to %s (%d findings) before %s (%d findings)", a.Signature, a.Count, b.Signature, b.Count)
			}
		}
	}
	if !strings.Contains(errb.String(), "  minimizing 1/") {
		t.Errorf("no progress line:\n%s", errb.String())
	}
}
