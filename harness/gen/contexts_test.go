package gen

import (
	"math/big"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

// cellSample is how many cases TestEveryCellHit draws: about 24 directed
// cases per in-domain cell; -short draws a third and checks in-domain
// cells only.
const cellSample = 100_000

// TestEveryCellHit checks the generator's reach: over cellSample cases
// every applicable (class × context) cell is hit, so that a 60-second run
// (about 600,000 cases) leaves none unhit.
func TestEveryCellHit(t *testing.T) {
	n := cellSample
	if testing.Short() {
		n /= 3
	}
	g := New(Config{Seed: 1})
	var cv Coverage
	for i := range n {
		_, _, cells := g.CaseCells(uint64(i))
		cv.Add(&cells)
	}
	least, leastCell := ^uint64(0), Cell{}
	for _, c := range AllCells() {
		if k := cv.Count(c); k < least && (!testing.Short() || !c.Class.OutOfDomain()) {
			least, leastCell = k, c
		}
	}
	t.Logf("%d cells over %d cases; least hit %s (%d)", len(AllCells()), n, leastCell, least)
	for _, c := range cv.Unhit() {
		if testing.Short() && c.Class.OutOfDomain() {
			continue
		}
		t.Errorf("cell %s never hit in %d cases", c, n)
	}
}

// TestCellsAreApplicableAndDeterministic: a case reports only applicable
// cells, always the same ones, and the classes it reports.
func TestCellsAreApplicableAndDeterministic(t *testing.T) {
	g := New(Config{Seed: 4})
	for i := range uint64(3000) {
		_, c1, cells := g.CaseCells(i)
		_, c2, again := g.CaseCells(i)
		if c1 != c2 || cells != again {
			t.Fatalf("case %d: cells differ between calls", i)
		}
		for _, cl := range List() {
			set := cells.Of(cl)
			if set&^Applicable(cl) != 0 {
				t.Fatalf("case %d: %s in %s, not applicable", i, cl, set)
			}
			if c1.Has(cl) != (set != 0) {
				t.Fatalf("case %d: class %s present %v, cells %s", i, cl, c1.Has(cl), set)
			}
		}
	}
}

func TestCoverage(t *testing.T) {
	var a, b Coverage
	var one, two Cells
	one[0] = 1<<CtxSize1 | 1<<CtxAlone
	two[0] = 1 << CtxSize1
	two[bitIndex(ClassEscape)] = 1 << CtxKey
	a.Add(&one)
	b.Add(&two)
	b.Add(&two)
	a.Merge(&b)
	tests := []struct {
		cell Cell
		want uint64
	}{
		{Cell{ClassSpecialFloat, CtxSize1}, 3},
		{Cell{ClassSpecialFloat, CtxAlone}, 1},
		{Cell{ClassEscape, CtxKey}, 2},
		{Cell{ClassEscape, CtxValue}, 0},
		{Cell{0, CtxKey}, 0},
	}
	for _, tt := range tests {
		if got := a.Count(tt.cell); got != tt.want {
			t.Errorf("Count(%s) = %d, want %d", tt.cell, got, tt.want)
		}
	}
	if a.Cases != 3 {
		t.Errorf("Cases %d, want 3", a.Cases)
	}
	unhit := a.Unhit()
	if len(unhit) != len(AllCells())-3 || unhit[0] != (Cell{ClassSpecialFloat, CtxSizeFew}) {
		t.Errorf("%d unhit of %d, first %v", len(unhit), len(AllCells()), unhit[0])
	}
	seen := map[string]bool{}
	for _, c := range AllCells() {
		if seen[c.String()] {
			t.Errorf("cell name %s repeated", c)
		}
		seen[c.String()] = true
	}
	for _, cl := range List() {
		if Applicable(cl)&(1<<CtxAlone|1<<CtxCombined) == 0 {
			t.Errorf("class %s has no company cell", cl)
		}
	}
}

func bitIndex(c Classes) int {
	for i := range numClasses {
		if c == 1<<i {
			return i
		}
	}
	return -1
}

// TestProbesReachTheLimits: over a run's first cases, the probes reach
// each limit of the spec at, below and above it, and the sizes where
// implementations switch paths.
func TestProbesReachTheLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("draws 60,000 cases")
	}
	g := New(Config{Seed: 1})
	depths := map[int]bool{}
	digits := map[int]bool{}
	longest := 0
	for i := range uint64(60_000) {
		v, _ := g.Case(i)
		var sh shape
		measure(v, 1, &sh)
		depths[sh.depth] = true
		longest = max(longest, sh.strLen)
		walkInts(v, func(n int) { digits[n] = true })
	}
	for _, d := range []int{511, 512, 513} {
		if !depths[d] {
			t.Errorf("no case of depth %d", d)
		}
	}
	for _, d := range []int{4299, 4300, 4301} {
		if !digits[d] {
			t.Errorf("no integer of %d digits", d)
		}
	}
	if longest < 65536 {
		t.Errorf("longest string %d code points, want >= 65,536", longest)
	}
}

// walkInts calls fn with the digit count of every big integer in v.
func walkInts(v any, fn func(int)) {
	switch v := v.(type) {
	case *big.Int:
		fn(len(new(big.Int).Abs(v).String()))
	case []any:
		for _, e := range v {
			walkInts(e, fn)
		}
	case value.Object:
		for _, m := range v {
			walkInts(m.Value, fn)
		}
	}
}

// TestHugeValues: the rare probes are what they say: 100,000-digit
// integers, and long strings over 1 MiB of canonical text.
func TestHugeValues(t *testing.T) {
	s := &state{cfg: &Config{LongStringLen: DefaultLongStringLen}, rules: &rules{}}
	var maxDigits, maxText int
	for i := range uint64(4000) {
		s.reset(1, i)
		if n := len(s.hugeInt().(*big.Int).String()); n > maxDigits {
			maxDigits = n
		}
		s.reset(2, i)
		str := s.longOccurrence(&probe{class: ClassLongString}, flavorWord)
		if n := len(value.AppendText(nil, str)); n > maxText {
			maxText = n
		}
	}
	if maxDigits < 99_999 || maxDigits > 100_001 { // a sign counts one
		t.Errorf("longest huge integer %d characters, want 100,000 digits", maxDigits)
	}
	if maxText <= 1<<20 {
		t.Errorf("longest long string %d bytes of text, want over 1 MiB", maxText)
	}
}

// TestDirectedCasesHitTheirCell: a directed case hits the cell it was
// built for (a few miss: an alone case whose number happens to be -0.0,
// say), and every cell is some directed case's target.
func TestDirectedCasesHitTheirCell(t *testing.T) {
	const seed = 6
	g := New(Config{Seed: seed, OutOfDomain: 0.2})
	hits, misses := map[Cell]int{}, map[Cell]int{}
	var missed []string
	n := sampleSize(t) * 2
	for i := range uint64(n) {
		_, classes, cells := g.CaseCells(i)
		s := &state{cfg: &g.cfg, rules: &g.rules}
		s.reset(seed, i)
		cell, ok := s.directedCell(classes.OutOfDomain())
		if !ok {
			continue
		}
		if cells.Has(cell) {
			hits[cell]++
		} else {
			misses[cell]++
			if len(missed) < 5 {
				missed = append(missed, cell.String())
			}
		}
	}
	total, miss := 0, 0
	for _, c := range AllCells() {
		total += hits[c] + misses[c]
		miss += misses[c]
		if hits[c] == 0 && !testing.Short() {
			t.Errorf("cell %s: %d directed cases, none hit it", c, misses[c])
		}
	}
	t.Logf("%d directed cases, %d missed their cell (e.g. %v)", total, miss, missed)
	if miss*50 > total {
		t.Errorf("%d of %d directed cases missed their cell", miss, total)
	}
}
