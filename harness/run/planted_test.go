package run

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/internal/testworker"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// TestPlantedCauses plants ten root causes in three implementations built
// from the mutant zoo, some shared and some not, and runs them against the
// reference: every cause must come out as exactly one bucket (two planted in
// one implementation's float formatter as one), named after
// the implementations that have it (never the reference), labelled with
// its cause and minimized; a cause that also makes two calls one comes out
// as its collision bucket, the plain one merged into it. Among them: an
// unescaped key, one cause in keys and values (DEL), a failure on deep
// valid input beside a deliberate rejection of NaN, UTF-16 key order, and
// two different escaping bugs.
func TestPlantedCauses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 12,000 cases through three workers and minimizes ten buckets")
	}
	mutant := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/mutant")
	impls := map[string]string{
		"sdk-a": "utf16-key-order+del-raw+nan-rejected+deep-recursion",
		"sdk-b": "utf16-key-order+html-escape+raw-non-ascii+bigint-double",
		"sdk-c": "del-raw+key-quote-raw+float-no-exp+neg-zero",
	}
	want := map[string][]string{ // root cause -> the implementations that have it
		"key_order: keys in UTF-16 order":                                                       {"sdk-a", "sdk-b"},
		`string_escape: U+007F written raw (want \u007f)`:                                       {"sdk-a", "sdk-c"},
		"internal: ValueError: Out of range float values are not JSON compliant on valid input": {"sdk-a"},
		"internal: RecursionError: maximum recursion depth exceeded at depth N on valid input":  {"sdk-a"},
		`string_escape: printable ASCII written as \uXXXX (want raw)`:                           {"sdk-b"},
		`string_escape: non-ASCII written raw (want \uXXXX)`:                                    {"sdk-b"},
		// sdk-c's two float bugs are one function's: a bucket by the
		// formatter's measured profile (docs/triage.md, "Family probes").
		"number: floats formatted otherwise: 1e21 as 1000000000000000000000, 1e23 as 100000000000000000000000, -0.0 as -0": {"sdk-c"},
		// Two of the bugs merge the generator's twins: collisions, which
		// take in the plain buckets of their causes (twins).
		"collision: a `\"` in a key left unescaped":                {"sdk-c"},
		"collision: an integer past 2^53 rounded through a double": {"sdk-b"},
	}
	twins := map[string]string{ // collision bucket -> the plain bucket merged into it
		"collision: a `\"` in a key left unescaped":                "key_escape: a `\"` in a key left unescaped: sdk-c",
		"collision: an integer past 2^53 rounded through a double": "number: an integer past 2^53 rounded through a double: sdk-b",
	}
	specs := []adapter.Spec{{Name: "reference", InProcess: true}}
	for _, name := range []string{"sdk-a", "sdk-b", "sdk-c"} {
		specs = append(specs, adapter.Spec{Name: name, Command: []string{mutant, impls[name]}})
	}
	var out, errb bytes.Buffer
	rep, _ := Run(context.Background(), Config{Adapters: specs, Workers: 1, Cases: 12000, Seed: 11, CorpusDir: t.TempDir(),
		MinimizeTime: 20 * time.Second, Stdout: &out, Stderr: &errb})
	got := map[string]report.Group{}
	for _, g := range rep.Distinct {
		got[g.Kind+": "+g.Cause] = g
	}
	for cause, deviants := range want {
		g, ok := got[cause]
		switch {
		case !ok:
			t.Errorf("planted cause %q: no bucket", cause)
			continue
		case !slices.Equal(g.Deviants, deviants):
			t.Errorf("bucket %q names %v, want %v", cause, g.Deviants, deviants)
		case !g.Minimized:
			t.Errorf("bucket %q not minimized: %s", cause, g.MinimizeNote)
		}
		if slices.Contains(g.Deviants, "reference") || g.Signature.Deviates("reference") {
			t.Errorf("bucket %q names the reference", g.Signature)
		}
	}
	for cause, plain := range twins {
		if g, ok := got[cause]; ok && !slices.Contains(g.MergedFrom, plain) {
			t.Errorf("bucket %q is merged from %q, want its twin %q among them", cause, g.MergedFrom, plain)
		}
	}
	assertProven(t, specs, rep)
	for cause, g := range got {
		if _, ok := want[cause]; !ok {
			t.Errorf("a bucket no cause was planted for: %s (%d findings), example %s", g.Signature, g.Count, clip.String(g.Example, 200))
		}
	}
	if t.Failed() {
		t.Logf("summary:\n%s\n%s", out.String(), lastLines(errb.String(), 20))
	}
}
