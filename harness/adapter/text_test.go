//go:build unix

package adapter_test

import (
	"context"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/inprocess"
	"github.com/difffuzz/difffuzz/harness/jsontext"
	"github.com/difffuzz/difffuzz/internal/testworker"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"

	"golang.org/x/sync/errgroup"
)

// textCases are spellable cases around the two that JSON text cannot
// spell, which the driver answers itself.
var textCases = []any{
	value.RawObject{{Key: int64(1), Value: nil}}, // first: non_string_key
	tcase("x/\"é😀\n"),
	value.Object{{Key: "a", Value: int64(1)}, {Key: "a", Value: 2.5}}, // a repeated key is spelled
	[]any{[]byte{1, 2}},                                               // bin: unsupported_value
	tcase("\xed\xa0\x80"),                                             // a lone surrogate, escaped
	[]any{1e21, int64(-7)},
}

var textReasons = map[int]string{0: wire.ReasonNonStringKey, 3: wire.ReasonUnsupported}

// A text worker of protocol 4 gets, for each case that has one, exactly the
// driver's spelling; the driver answers the others as inexpressible and
// puts the worker's results back in the cases' order.
func TestTextWorkerGetsTheDriversSpelling(t *testing.T) {
	w := start(t, testworker.Command(t, "text-echo"))
	if h := w.Hello(); h.Protocol != wire.FDProtocolVersion || !h.TakesText() {
		t.Fatalf("hello %+v", h)
	}
	out := make([]wire.Result, len(textCases))
	if err := w.Run(context.Background(), textCases, out); err != nil {
		t.Fatalf("%v\n%s", err, w.Stderr())
	}
	for i, c := range textCases {
		if reason, ok := textReasons[i]; ok {
			if out[i].Inexpressible != reason || out[i].Message == "" {
				t.Errorf("case %d: %+v, want inexpressible %s", i, out[i], reason)
			}
			continue
		}
		want, err := jsontext.Append(nil, c)
		if err != nil {
			t.Fatal(err)
		}
		if string(out[i].Canonical) != string(want) {
			t.Errorf("case %d: worker got %q, driver spelled %q", i, out[i].Canonical, want)
		}
	}
}

// A text worker parses the driver's text and answers as the exact model
// does; a batch of nothing but unspellable cases is answered without a
// round trip, and the worker goes on.
func TestTextWorkerRealigned(t *testing.T) {
	w := start(t, testworker.Command(t, "text"))
	for _, cases := range [][]any{textCases, {[]byte{1}, value.RawObject{{Key: true, Value: nil}}}, textCases[1:3]} {
		out := make([]wire.Result, len(cases))
		if err := w.Run(context.Background(), cases, out); err != nil {
			t.Fatalf("%v\n%s", err, w.Stderr())
		}
		for i, c := range cases {
			want := inprocess.Compute(c)
			if want.Error == wire.ReasonNonStringKey || want.Error == wire.ReasonUnsupported {
				if out[i].Inexpressible != want.Error {
					t.Errorf("case %d: %+v, want inexpressible %s", i, out[i], want.Error)
				}
				continue
			}
			if string(out[i].Canonical) != string(want.Canonical) || out[i].Error != want.Error {
				t.Errorf("case %d: worker %q/%q, in process %q/%q", i, out[i].Canonical, out[i].Error, want.Canonical, want.Error)
			}
		}
	}
	if w.StartCount() != 1 {
		t.Errorf("starts = %d, want 1", w.StartCount())
	}
	bt, err := w.Bench(context.Background(), textCases, 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := uint64(3 * (len(textCases) - len(textReasons))); bt.Count != want {
		t.Errorf("bench count %d, want %d (the spellable cases, 3 rounds)", bt.Count, want)
	}
}

// A text worker of protocol 3 still gets values, and spells them itself.
func TestTextWorkerOfProtocol3GetsValues(t *testing.T) {
	w := start(t, testworker.Command(t, "v3-text"))
	if h := w.Hello(); h.Protocol != 3 || h.Model != wire.ModelText || h.TakesText() {
		t.Fatalf("hello %+v", h)
	}
	out := make([]wire.Result, len(textCases))
	if err := w.Run(context.Background(), textCases, out); err != nil {
		t.Fatalf("%v\n%s", err, w.Stderr())
	}
	for i, c := range textCases {
		if reason, ok := textReasons[i]; ok {
			if out[i].Inexpressible != reason {
				t.Errorf("case %d: %+v, want inexpressible %s", i, out[i], reason)
			}
			continue
		}
		if want := inprocess.Compute(c); string(out[i].Canonical) != string(want.Canonical) {
			t.Errorf("case %d: worker %q, in process %q", i, out[i].Canonical, want.Canonical)
		}
	}
}

// A Go worker's panic arrives with its type and the implementation's
// frames, innermost first: the function that panicked, then the one that
// called it, and no frame of the kit or the runtime. Its message quotes the
// case; its place is one of two.
func TestPanicFramesFromAWorker(t *testing.T) {
	w := start(t, testworker.Command(t, "quoting-panics"))
	cases := []any{tcase("it's"), tcase("\xed\xb3\xae"), tcase("é"), tcase("x"), tcase("y"), tcase("z")}
	out := make([]wire.Result, len(cases))
	if err := w.Run(context.Background(), cases, out); err != nil {
		t.Fatalf("%v\n%s", err, w.Stderr())
	}
	places := map[string]bool{}
	for i, r := range out {
		if r.Error != wire.ErrorInternal || r.ErrorType != "panic" || len(r.Frames) < 2 {
			t.Fatalf("case %d: %+v", i, r)
		}
		inner, caller := r.Frames[0], r.Frames[1]
		if inner.Function != "main.escapeChar" && inner.Function != "main.formatToken" || inner.Line == 0 ||
			!strings.HasSuffix(inner.File, "panics.go") || caller.Function != "main.quotingPanic" {
			t.Errorf("case %d: frames %+v", i, r.Frames)
		}
		for _, f := range r.Frames {
			if strings.Contains(f.Function, "kits/go/kit.") || strings.HasPrefix(f.Function, "runtime.") {
				t.Errorf("case %d: frame %+v is the kit's or the runtime's", i, f)
			}
		}
		places[inner.Function] = true
	}
	if len(places) != 2 {
		t.Errorf("places %v, want both", places)
	}
	if !strings.Contains(out[0].Message, `'it\'s'`) && !strings.Contains(out[0].Message, `it\'s`) {
		t.Errorf("message %q does not quote the case", out[0].Message)
	}
	if !strings.Contains(out[1].Message, `\udcee`) {
		t.Errorf("message %q does not quote the lone surrogate", out[1].Message)
	}
}

// Text workers sharing a batch, as a lane's do, get one spelling of it,
// made by whichever asks first.
func TestTextWorkersShareABatch(t *testing.T) {
	ws := []*adapter.Worker{start(t, testworker.Command(t, "text-echo")), start(t, testworker.Command(t, "text-echo"))}
	b := &adapter.Batch{Cases: textCases}
	outs := make([][]wire.Result, len(ws))
	var g errgroup.Group
	for i, w := range ws {
		outs[i] = make([]wire.Result, len(textCases))
		g.Go(func() error { return w.RunBatch(context.Background(), b, outs[i]) })
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	b.Release()
	for i := range textCases {
		if string(outs[0][i].Canonical) != string(outs[1][i].Canonical) || outs[0][i].Inexpressible != outs[1][i].Inexpressible {
			t.Errorf("case %d: %+v and %+v", i, outs[0][i], outs[1][i])
		}
	}
}
