package gen

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/value"
)

var update = flag.Bool("update", false, "rewrite testdata/cases.golden")

// goldenRuns are the case ranges testdata/cases.golden fingerprints: the
// start of two seeds' sequences, and indexes spread over the space the
// shards of a long run reach, under the default contract; and the start of
// a sequence under RFC 8785 (its line names the contract).
var goldenRuns = []struct {
	seed, from, step uint64
	n                int
	contract         contract.Contract // zero: the default
}{
	{seed: 1, from: 0, step: 1, n: 10000},
	{seed: 2, from: 0, step: 1, n: 10000},
	{seed: 1, from: 1 << 20, step: 104729, n: 5000},
	{seed: 1, from: 0, step: 1, n: 5000, contract: contract.RFC8785},
}

// A case is a pure function of (seed, index): findings, the README's worked
// example and the mutant zoo's table all name cases by it. A change that
// makes the generator faster must not change its output, so every case of
// goldenRuns (its value, classes and cells) is fingerprinted against a
// golden file. A change meant to alter the cases rewrites it with -update,
// and says so.
func TestCasesMatchGolden(t *testing.T) {
	var got strings.Builder
	for _, r := range goldenRuns {
		g := New(Config{Seed: r.seed, Contract: r.contract})
		h := sha256.New()
		for k := range r.n {
			v, classes, cells := g.CaseCells(r.from + uint64(k)*r.step)
			h.Write(value.AppendText(nil, v))
			var b [8]byte
			h.Write(binary.LittleEndian.AppendUint64(b[:0], uint64(classes)))
			for _, c := range cells {
				h.Write(binary.LittleEndian.AppendUint64(b[:0], uint64(c)))
			}
		}
		under := ""
		if r.contract.Name != "" {
			under = " under " + r.contract.Name
		}
		fmt.Fprintf(&got, "seed %d, %d cases from %d step %d%s: %s\n", r.seed, r.n, r.from, r.step, under, hex.EncodeToString(h.Sum(nil)))
	}
	path := filepath.Join("testdata", "cases.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestCasesMatchGolden -update writes it)", err)
	}
	if got.String() != string(want) {
		t.Errorf("the generator's cases changed:\ngot:\n%swant:\n%s", got.String(), want)
	}
}
