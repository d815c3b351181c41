package panel

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"

	"lukechampine.com/blake3"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// cacher is a fake with a cache keyed by a string's length: a case of a
// length it answered before gets that earlier case's text, as an SDK's
// memo with a weak key does. Its state is its process's: a fresh panel
// makes a new one.
type cacher struct {
	fake
	cache map[int][]byte
}

func (c *cacher) RunBatch(ctx context.Context, b *adapter.Batch, out []wire.Result) error {
	if err := c.fake.RunBatch(ctx, b, out); err != nil {
		return err
	}
	if c.cache == nil {
		c.cache = map[int][]byte{}
	}
	for i, v := range b.Cases {
		s := v.(string)
		text, ok := c.cache[len(s)]
		if !ok {
			text = []byte(strconv.Quote(s))
			c.cache[len(s)] = text
		}
		d := blake3.Sum256(text)
		out[i] = wire.Result{Canonical: text, Digest: d[:]}
	}
	return nil
}

// anyCases takes cases of any value to the string fakes answer: a string
// as it is, any other value its extended JSON, as the minimizer's
// candidates may be.
type anyCases struct{ adapter.Adapter }

func (a anyCases) RunBatch(ctx context.Context, b *adapter.Batch, out []wire.Result) error {
	sb := &adapter.Batch{DigestOnly: b.DigestOnly}
	for _, c := range b.Cases {
		sb.Cases = append(sb.Cases, asText(c))
	}
	return a.Adapter.RunBatch(ctx, sb, out)
}

func asText(c any) string {
	if s, ok := c.(string); ok {
		return s
	}
	return string(value.AppendText(nil, c))
}

// cacheLane is a panel of a plain reference and a cacher, whose fresh
// lanes are new ones, counted in starts.
func cacheLane(starts *int) *Panel {
	l := newLane(0, &syncBuffer{}, anyCases{&fake{name: "ref"}}, anyCases{&cacher{fake: fake{name: "x"}}})
	l.fresh = func(context.Context) (*Panel, error) {
		*starts++
		return cacheLane(starts), nil
	}
	return l
}

// cachingReference is cacheLane with the cache in the reference.
func cachingReference() *Panel {
	l := newLane(0, &syncBuffer{}, anyCases{&cacher{fake: fake{name: "ref"}}}, anyCases{&fake{name: "x"}})
	l.fresh = func(context.Context) (*Panel, error) { return cachingReference(), nil }
	return l
}

// A reference with the cache is named by the sequence's label: the
// implementation whose answer the calls changed, which the symptom's
// signature (x against the reference) never names.
func TestShrinkSequenceNamesTheReference(t *testing.T) {
	l := cachingReference()
	js, err := l.Judge(context.Background(), []any{"ab", "cd"})
	if err != nil || len(js[1].Signatures) != 1 {
		t.Fatalf("judged %v (%v)", js, err)
	}
	s, err := l.ShrinkSequence(context.Background(), []any{"ab"}, "cd", js[1].Signatures[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := DependsSignature([]string{"ref"}); !s.Label.Equal(want) {
		t.Errorf("label %s, want %s", s.Label, want)
	}
}

// A finding that its input shows only after an earlier call is shrunk to
// the fewest calls that still show it on a fresh panel, each call then
// shrunk: for a cache keyed by length, one earlier string of the input's
// length, and the input. It is named by DependsSignature.
func TestShrinkSequence(t *testing.T) {
	var starts int
	l := cacheLane(&starts)
	before := []any{"xyz", "a", "ab", "bbbb", "q", "hello", "zz", "k"}
	input := "cd"
	js, err := l.Judge(context.Background(), append(slices.Clone(before), input))
	if err != nil {
		t.Fatal(err)
	}
	last := js[len(js)-1]
	if len(last.Signatures) != 1 {
		t.Fatalf("the input after its calls shows %v, want one signature", last.Signatures)
	}
	sig := last.Signatures[0]
	if alone, err := l.ShowsAlone(context.Background(), input, sig); err != nil || alone {
		t.Fatalf("alone on a fresh panel: shows %v (%v), want false", alone, err)
	}
	s, err := l.ShrinkSequence(context.Background(), before, input, sig)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Before) != 1 || len(asText(s.Before[0])) != 2 || len(asText(s.Input)) != 2 || asText(s.Before[0]) == asText(s.Input) {
		t.Errorf("shrunk to %v then %v, want one other case of the input's length", s.Before, s.Input)
	}
	if !s.Minimal || s.Runs != starts-3 || !shows(s.Judged, sig) {
		t.Errorf("minimal %v, %d runs for %d fresh lanes, judged %+v", s.Minimal, s.Runs, starts, s.Judged)
	}
	if want := DependsSignature([]string{"x"}); !s.Label.Equal(want) {
		t.Errorf("label %s, want %s", s.Label, want)
	}
	e := l.SequenceEntry(s)
	if e.Kind != "nondeterministic" || len(e.Before) != 1 {
		t.Errorf("entry %+v", e)
	}
}

// A finding its input shows alone is none of ShrinkSequence's, and a panel
// of adapters its caller started cannot start them afresh.
func TestShrinkSequenceAlone(t *testing.T) {
	var starts int
	l := cacheLane(&starts)
	l.fresh = func(context.Context) (*Panel, error) { // a cache its process starts with
		f := cacheLane(&starts)
		f.adapters[1].(anyCases).Adapter.(*cacher).cache = map[int][]byte{2: []byte(`"zz"`)}
		return f, nil
	}
	js, _ := l.Judge(context.Background(), []any{"ab", "cd"})
	if _, err := l.ShrinkSequence(context.Background(), []any{"ab"}, "cd", js[1].Signatures[0]); !errors.Is(err, ErrShowsAlone) {
		t.Errorf("a finding the input shows alone: %v, want ErrShowsAlone", err)
	}
	if _, err := Of([]string{"ref"}, []adapter.Adapter{&fake{name: "ref"}}, nil).Fresh(context.Background()); err == nil {
		t.Error("a panel of Of started afresh")
	}
}

// ddmin finds the fewest calls, in order, that a test takes.
func TestDdmin(t *testing.T) {
	tests := []struct {
		name  string
		calls []any
		need  []any // test takes a subset holding all of these, in order
		want  []any
	}{
		{name: "none needed", calls: []any{1, 2, 3}, need: nil, want: nil},
		{name: "one of many", calls: []any{1, 2, 3, 4, 5, 6, 7, 8, 9}, need: []any{7}, want: []any{7}},
		{name: "two far apart", calls: []any{1, 2, 3, 4, 5, 6, 7, 8}, need: []any{2, 8}, want: []any{2, 8}},
		{name: "all", calls: []any{1, 2, 3}, need: []any{1, 2, 3}, want: []any{1, 2, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test := func(sub []any) bool {
				k := 0
				for _, c := range sub {
					if k < len(tt.need) && c == tt.need[k] {
						k++
					}
				}
				return k == len(tt.need)
			}
			if got := ddmin(tt.calls, test); !slices.Equal(got, tt.want) {
				t.Errorf("ddmin %v, want %v", got, tt.want)
			}
		})
	}
}
