package run

import "testing"

// TestRanCases checks what an interrupted run's repeat line runs: whole
// batches from the first, never past -cases, and nothing when no batch
// finished (where -cases 0 would mean no limit).
func TestRanCases(t *testing.T) {
	tests := []struct {
		prefix, cases uint64
		batch         int
		want          uint64
	}{
		{prefix: 0, batch: 2048, want: 0},
		{prefix: 0, cases: 3000, batch: 2048, want: 0},
		{prefix: 1, batch: 2048, want: 2048},
		{prefix: 3, batch: 256, want: 768},
		{prefix: 1, cases: 3000, batch: 2048, want: 2048},
		{prefix: 2, cases: 3000, batch: 2048, want: 3000}, // the last batch holds 952
	}
	for _, tt := range tests {
		c := &collector{cfg: &Config{Batch: tt.batch, Cases: tt.cases}, prefix: tt.prefix}
		if got := c.ranCases(); got != tt.want {
			t.Errorf("prefix %d of batches of %d, -cases %d: ranCases = %d, want %d", tt.prefix, tt.batch, tt.cases, got, tt.want)
		}
	}
	if got := repeatCases("difffuzz run -duration 1h -seed 3", 2048); got != "difffuzz run -seed 3 -cases 2048" {
		t.Errorf("repeatCases = %q", got)
	}
}
