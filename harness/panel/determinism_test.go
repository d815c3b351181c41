package panel

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// stateful is a fake whose answer to a case depends on how often it was
// asked it before: the calls of a case listed in wrongOn (1 for its first)
// are answered with a wrong text, as an SDK with a counter or a cache
// answers.
type stateful struct {
	fake
	wrongOn map[string][]int
	calls   map[string]int
}

func (s *stateful) RunBatch(ctx context.Context, b *adapter.Batch, out []wire.Result) error {
	if s.calls == nil {
		s.calls = map[string]int{}
	}
	s.wrong = map[string]bool{}
	for _, c := range b.Cases {
		s.calls[c.(string)]++
		if slices.Contains(s.wrongOn[c.(string)], s.calls[c.(string)]) {
			s.wrong[c.(string)] = true
		}
	}
	return s.fake.RunBatch(ctx, b, out)
}

// driftsOf shows drifts as "case/adapter/how" words.
func driftsOf(ds []Drift) []string {
	var out []string
	for _, d := range ds {
		out = append(out, strings.Join([]string{[]string{"a", "b"}[d.Case], []string{"ref", "x"}[d.Adapter], d.How}, "/"))
	}
	return out
}

// A case asked again with text whose second answer differs from its first
// is a drift of the adapter that changed, the reference too; the second
// answer stands in outs. An adapter wrong twice alike, or right twice, is
// none.
func TestReaskDrift(t *testing.T) {
	tests := []struct {
		name     string
		ref, x   map[string][]int
		want     []string
		wantSame bool // the case agrees after the re-ask
	}{
		{name: "deterministic", want: nil, wantSame: true},
		{name: "wrong twice alike", x: map[string][]int{"a": {1, 2}}, want: nil},
		{name: "wrong the first time only", x: map[string][]int{"a": {1}}, want: []string{"a/x/" + AskedReask}, wantSame: true},
		{name: "wrong the second time only", x: map[string][]int{"a": {2}}, want: nil, wantSame: true}, // settled: never asked again
		{name: "the reference drifts", ref: map[string][]int{"a": {1}}, want: []string{"a/ref/" + AskedReask}, wantSame: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref := &stateful{fake: fake{name: "ref", textless: true}, wrongOn: tt.ref}
			x := &stateful{fake: fake{name: "x", textless: true}, wrongOn: tt.x}
			l := newLane(0, &syncBuffer{}, ref, x)
			outs, ok, err := run(l, true, "a", "b")
			if err != nil {
				t.Fatal(err)
			}
			if got := driftsOf(l.Drifts()); !slices.Equal(got, tt.want) {
				t.Errorf("drifts %q, want %q", got, tt.want)
			}
			if same := ok[0] && l.cmp.Compare(outs[0]).Agree; same != tt.wantSame {
				t.Errorf("case a agrees: %v, want %v", same, tt.wantSame)
			}
			for _, d := range l.Drifts() {
				if d.Before.Canonical != nil || d.After.Canonical == nil {
					t.Errorf("drift %+v: want the first answer digest-only, the second with text", d)
				}
			}
		})
	}
}

// Drifts are the last Run's alone.
func TestDriftsReset(t *testing.T) {
	ref := &stateful{fake: fake{name: "ref", textless: true}}
	x := &stateful{fake: fake{name: "x", textless: true}, wrongOn: map[string][]int{"a": {1}}}
	l := newLane(0, &syncBuffer{}, ref, x)
	if _, _, err := run(l, true, "a"); err != nil || len(l.Drifts()) != 1 {
		t.Fatalf("first run: %v, %d drifts", err, len(l.Drifts()))
	}
	if _, _, err := run(l, true, "b"); err != nil || len(l.Drifts()) != 0 {
		t.Fatalf("second run: %v, drifts %v", err, driftsOf(l.Drifts()))
	}
}

// Resend compares each adapter's answer with the one it gave before: a
// stateful adapter that answers otherwise the second time drifts, and a
// deterministic one never does, however wrong it is.
func TestResend(t *testing.T) {
	ref := &stateful{fake: fake{name: "ref", textless: true}}
	x := &stateful{fake: fake{name: "x", textless: true}, wrongOn: map[string][]int{"a": {2}, "b": {1, 2, 3}}}
	l := newLane(0, &syncBuffer{}, ref, x)
	outs, _, err := run(l, true, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	before := [][]compare.Outcome{slices.Clone(outs[0]), slices.Clone(outs[1])}
	ds, err := l.Resend(context.Background(), []any{"a", "b"}, before)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := driftsOf(ds), []string{"a/x/" + AskedResend}; !slices.Equal(got, want) {
		t.Errorf("drifts %q, want %q", got, want)
	}
	if n := len(x.batches); n != 3 { // the batch, b's re-ask, the resend
		t.Errorf("%d batches to x, want 3", n)
	}
	if !x.texts[1] || x.texts[2] {
		t.Errorf("batches asked for text %v: want the re-ask with text, the resend without", x.texts)
	}
}
