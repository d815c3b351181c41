package gen

import (
	"bytes"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

// Under Config.Avoid, at least 90% of the cases need none of the avoided
// reasons, whatever the native models declared; about one index in ten
// takes its own draw as it is, and so does every index whose own draw
// needs none: those cases are exactly the ones of a run without Avoid.
func TestAvoidDrawsExpressible(t *testing.T) {
	n := 5000
	if testing.Short() {
		n = 2000
	}
	tests := []struct {
		name  string
		avoid value.Reasons
	}{
		{"map[string]any, json.Number", value.NeedsDuplicateKey | value.NeedsLoneSurrogate | value.NeedsNonStringKey | value.NeedsUnsupported},
		{"map[string]any, float64", value.NeedsDuplicateKey | value.NeedsLoneSurrogate | value.NeedsBigInt | value.NeedsNonStringKey | value.NeedsUnsupported},
		{"every reason", value.AllReasons},
		{"big_int alone", value.NeedsBigInt},
	}
	plain := New(Config{Seed: 5})
	for _, tt := range tests {
		g := New(Config{Seed: 5, Avoid: tt.avoid})
		again := New(Config{Seed: 5, Avoid: tt.avoid})
		var expressible, kept int
		for i := range uint64(n) {
			v, classes, cells := g.CaseCells(i)
			if !value.NeedsAny(v, tt.avoid) {
				expressible++
			}
			v2, classes2, cells2 := again.CaseCells(i)
			if !bytes.Equal(text(v), text(v2)) || classes != classes2 || cells != cells2 {
				t.Fatalf("%s: case %d differs between two generators of one config", tt.name, i)
			}
			own, ownClasses, ownCells := plain.CaseCells(i)
			asDrawn := keptAsDrawn(5, i) || !value.NeedsAny(own, tt.avoid)
			if asDrawn && (!bytes.Equal(text(v), text(own)) || classes != ownClasses || cells != ownCells) {
				t.Fatalf("%s: case %d is not its own draw, which it keeps", tt.name, i)
			}
			if keptAsDrawn(5, i) {
				kept++
			}
		}
		if share := float64(expressible) / float64(n); share < 0.90 {
			t.Errorf("%s: %.1f%% of the cases are expressible, want at least 90%%", tt.name, 100*share)
		}
		if share := float64(kept) / float64(n); share < 0.08 || share > 0.12 {
			t.Errorf("%s: %.1f%% of the indexes keep their own draw, want about 10%%", tt.name, 100*share)
		}
	}
}

// A kept index may well need an avoided reason: the inexpressible classes
// are still generated, if rarely, so that a run still counts them.
func TestAvoidKeepsSomeInexpressible(t *testing.T) {
	avoid := value.NeedsDuplicateKey | value.NeedsLoneSurrogate
	g := New(Config{Seed: 2, Avoid: avoid, OutOfDomain: 0.5})
	var dup, lone int
	for i := range uint64(3000) {
		v, _ := g.Case(i)
		r := value.Needs(v)
		if r&value.NeedsDuplicateKey != 0 {
			dup++
		}
		if r&value.NeedsLoneSurrogate != 0 {
			lone++
		}
	}
	if dup == 0 || lone == 0 {
		t.Errorf("%d cases with a duplicate key, %d with a lone surrogate: want some of each", dup, lone)
	}
}

// BenchmarkCaseAvoid is BenchmarkCase for a run of native models that can
// hold no reason at all (serde_json::Value's declaration and more): each
// index costs about two draws and a walk of each.
func BenchmarkCaseAvoid(b *testing.B) {
	g := New(Config{Seed: 1, Avoid: value.AllReasons})
	b.ReportAllocs()
	i := uint64(0)
	for b.Loop() {
		g.Case(i)
		i++
	}
}
