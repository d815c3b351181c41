package minimize

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

// Progress is told after each call of fails, rounds counting up, and its
// last word is the result's size and the pass of the last step; a pair's
// names the pass running.
func TestProgress(t *testing.T) {
	var seen []Progress
	opt := Options{Progress: func(p Progress) { seen = append(seen, p) }}
	hasX := func(_ context.Context, cands []any) ([]bool, error) {
		res := make([]bool, len(cands))
		for i, c := range cands {
			res[i] = value.NeedsAny(c, value.NeedsNonFinite)
		}
		return res, nil
	}
	in := value.Object{{Key: "a", Value: []any{1.0, "xyz", math.NaN()}}, {Key: "b", Value: "long string"}}
	_, st, err := Minimize(context.Background(), in, hasX, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != st.Rounds || !slices.IsSortedFunc(seen, func(a, b Progress) int { return a.Rounds - b.Rounds }) {
		t.Fatalf("%d reports for %d rounds: %+v", len(seen), st.Rounds, seen)
	}
	if last := seen[len(seen)-1]; last.Size != st.EndSize || last.Pass == "" {
		t.Errorf("last report %+v, want size %d and a pass", last, st.EndSize)
	}
	seen = nil
	both := func(_ context.Context, pairs [][2]any) ([]bool, error) {
		return make([]bool, len(pairs)), nil
	}
	if _, _, _, err := MinimizePair(context.Background(), "a", "b", both, opt); err == nil || len(seen) != 1 || seen[0].Pass != "joint" {
		t.Errorf("pair: %v, %+v", err, seen)
	}
}
