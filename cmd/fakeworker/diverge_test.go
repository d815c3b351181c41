package main

import (
	"bytes"
	"context"
	"io"
	"math"
	"testing"

	"github.com/difffuzz/difffuzz/adapters/go/worker"
	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/gen"
	_ "github.com/difffuzz/difffuzz/harness/inprocess" // the reference, in process
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/internal/testworker"
)

// cases are the generator's first n cases of seed 1.
func cases(n int) []any {
	g := gen.New(gen.Config{Seed: 1})
	cs := make([]any, n)
	for i := range cs {
		cs[i], _ = g.Case(uint64(i))
	}
	return cs
}

// The diverge worker, judged by the driver's lane beside the in-process Go,
// diverges on about its share of the cases with text, all in one bucket,
// the same cases again when asked again, and agrees on every other case.
func TestDivergeShare(t *testing.T) {
	const n, share = 600, 0.10
	specs := []adapter.Spec{{Name: "go", InProcess: true}, {Name: "fake", Command: testworker.Command(t, "diverge", "0.10")}}
	l, err := panel.Open(context.Background(), specs, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	cs := cases(n)
	js, err := l.Judge(context.Background(), cs)
	if err != nil {
		t.Fatal(err)
	}
	var spoilableCases int
	var diverged []any
	for i, j := range js {
		ref := j.Outs[0].Canonical
		if len(ref) > 0 && spoilable(ref[0]) {
			spoilableCases++
		}
		if j.Verdict.Agree {
			continue
		}
		diverged = append(diverged, cs[i])
		if len(j.Signatures) != 1 || j.Signatures[0].String() != "structure: whitespace where want the end of the text: fake" {
			t.Errorf("case %d: signatures %v, want [structure: whitespace where want the end of the text: fake]", i, j.Signatures)
		}
	}
	got := float64(len(diverged)) / float64(spoilableCases)
	t.Logf("%d of %d diverged", len(diverged), spoilableCases)
	if math.Abs(got-share) > 0.04 || spoilableCases < n*9/10 {
		t.Errorf("%d of %d cases with an object, array or string text diverged (%.3f), want about %.2f", len(diverged), spoilableCases, got, share)
	}
	again, err := l.Judge(context.Background(), diverged)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range again {
		if j.Verdict.Agree {
			t.Errorf("diverged case %d agrees when asked again", i)
		}
	}
}

// The spoiled text is the reference's and a space; shares 0 and 1 spoil
// nothing and every text that is an object, array or string.
func TestDiverging(t *testing.T) {
	cs := cases(200)
	for _, share := range []float64{0, 1} {
		fn := diverging(share)
		for i, c := range cs {
			want, wantErr := worker.Func([]byte("prefix"), c)
			got, err := fn([]byte("prefix"), c)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("share %v, case %d: error %v, want %v", share, i, err, wantErr)
			}
			if share == 1 && err == nil && spoilable(want[len("prefix")]) {
				want = append(want, ' ')
			}
			if !bytes.Equal(got, want) {
				t.Errorf("share %v, case %d: %q, want %q", share, i, got, want)
			}
		}
	}
}

// SHARE is a fraction from 0 to 1.
func TestParseShare(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0.10", 0.1, true}, {"0", 0, true}, {"1", 1, true},
		{"", 0, false}, {"ten", 0, false}, {"-0.1", 0, false}, {"1.5", 0, false}, {"NaN", 0, false},
	}
	for _, tt := range tests {
		got, err := parseShare(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseShare(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
