package run

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/triage"
)

// A run over its memory budget stops with a setup error that says how to
// raise it, and still writes its report; one within it reports the budget,
// the batches' peak and each worker's peak RSS.
func TestMemoryBudget(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget int64
		exit   int
		errHas string
	}{
		{"over", 1 << 20, triage.ExitSetup, "-max-memory"}, // a test binary is bigger than 1 MiB
		{"within", 0, triage.ExitOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.budget > 0 {
				// The user's GOMEMLIMIT wins over the budget's: here it spares
				// the runtime collecting without end to stay under 1 MiB.
				t.Setenv("GOMEMLIMIT", "off")
			}
			var out, errb bytes.Buffer
			// Cases, not a duration: a status line every millisecond shows
			// the peaks however fast the cases go.
			cfg := Config{Adapters: specs(t, "ok"), Workers: 1, Batch: 64, Cases: 3000, Seed: 1,
				CorpusDir: t.TempDir(), MinimizeTime: -1, MaxMemory: tc.budget, StatusEvery: time.Millisecond,
				Stdout: &out, Stderr: &errb}
			rep, code := Run(context.Background(), cfg)
			if code != tc.exit || !strings.Contains(rep.Error, tc.errHas) {
				t.Fatalf("exit %d, error %q; want %d and an error with %q\n%s", code, rep.Error, tc.exit, tc.errHas, errb.String())
			}
			if tc.budget != 0 {
				return
			}
			if rep.MaxMemory <= 0 || rep.BatchBytesPeak <= 0 || rep.Adapters[1].MaxRSS <= 0 || rep.Adapters[0].MaxRSS != 0 {
				t.Errorf("max_memory %d, batch_bytes_peak %d, adapters' max_rss %d (in process) and %d (worker); want all but the in-process one > 0",
					rep.MaxMemory, rep.BatchBytesPeak, rep.Adapters[0].MaxRSS, rep.Adapters[1].MaxRSS)
			}
			if !strings.Contains(errb.String(), "(peak ") || !strings.Contains(out.String(), "memory: driver peak") {
				t.Errorf("no peak RSS in the status line or the summary:\n%s\n%s", errb.String(), out.String())
			}
		})
	}
}
