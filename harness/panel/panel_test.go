package panel

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"lukechampine.com/blake3"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// fake is an in-process adapter.Adapter whose cases are strings: it answers
// each with the string in quotes (and its BLAKE3 digest), and fails on cue,
// as a worker process would, so that the panel's policy can be tested without
// starting one. Like a worker, it is broken after a failed batch and
// restarts on its next call. The panel calls it from one goroutine at a time.
type fake struct {
	name     string
	faults   map[string]adapter.FailureKind // a case that fails every batch holding it
	kills    map[string]int                 // how many more batches holding the case are killed from outside
	wrong    map[string]bool                // cases answered with a wrong text
	textless bool                           // digest-only batches are answered without text
	broken   bool                           // the worker is down: the next call restarts it
	refuse   int                            // how many restarts fail (Setup) before one succeeds
	plainErr error                          // returned as is by every call: not a *Failure

	starts  int     // processes started, the first one included
	batches [][]any // every batch it was sent, in order
	texts   []bool  // whether each batch asked for text
}

func (f *fake) Name() string            { return f.name }
func (f *fake) Hello() wire.Hello       { return wire.Hello{Name: "fake-" + f.name, Version: "0"} }
func (f *fake) BatchCPU() time.Duration { return 0 }
func (f *fake) Close() error            { return nil }
func (f *fake) Bench(context.Context, []any, int) (wire.BenchTimes, error) {
	return wire.BenchTimes{}, errors.New("fake: no bench")
}

// RunBatch answers b or fails on the first case that has a fault.
func (f *fake) RunBatch(_ context.Context, b *adapter.Batch, out []wire.Result) error {
	f.batches = append(f.batches, slices.Clone(b.Cases))
	f.texts = append(f.texts, !b.DigestOnly)
	if f.plainErr != nil {
		return f.plainErr
	}
	if err := f.restart(); err != nil {
		return err
	}
	for _, c := range b.Cases {
		if err := f.fault(c.(string)); err != nil {
			f.broken = true
			return err
		}
	}
	for i, c := range b.Cases {
		out[i] = f.answer(c.(string), b.DigestOnly)
	}
	return nil
}

// restart starts the worker again if it is down, or fails to.
func (f *fake) restart() error {
	if f.starts > 0 && !f.broken {
		return nil
	}
	if f.refuse > 0 {
		f.refuse--
		return &adapter.Failure{Adapter: f.name, Kind: adapter.Setup, Err: errors.New("exited before its hello"), Stderr: "fake: refusing to start"}
	}
	f.starts++
	f.broken = false
	return nil
}

// fault is the failure case c causes, if any.
func (f *fake) fault(c string) error {
	if f.kills[c] > 0 {
		f.kills[c]--
		return &adapter.Failure{Adapter: f.name, Kind: adapter.Killed, Err: errors.New("signal: killed")}
	}
	if k, ok := f.faults[c]; ok {
		return &adapter.Failure{Adapter: f.name, Kind: k, Err: errors.New(string(k) + " on " + c), Stderr: "fake: " + c}
	}
	return nil
}

func (f *fake) answer(c string, digestOnly bool) wire.Result {
	text := []byte(strconv.Quote(c))
	if f.wrong[c] {
		text = append(text, ' ')
	}
	d := blake3.Sum256(text)
	r := wire.Result{Canonical: text, Digest: d[:]}
	if digestOnly && f.textless {
		r.Canonical = nil
	}
	return r
}

// syncBuffer is a log that the panel's goroutines may write at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newLane is a panel over the given adapters, as Start would make it over
// workers.
func newLane(maxRestarts int, log *syncBuffer, as ...adapter.Adapter) *Panel {
	l := &Panel{adapters: as, maxRestarts: maxRestarts, log: log, stats: make([]Stats, len(as)), results: make([][]wire.Result, len(as)), inProcess: make([]bool, len(as))}
	for _, a := range as {
		l.names = append(l.names, a.Name())
	}
	l.cmp = compare.New(l.names)
	return l
}

// run runs cases through l as one batch.
func run(l *Panel, digestOnly bool, cases ...string) ([][]compare.Outcome, []bool, error) {
	b := &adapter.Batch{DigestOnly: digestOnly}
	for _, c := range cases {
		b.Cases = append(b.Cases, c)
	}
	outs, ok := Grow(nil, nil, len(cases), len(l.adapters))
	err := l.Run(context.Background(), b, outs, ok)
	return outs, ok, err
}

// show is one adapter's outcome on a case in a word: its text, its failure,
// "digest" for a digest without text, or "unanswered".
func show(o compare.Outcome, ok bool) string {
	switch {
	case !ok:
		return "unanswered"
	case o.Failure != "":
		return string(o.Failure)
	case o.Canonical != nil:
		return string(o.Canonical)
	case o.Digest != nil:
		return "digest"
	}
	return "nothing"
}

// A batch a worker fails is re-run case by case on a restarted worker: the
// case that crashed or hung it is blamed, the others answered; an outside
// kill is retried; a protocol breach leaves its case unanswered; and the
// panel gives up on a worker that will not restart or keeps breaking the
// protocol.
func TestIsolation(t *testing.T) {
	crash := map[string]adapter.FailureKind{"boom": adapter.Crash}
	tests := []struct {
		name         string
		fake         fake
		maxRestarts  int
		cases        []string
		want         []string // show of each case's outcome
		wantCalls    int      // RunBatch calls: the batch, then one a case (and retries)
		wantStarts   int
		wantFailures uint64
		wantProto    uint64
		wantErr      string
	}{
		{name: "healthy", cases: []string{"a", "b", "c"},
			want: []string{`"a"`, `"b"`, `"c"`}, wantCalls: 1, wantStarts: 1},
		{name: "crash blamed on its case", fake: fake{faults: crash}, cases: []string{"a", "boom", "c"},
			want: []string{`"a"`, "crash", `"c"`}, wantCalls: 4, wantStarts: 3, wantFailures: 1},
		{name: "hang blamed on its case", fake: fake{faults: map[string]adapter.FailureKind{"zzz": adapter.Hang}}, cases: []string{"zzz", "b"},
			want: []string{"hang", `"b"`}, wantCalls: 3, wantStarts: 3, wantFailures: 1},
		{name: "two crashing cases both blamed", fake: fake{faults: map[string]adapter.FailureKind{"boom": adapter.Crash, "bang": adapter.Crash}},
			cases: []string{"boom", "a", "bang"}, want: []string{"crash", `"a"`, "crash"}, wantCalls: 4, wantStarts: 3, wantFailures: 1},
		{name: "outside kill retried", fake: fake{kills: map[string]int{"k": 2}}, cases: []string{"a", "k"},
			want: []string{`"a"`, `"k"`}, wantCalls: 4, wantStarts: 3, wantFailures: 1},
		{name: "killed every time blamed as crash", fake: fake{kills: map[string]int{"k": 100}}, cases: []string{"a", "k"},
			want: []string{`"a"`, "crash"}, wantCalls: 5, wantStarts: 4, wantFailures: 1},
		{name: "protocol breach unanswered", fake: fake{faults: map[string]adapter.FailureKind{"p": adapter.Protocol}}, cases: []string{"p", "a"},
			want: []string{"unanswered", `"a"`}, wantCalls: 3, wantStarts: 3, wantFailures: 1, wantProto: 1},
		{name: "breaches between answers forgiven", maxRestarts: 1, fake: fake{faults: map[string]adapter.FailureKind{"p": adapter.Protocol, "q": adapter.Protocol}},
			cases: []string{"p", "a", "q"}, want: []string{"unanswered", `"a"`, "unanswered"}, wantCalls: 4, wantStarts: 3, wantFailures: 1, wantProto: 2},
		{name: "breaches in a row give up", maxRestarts: 1, fake: fake{faults: map[string]adapter.FailureKind{"p": adapter.Protocol, "q": adapter.Protocol}},
			cases: []string{"p", "q", "a"}, wantCalls: 3, wantStarts: 3, wantFailures: 1, wantProto: 2,
			wantErr: "adapter fake breaks the protocol again and again (last: protocol on q); giving up"},
		{name: "restart refused once", maxRestarts: 1, fake: fake{broken: true, refuse: 1}, cases: []string{"a", "b"},
			want: []string{`"a"`, `"b"`}, wantCalls: 3, wantStarts: 1, wantFailures: 1},
		{name: "restart refused for good gives up", maxRestarts: 1, fake: fake{broken: true, refuse: 100}, cases: []string{"a", "b"},
			wantCalls: 2, wantStarts: 0, wantFailures: 1,
			wantErr: "adapter fake: setup: exited before its hello: could not be restarted after 1 tries\n  stderr: fake: refusing to start"},
		{name: "other errors end the run", fake: fake{plainErr: errors.New("disk on fire")}, cases: []string{"a"},
			wantCalls: 1, wantErr: "disk on fire"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := tt.fake
			f.name = "fake"
			if !f.broken && f.plainErr == nil {
				f.starts = 1 // started by the panel
			}
			log := &syncBuffer{}
			l := newLane(tt.maxRestarts, log, &f)
			if l.maxRestarts == 0 {
				l.maxRestarts = DefaultMaxRestarts
			}
			outs, ok, err := run(l, false, tt.cases...)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			} else {
				got := make([]string, len(tt.cases))
				for i := range got {
					got[i] = show(outs[i][0], ok[i])
				}
				if !slices.Equal(got, tt.want) {
					t.Errorf("outcomes = %q, want %q", got, tt.want)
				}
			}
			st := l.Stats(0)
			if len(f.batches) != tt.wantCalls || f.starts != tt.wantStarts || st.Failures != tt.wantFailures || st.ProtocolErrs != tt.wantProto {
				t.Errorf("calls, starts, failures, protocol errors = %d, %d, %d, %d; want %d, %d, %d, %d\nbatches: %v",
					len(f.batches), f.starts, st.Failures, st.ProtocolErrs, tt.wantCalls, tt.wantStarts, tt.wantFailures, tt.wantProto, f.batches)
			}
			for i, b := range f.batches[min(1, len(f.batches)):] {
				if len(b) != 1 {
					t.Errorf("batch %d after the first = %v, want one case", i+1, b)
				}
			}
			if want := "re-running the batch's " + strconv.Itoa(len(tt.cases)) + " cases one by one"; tt.wantFailures > 0 && !strings.Contains(log.String(), want) {
				t.Errorf("log lacks %q:\n%s", want, log.String())
			}
		})
	}
}

// A digest-only batch's cases whose digests differ are asked again, with
// text, of the adapters that gave no text; other outcomes stand, so that no
// crashing case runs a third time.
func TestReask(t *testing.T) {
	tests := []struct {
		name      string
		ref, impl fake
		cases     []string
		wantRef   [][]any // the batches each adapter was sent
		wantImpl  [][]any
		wantTexts [2][]bool // whether each batch asked for text
		want      [][2]string
	}{
		{name: "all agree: no re-ask", ref: fake{textless: true}, impl: fake{textless: true}, cases: []string{"a", "b"},
			wantRef: [][]any{{"a", "b"}}, wantImpl: [][]any{{"a", "b"}}, wantTexts: [2][]bool{{false}, {false}},
			want: [][2]string{{"digest", "digest"}, {"digest", "digest"}}},
		{name: "divergent digest re-asked", ref: fake{textless: true}, impl: fake{textless: true, wrong: map[string]bool{"b": true}}, cases: []string{"a", "b", "c"},
			wantRef: [][]any{{"a", "b", "c"}, {"b"}}, wantImpl: [][]any{{"a", "b", "c"}, {"b"}}, wantTexts: [2][]bool{{false, true}, {false, true}},
			want: [][2]string{{"digest", "digest"}, {`"b"`, `"b" `}, {"digest", "digest"}}},
		{name: "text already given not re-asked", ref: fake{textless: true}, impl: fake{wrong: map[string]bool{"b": true}}, cases: []string{"a", "b"},
			wantRef: [][]any{{"a", "b"}, {"b"}}, wantImpl: [][]any{{"a", "b"}}, wantTexts: [2][]bool{{false, true}, {false}},
			want: [][2]string{{"digest", `"a"`}, {`"b"`, `"b" `}}},
		{name: "crash not re-run", ref: fake{textless: true}, impl: fake{textless: true, faults: map[string]adapter.FailureKind{"b": adapter.Crash}}, cases: []string{"a", "b"},
			wantRef: [][]any{{"a", "b"}, {"b"}}, wantImpl: [][]any{{"a", "b"}, {"a"}, {"b"}}, wantTexts: [2][]bool{{false, true}, {false, false, false}},
			want: [][2]string{{"digest", "digest"}, {`"b"`, "crash"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ref, impl := tt.ref, tt.impl
			ref.name, impl.name, ref.starts, impl.starts = "ref", "impl", 1, 1
			l := newLane(DefaultMaxRestarts, &syncBuffer{}, &ref, &impl)
			outs, ok, err := run(l, true, tt.cases...)
			if err != nil {
				t.Fatal(err)
			}
			for i := range tt.cases {
				if got := [2]string{show(outs[i][0], ok[i]), show(outs[i][1], ok[i])}; got != tt.want[i] {
					t.Errorf("case %q: outcomes %q, want %q", tt.cases[i], got, tt.want[i])
				}
			}
			for _, a := range []struct {
				f     *fake
				want  [][]any
				texts []bool
			}{{&ref, tt.wantRef, tt.wantTexts[0]}, {&impl, tt.wantImpl, tt.wantTexts[1]}} {
				if !slices.EqualFunc(a.f.batches, a.want, slices.Equal) || !slices.Equal(a.f.texts, a.texts) {
					t.Errorf("%s was sent %v (text %v), want %v (text %v)", a.f.name, a.f.batches, a.f.texts, a.want, a.texts)
				}
			}
		})
	}
}

// The backoff before restarting a worker that would not start honours the
// run's context: an interrupted run does not wait out the backoff.
func TestSetupBackoffHonoursContext(t *testing.T) {
	l := &Panel{stats: make([]Stats, 1), maxRestarts: 100}
	l.stats[0].setupFails = 50 // a five-second backoff
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan error, 1)
	go func() {
		done <- l.setupFailed(ctx, 0, &adapter.Failure{Kind: adapter.Setup, Err: errors.New("exec: no such file")})
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("setupFailed = %v, want context.Canceled", err)
		}
	case <-time.After(4 * time.Second):
		t.Fatal("setupFailed waited out its backoff on a cancelled context")
	}
}

// JudgeBy sets the contract a panel's causes and corpus entries follow.
func TestJudgeBy(t *testing.T) {
	l := newLane(0, &syncBuffer{})
	l.names = []string{"ref", "x"}
	text := func(s string) compare.Outcome {
		d := blake3.Sum256([]byte(s))
		return compare.Outcome{Canonical: []byte(s), Digest: d[:]}
	}
	outs := []compare.Outcome{text("{\"😀\":2,\"\ue000\":1}"), text("{\"\ue000\":1,\"😀\":2}")}
	l.JudgeBy(contract.RFC8785)
	if got := l.Comparator().Compare(outs).Deviations[0].Cause; l.Contract != "rfc8785" || got != "keys in code-point order (want UTF-16 order)" {
		t.Errorf("under rfc8785: Contract %q, cause %q", l.Contract, got)
	}
	l.JudgeBy(contract.Default)
	if l.Contract != "" {
		t.Errorf("under the default: Contract %q, want none", l.Contract)
	}
}
