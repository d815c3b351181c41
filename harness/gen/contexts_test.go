package gen

import (
	"testing"
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
