package main

import (
	"math"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// testImpl is an implementation with three causes: one in both models,
// one in each.
func testImpl() Impl {
	im := Impl{Name: "sdk", Commands: map[string]string{modelNative: "n", modelText: "t"}, Causes: []Cause{
		{ID: "raw", Label: `^string_escape: non-ASCII written raw`, Shows: "both"},
		{ID: "float", Label: `^number: `, Shows: modelNative},
		{ID: "nan", Label: `^internal: .* on valid input$`, Shows: modelText},
	}}
	for i := range im.Causes {
		im.Causes[i].re = regexp.MustCompile(im.Causes[i].Label)
	}
	return im
}

func secs(s float64) *float64 { return &s }

func TestScore(t *testing.T) {
	raw := Bucket{Label: `string_escape: non-ASCII written raw (want \uXXXX)`, Minimized: true, MinimizeSeconds: secs(1), Rechecked: []string{"x"}}
	tests := []struct {
		name string
		runs []Run
		want Score
	}{
		{
			name: "one bucket a cause",
			runs: []Run{
				{Model: modelNative, Cases: 10, Buckets: []Bucket{raw, {Label: "number: a decimal", Minimized: true, MinimizeSeconds: secs(2)}}},
				{Model: modelText, Cases: 5, Buckets: []Bucket{raw, {Label: "internal: SyntaxError on valid input", Minimized: true, MinimizeSeconds: secs(0.5)}}},
			},
			want: Score{Name: "sdk", Causes: 3, Found: 3, Shown: 4, Buckets: 4, Right: 4, Minimized: 4, MinimizeSeconds: 4.5, Cases: 15},
		},
		{
			name: "split, unlabeled, mixed, overflow and not minimized",
			runs: []Run{
				{Model: modelNative, Buckets: []Bucket{
					{Label: "number: a decimal", Minimized: true, MinimizeSeconds: secs(1)},
					{Label: "number: an exponent", Rechecked: []string{"number: a", "number: b"}},
					{Label: "structure: null where want an object", Overflow: true, Minimized: true},
				}},
				// a text-only cause's label seen in the native run is not that cause
				{Model: modelText, Buckets: []Bucket{{Label: "number: a decimal", Minimized: true, MinimizeSeconds: secs(1)}}},
			},
			want: Score{Name: "sdk", Causes: 3, Found: 1, Shown: 1, Buckets: 4, Right: 2, Mixed: 1, Overflow: 1, Minimized: 3, MinimizeSeconds: 2, Untimed: 1,
				Missed: []string{"raw", "nan"}, Unlabeled: []string{"structure: null where want an object", "number: a decimal"},
				MixedLabels: []string{"number: an exponent <- number: a | number: b"}},
		},
		{
			name: "no run found anything",
			runs: []Run{{Model: modelNative, Cases: 7}},
			want: Score{Name: "sdk", Causes: 3, Cases: 7, Missed: []string{"raw", "float", "nan"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := score(testImpl(), tt.runs)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("score (-want +got):\n%s", diff)
			}
		})
	}
}

// TestScoreAmbiguousLabel: a bucket whose label two causes claim is not
// labeled right, and counts as found for both.
func TestScoreAmbiguousLabel(t *testing.T) {
	im := testImpl()
	im.Causes = append(im.Causes, Cause{ID: "float2", Label: `^number: a`, Shows: modelNative, re: regexp.MustCompile(`^number: a`)})
	s := score(im, []Run{{Model: modelNative, Buckets: []Bucket{{Label: "number: a decimal"}}}})
	if s.Right != 0 || s.Found != 2 || s.Shown != 2 {
		t.Errorf("right %d, found %d, shown %d; want 0, 2, 2", s.Right, s.Found, s.Shown)
	}
}

func TestPerCause(t *testing.T) {
	tests := []struct {
		s    Score
		want float64
	}{
		{Score{}, 0},
		{Score{Buckets: 3}, math.Inf(1)},
		{Score{Buckets: 3, Shown: 2}, 1.5},
	}
	for _, tt := range tests {
		if got := tt.s.PerCause(); got != tt.want {
			t.Errorf("%+v: %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestVerdicts(t *testing.T) {
	good := Score{Name: "a", Buckets: 10, Shown: 10, Right: 10, Minimized: 10}
	tests := []struct {
		name   string
		scores []Score
		fail   []string
	}{
		{"all targets met", []Score{good}, nil},
		{"too many buckets in total", []Score{good, {Name: "b", Buckets: 4, Shown: 2, Right: 4, Minimized: 4}}, []string{"at most 1.1 buckets per true cause in total"}},
		{"one implementation over 2", []Score{good, good, good, good, good, good, good, good, good, good, good, good, good, good, good, good, good, good, good, good, {Name: "b", Buckets: 5, Shown: 2, Right: 5, Minimized: 5}},
			[]string{"at most 2 buckets per true cause for any implementation"}},
		{"a run failed", []Score{good, {Name: "b", Err: "no report"}}, []string{"every run reported"}},
		{"labels, mixed, overflow, minimized", []Score{{Name: "a", Buckets: 10, Shown: 10, Right: 9, Mixed: 1, Overflow: 1, Minimized: 9}},
			[]string{"at least 95% labels right", "no mixed bucket", "no overflow bucket", "every bucket minimized in the default budget"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var fail []string
			for _, v := range verdicts(tt.scores) {
				if !v.Pass {
					fail = append(fail, v.Target)
				}
			}
			if diff := cmp.Diff(tt.fail, fail); diff != "" {
				t.Errorf("failed targets (-want +got):\n%s", diff)
			}
			if passed(verdicts(tt.scores)) != (len(tt.fail) == 0) {
				t.Errorf("passed disagrees with the verdicts")
			}
		})
	}
}
