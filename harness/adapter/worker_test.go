//go:build unix

package adapter_test

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/inprocess"
	"github.com/difffuzz/difffuzz/internal/testworker"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

func tcase(arg string) any {
	return value.Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: value.Object{{Key: "a", Value: arg}}}}
}

func start(t *testing.T, argv []string) *adapter.Worker {
	t.Helper()
	w, err := adapter.Start(context.Background(), adapter.Spec{Name: "fake", Command: argv,
		BatchTimeout: 500 * time.Millisecond, CaseTimeout: time.Millisecond, StartTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

func TestWorkerAnswersLikeInProcess(t *testing.T) {
	for _, mode := range []string{"ok", "v1", "v2", "v3", "chatty"} {
		t.Run(mode, func(t *testing.T) { answersLikeInProcess(t, mode) })
	}
}

// answersLikeInProcess holds a worker to the in-process Go, twice, on one
// process: a worker on the descriptors (protocol 4, and an older one of 3), one on stdin and stdout
// (version 2), one of version 1 (no model in its hello), and one that prints
// to stdout and stderr on every case, whose lines are its log.
func answersLikeInProcess(t *testing.T, mode string) {
	w := start(t, testworker.Command(t, mode))
	cases := []any{tcase("x"), tcase("\u00e9\U0001F600"), value.Object{}, tcase("\xed\xa0\x80")}
	out := make([]wire.Result, len(cases))
	for range 2 {
		if err := w.Run(context.Background(), cases, out); err != nil {
			t.Fatalf("%v\n%s", err, w.Stderr())
		}
		for i, c := range cases {
			want := inprocess.Compute(c)
			if string(out[i].Canonical) != string(want.Canonical) || out[i].Error != want.Error {
				t.Errorf("case %d: worker %q/%q, in process %q/%q", i, out[i].Canonical, out[i].Error, want.Canonical, want.Error)
			}
		}
	}
	want := map[string]int{"ok": wire.FDProtocolVersion, "v1": 1, "v2": wire.ProtocolVersion, "v3": wire.OldestFDProtocol, "chatty": wire.FDProtocolVersion}[mode]
	if h := w.Hello(); h.Name != "fakeworker-"+mode || h.Protocol != want {
		t.Errorf("hello = %+v, want protocol %d", h, want)
	}
	if w.StartCount() != 1 {
		t.Errorf("starts = %d, want 1", w.StartCount())
	}
	if mode == "chatty" {
		// The tail is filled by goroutines draining the worker's streams,
		// which may lag its answers (much so under -race): wait a little.
		lines := []string{"stdout: debug: starting\n", "stdout: debug: canonicalizing {\"tool_name\"", "debug: canonicalized\n"}
		has := func() bool {
			for _, line := range lines {
				if !strings.Contains(w.Stderr(), line) {
					return false
				}
			}
			return true
		}
		for deadline := time.Now().Add(5 * time.Second); !has() && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		for _, line := range lines {
			if !strings.Contains(w.Stderr(), line) {
				t.Errorf("the worker's output tail %q lacks %q", w.Stderr(), line)
			}
		}
	}
}

func TestWorkerFaults(t *testing.T) {
	tests := []struct {
		mode, mark string
		kind       adapter.FailureKind
		stderr     string // a substring the failure's stderr must hold
	}{
		{"crash", "BOOM", adapter.Crash, "crashing on the marked case"},
		{"abort", "BOOM", adapter.Crash, "aborting"},
		{"hang", "BOOM", adapter.Hang, "hanging"},
		{"garbage", "", adapter.Protocol, ""},
		{"wrong-id", "", adapter.Protocol, ""},
		{"wrong-count", "", adapter.Protocol, ""},
		{"oversized", "", adapter.Protocol, ""},
		{"truncated", "", adapter.Crash, ""},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			argv := testworker.Command(t, tt.mode)
			if tt.mark != "" {
				argv = append(argv, tt.mark)
			}
			w := start(t, argv)
			cases := []any{tcase("a"), tcase("BOOM"), tcase("b")}
			err := w.Run(context.Background(), cases, make([]wire.Result, len(cases)))
			f, ok := adapter.AsFailure(err)
			if !ok {
				t.Fatalf("Run = %v, want a *Failure", err)
			}
			if f.Kind != tt.kind || !strings.Contains(f.Stderr, tt.stderr) || f.Adapter != "fake" {
				t.Fatalf("failure = %v (kind %s), stderr %q; want kind %s, stderr with %q", f, f.Kind, f.Stderr, tt.kind, tt.stderr)
			}
			// What it printed on stdout is in the tail too, first: the
			// last line is stderr's.
			if tt.mode == "crash" && !strings.HasPrefix(f.Stderr, "stdout: fakeworker: a line on stdout before crashing\n") {
				t.Errorf("the tail %q does not begin with the line printed on stdout", f.Stderr)
			}
			// The next call restarts the worker; an unmarked case goes through.
			if tt.mark != "" {
				out := make([]wire.Result, 1)
				if err := w.Run(context.Background(), cases[:1], out); err != nil {
					t.Fatalf("after restart: %v", err)
				}
				if w.StartCount() != 2 {
					t.Errorf("starts = %d, want 2", w.StartCount())
				}
				if got, want := w.Restarts(), map[string]int{string(tt.kind): 1}; !maps.Equal(got, want) {
					t.Errorf("restarts by reason %v, want %v", got, want)
				}
			}
		})
	}
}

// A worker of version 2 that prints to stdout breaks its frames: the
// failure says what it printed, not the length its bytes make.
func TestWorkerPrintsOnItsProtocolStream(t *testing.T) {
	w := start(t, testworker.Command(t, "v2-chatty"))
	err := w.Run(context.Background(), []any{tcase("a")}, make([]wire.Result, 1))
	f, ok := adapter.AsFailure(err)
	if !ok || f.Kind != adapter.Protocol {
		t.Fatalf("Run = %v, want a protocol failure", err)
	}
	want := "the worker wrote `debug: canonicalizing {\"tool_name\":\"t\",\"args\":{\"a\":\"a\"}}` to its protocol stream, stdout"
	if msg := f.Err.Error(); !strings.HasPrefix(msg, want) || strings.Contains(msg, "frame length") {
		t.Errorf("failure %q, want it to begin %q", msg, want)
	}
}

func TestWorkerSetupFailures(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{testworker.Command(t, "exit-at-start"), "refusing to start"},
		{testworker.Command(t, "bad-hello"), "protocol 99"},
		{[]string{"/nonexistent/worker"}, "no such file"},
	}
	for _, tt := range tests {
		_, err := adapter.Start(context.Background(), adapter.Spec{Name: "fake", Command: tt.argv})
		f, ok := adapter.AsFailure(err)
		if !ok || f.Kind != adapter.Setup {
			t.Fatalf("%v: Start = %v, want a setup failure", tt.argv, err)
		}
		if msg := f.Error() + f.Stderr; !strings.Contains(msg, tt.want) {
			t.Errorf("%v: failure %q (stderr %q) does not say %q", tt.argv, f, f.Stderr, tt.want)
		}
	}
}

// A worker that prints text instead of a hello fails to start, saying what
// it printed; one that exits keeps its printed lines in the failure's tail.
func TestWorkerPrintsInsteadOfHello(t *testing.T) {
	tests := []struct {
		script  string
		err     string // in the failure
		printed string // in its tail
	}{
		{"echo 'debug: hi'; sleep 10", "the worker wrote `debug: hi` to stdout and said no hello on either channel", "debug: hi\n"},
		{"echo 'debug: hi'; echo oops >&2; exit 1", "worker ended before its hello (exited with status 1)", "debug: hi\n"},
	}
	for _, tt := range tests {
		_, err := adapter.Start(context.Background(), adapter.Spec{Name: "fake", Command: []string{"sh", "-c", tt.script},
			StartTimeout: 500 * time.Millisecond})
		f, ok := adapter.AsFailure(err)
		if !ok || f.Kind != adapter.Setup || !strings.Contains(f.Err.Error(), tt.err) || !strings.Contains(f.Stderr, tt.printed) {
			t.Errorf("%q: Start = %v (tail %q), want a setup failure saying %q, the tail holding %q", tt.script, err, f.Stderr, tt.err, tt.printed)
		}
	}
}

func TestWorkerKilledFromOutside(t *testing.T) {
	// The kill comes once the worker says it hangs on the case, so the
	// batch is in flight; the deadline is a minute, so that it is the kill
	// that ends the batch however slow the host.
	hanging := testworker.NewMark("fakeworker: hanging on the marked case")
	w, err := adapter.Start(context.Background(), adapter.Spec{Name: "fake", Command: testworker.Command(t, "hang", "BOOM"),
		BatchTimeout: time.Minute, CaseTimeout: time.Millisecond, StartTimeout: 5 * time.Second, Stderr: hanging})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { w.Close() })
	pid := w.Pid() // read before Run: a Worker is not safe for concurrent use
	done := make(chan error, 1)
	go func() {
		done <- w.Run(context.Background(), []any{tcase("BOOM")}, make([]wire.Result, 1))
	}()
	hanging.Wait(t)
	syscall.Kill(pid, syscall.SIGKILL)
	f, ok := adapter.AsFailure(<-done)
	if !ok || f.Kind != adapter.Killed {
		t.Fatalf("Run = %v, want kind killed", f)
	}
	// An outside SIGKILL is, most often, the OOM killer's.
	if err := w.Run(context.Background(), []any{tcase("a")}, make([]wire.Result, 1)); err != nil {
		t.Fatalf("after restart: %v", err)
	}
	if got, want := w.Restarts(), map[string]int{"memory": 1}; !maps.Equal(got, want) {
		t.Errorf("restarts by reason %v, want %v", got, want)
	}
}

// A restart that fails (no hello) leaves no process behind: the next call
// starts another, and fails to start again, rather than write to the dead
// one and report its broken pipe as the case's crash. Each start is a
// restart, for the reason of what ended the process before it.
func TestWorkerFailedRestart(t *testing.T) {
	started := filepath.Join(t.TempDir(), "started")
	script := fmt.Sprintf(`if [ -e %[1]s ]; then echo refusing a second start >&2; exit 1; fi; touch %[1]s; exec "$@"`, started)
	w := start(t, append([]string{"sh", "-c", script, "sh"}, testworker.Command(t, "crash", "BOOM")...))
	out := make([]wire.Result, 1)
	if f, ok := adapter.AsFailure(w.Run(context.Background(), []any{tcase("BOOM")}, out)); !ok || f.Kind != adapter.Crash {
		t.Fatalf("first Run: %v, want a crash", f)
	}
	for i := range 2 {
		f, ok := adapter.AsFailure(w.Run(context.Background(), []any{tcase("a")}, out))
		if !ok || f.Kind != adapter.Setup || !strings.Contains(f.Stderr, "refusing a second start") {
			t.Fatalf("Run %d after the crash: %v, want a setup failure", i+2, f)
		}
	}
	if got, want := w.Restarts(), map[string]int{"crash": 1, "setup": 1}; !maps.Equal(got, want) || w.StartCount() != 3 {
		t.Errorf("restarts by reason %v, starts %d; want %v, 3", got, w.StartCount(), want)
	}
}

func TestNoOrphans(t *testing.T) {
	for _, mode := range []string{"ok", "hang"} {
		w := start(t, testworker.Command(t, mode, "BOOM"))
		pid := w.Pid()
		w.Run(context.Background(), []any{tcase("BOOM")}, make([]wire.Result, 1))
		w.Close()
		if err := syscall.Kill(pid, 0); err == nil {
			t.Errorf("%s: worker %d still exists after Close", mode, pid)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for adapter.Live() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := adapter.Live(); n != 0 {
		t.Errorf("%d worker processes left unreaped", n)
	}
}
