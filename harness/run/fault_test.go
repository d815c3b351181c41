package run

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/internal/testworker"
)

func TestSIGKILLMidRunCountsAddUp(t *testing.T) {
	if testing.Short() {
		t.Skip("a fuzzing run")
	}
	const cases = 30000
	// The first worker to serve a case is killed: past its hello, mid-run.
	says := filepath.Join(t.TempDir(), "says")
	adapters := specs(t, "ok")
	adapters[1].Env = []string{testworker.SaysEnv + "=" + says}
	var out, errb bytes.Buffer
	var rep *report.Report
	var code int
	done := make(chan struct{})
	go func() {
		defer close(done)
		rep, code = Run(context.Background(), Config{Adapters: adapters, Workers: 2, Batch: 128, Cases: cases, Seed: 11,
			CorpusDir: t.TempDir(), MinimizeTime: -1, Stdout: &out, Stderr: &errb})
	}()
	if p, err := os.FindProcess(testworker.Said(t, says, "serving", 1)[0]); err == nil {
		p.Kill() // SIGKILL: as the OOM killer would
	}
	<-done
	if code != triage.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if rep.Cases != cases || rep.Compared != cases {
		t.Errorf("cases %d, compared %d; want %d of each", rep.Cases, rep.Compared, cases)
	}
	if !strings.Contains(errb.String(), "killed by signal 9 (killed)") {
		t.Errorf("the kill was not noticed:\n%s", errb.String())
	}
	if rep.Adapters[1].Starts < 3 {
		t.Errorf("fake started %d times, want a restart", rep.Adapters[1].Starts)
	}
}

func TestFaultyWorkersAreFindingsAndSurvived(t *testing.T) {
	tests := []struct {
		mode     string
		mark     string
		wantSig  string
		wantCode int
		cases    uint64
		restarts string // the reason of every restart; "" for none
	}{
		// A failure's bucket is its name and its trigger, what the
		// reference made of the case: the marked key is in valid and
		// out-of-domain cases alike, one bucket for each verdict.
		{"crash", "__proto__", "crash: worker exited with status N (EOF) (fakeworker: crashing on the marked case) on valid input: fake", triage.ExitDivergence, 1500, "crash"},
		{"hang", "__proto__", "hang: no answer before the deadline (fakeworker: hanging on the marked case) on valid input: fake", triage.ExitDivergence, 256, "hang"},
		{"lie-digest", "", "digest: digest is not BLAKE3 of its own text: fake", triage.ExitDivergence, 300, ""},
		// an SDK's own signature of its right text, hashed with its surrogate pairs unescaped
		{"sign-astral", "", "digest: digest is not BLAKE3 of its own text: fake", triage.ExitDivergence, 2000, ""},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			argv := testworker.Command(t, tt.mode)
			if tt.mark != "" {
				argv = append(argv, tt.mark)
			}
			fake := adapter.Spec{Name: "fake", Command: argv}
			if tt.mode == "hang" {
				// A short deadline for the hang alone: the other modes answer
				// slowly on a busy host, and must not be taken for hangs.
				fake.BatchTimeout, fake.CaseTimeout = 300*time.Millisecond, time.Millisecond
			}
			cfg := Config{Adapters: []adapter.Spec{{Name: "go", InProcess: true}, fake},
				Workers: 1, Batch: 64, Cases: tt.cases, Seed: 2, CorpusDir: t.TempDir(), MinimizeTime: -1}
			var out, errb bytes.Buffer
			cfg.Stdout, cfg.Stderr = &out, &errb
			rep, code := Run(context.Background(), cfg)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\n%s", code, tt.wantCode, errb.String())
			}
			if len(rep.Distinct) == 0 || rep.Distinct[0].Signature.String() != tt.wantSig || !sameFailure(rep.Distinct) {
				t.Fatalf("distinct %+v, want %q first (the most findings), the rest its failure on other triggers", rep.Distinct, tt.wantSig)
			}
			if rep.Compared != rep.Cases || rep.Cases != tt.cases {
				t.Errorf("cases %d compared %d, want %d of each", rep.Cases, rep.Compared, tt.cases)
			}
			if tt.mark != "" && !strings.Contains(rep.Distinct[0].Example, tt.mark) {
				t.Errorf("the finding %s is not the marked case", rep.Distinct[0].Example)
			}
			// Each restart has its reason, in the report, the summary and
			// the status line.
			fr := rep.Adapters[1]
			if n := fr.RestartsByReason[tt.restarts]; (tt.restarts == "") != (fr.Restarts == 0) || n != fr.Restarts || len(fr.RestartsByReason) > 1 {
				t.Errorf("restarts %d, by reason %v; want all of them %q", fr.Restarts, fr.RestartsByReason, tt.restarts)
			}
			if tt.restarts != "" {
				want := fmt.Sprintf("(%d restarts: %s %d)", fr.Restarts, tt.restarts, fr.Restarts)
				if !strings.Contains(out.String(), want) {
					t.Errorf("the summary does not say %q:\n%s", want, out.String())
				}
				if want := fmt.Sprintf("  restarts: fake %s %d  ", tt.restarts, fr.Restarts); !strings.Contains(errb.String(), want) {
					t.Errorf("no status line says %q:\n%s", want, errb.String())
				}
			}
		})
	}
}

func TestLyingWorkerEndsTheRunClearly(t *testing.T) {
	for _, mode := range []string{"garbage", "wrong-id", "wrong-count", "oversized"} {
		t.Run(mode, func(t *testing.T) {
			var out, errb bytes.Buffer
			rep, code := Run(context.Background(), Config{Adapters: specs(t, mode), Workers: 1, Batch: 8, Cases: 64, Seed: 1,
				CorpusDir: t.TempDir(), MinimizeTime: -1, MaxRestarts: 2, Stdout: &out, Stderr: &errb})
			if code != triage.ExitSetup {
				t.Fatalf("exit %d, want 2", code)
			}
			if !strings.Contains(rep.Error, "adapter fake") || rep.Compared != 0 {
				t.Errorf("error %q, compared %d", rep.Error, rep.Compared)
			}
		})
	}
}

func TestWorkerThatWillNotStart(t *testing.T) {
	var out, errb bytes.Buffer
	rep, code := Run(context.Background(), Config{Adapters: specs(t, "exit-at-start"), Workers: 1, Cases: 10, CorpusDir: t.TempDir(), Stdout: &out, Stderr: &errb})
	if code != triage.ExitSetup || !strings.Contains(rep.Error, "refusing to start") {
		t.Errorf("exit %d, error %q; want 2 and the worker's stderr", code, rep.Error)
	}
}

// sameFailure reports whether gs are one failure on several triggers: their
// kinds and causes up to the trigger (the last " on ") are the first's.
func sameFailure(gs []report.Group) bool {
	name := gs[0].Cause
	if i := strings.LastIndex(name, " on "); i >= 0 {
		name = name[:i]
	}
	for _, g := range gs {
		if g.Kind != gs[0].Kind || g.Cause != name && !strings.HasPrefix(g.Cause, name+" on ") {
			return false
		}
	}
	return true
}
