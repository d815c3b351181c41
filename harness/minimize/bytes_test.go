package minimize

import (
	"context"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

// TestMaxBatchBytes: a call of fails never gets more than MaxBatchBytes of
// candidates' text, unless it gets one candidate alone, and the byte bound
// costs rounds, not the result.
func TestMaxBatchBytes(t *testing.T) {
	big := strings.Repeat("x", 20_000)
	for _, tc := range []struct {
		name  string
		bytes int
	}{
		{"one or two at a time", 25_000},
		{"a few", 70_000},
		{"unbounded", 1 << 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls, most := 0, 0
			fails := func(_ context.Context, cands []any) ([]bool, error) {
				calls++
				sum := 0
				res := make([]bool, len(cands))
				for i, c := range cands {
					sum += len(value.AppendText(nil, c))
					s, ok := c.(string)
					res[i] = ok && len(s) >= 5_000
				}
				if len(cands) > 1 && sum > tc.bytes {
					t.Errorf("call %d: %d candidates of %d bytes, over %d", calls, len(cands), sum, tc.bytes)
				}
				most = max(most, sum)
				return res, nil
			}
			got, st, err := Minimize(context.Background(), big, fails, Options{MaxBatchBytes: tc.bytes})
			if err != nil {
				t.Fatal(err)
			}
			if s, _ := got.(string); len(s) != 5_000 || strings.Trim(s, "a") != "" || !st.Minimal {
				t.Errorf("got a %T of %d bytes (minimal %v), want 5,000 a's", got, len(value.AppendText(nil, got)), st.Minimal)
			}
			t.Logf("%d rounds, %d candidates, at most %d bytes a call", st.Rounds, st.Candidates, most)
		})
	}
}
