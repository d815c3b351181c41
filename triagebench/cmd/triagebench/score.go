package main

import (
	"math"
	"slices"
	"strings"
)

// Run is one implementation's run in one model.
type Run struct {
	Model   string
	Cases   uint64
	Buckets []Bucket
}

// Score is one implementation's result (or the total of several): what
// the targets are measured on.
type Score struct {
	Name   string
	Causes int // true causes, each counted once whatever its models
	Found  int // true causes some bucket of some run was labeled with
	// Shown is the (cause, model) pairs found: a cause that shows in both
	// models is expected to make a bucket in each run, so this, not
	// Found, is what buckets are counted against.
	Shown     int
	Buckets   int
	Right     int // buckets whose label is exactly one true cause's
	Mixed     int // buckets whose kept examples show more than one label
	Overflow  int // overflow buckets
	Minimized int // buckets minimized to the end within the run's budget
	// MinimizeSeconds is the total of the buckets' minimization times that
	// the reports give; Untimed counts the minimized buckets whose report
	// gives none (a collision's pair, today).
	MinimizeSeconds float64
	Untimed         int
	Cases           uint64
	Missed          []string // ids of true causes no bucket was labeled with
	Unlabeled       []string // labels of buckets that match no true cause, or several
	MixedLabels     []string // each mixed bucket's label and what its examples show
	// Err says why the implementation has no score: a run that failed. A
	// total counts such implementations in Failed.
	Err    string
	Failed int
}

// PerCause is the buckets per found (cause, model) pair: +Inf when there
// are buckets but none was labeled with a true cause, 0 for no bucket.
func (s Score) PerCause() float64 {
	switch {
	case s.Buckets == 0:
		return 0
	case s.Shown == 0:
		return math.Inf(1)
	}
	return float64(s.Buckets) / float64(s.Shown)
}

// score scores one implementation's runs against its true causes.
func score(im Impl, runs []Run) Score {
	s := Score{Name: im.Name, Causes: len(im.Causes)}
	found := map[string]bool{}
	for _, r := range runs {
		s.Cases += r.Cases
		shown := map[string]bool{}
		for _, b := range r.Buckets {
			s.count(b)
			ids := matching(im.CausesIn(r.Model), b.Label)
			if len(ids) == 1 {
				s.Right++
			} else {
				s.Unlabeled = append(s.Unlabeled, b.Label)
			}
			for _, id := range ids {
				shown[id], found[id] = true, true
			}
		}
		s.Shown += len(shown)
	}
	s.Found = len(found)
	for _, c := range im.Causes {
		if !found[c.ID] {
			s.Missed = append(s.Missed, c.ID)
		}
	}
	return s
}

// count adds one bucket's figures that need no true cause.
func (s *Score) count(b Bucket) {
	s.Buckets++
	if b.Mixed() {
		s.Mixed++
		s.MixedLabels = append(s.MixedLabels, b.Label+" <- "+strings.Join(b.Rechecked, " | "))
	}
	if b.Overflow {
		s.Overflow++
	}
	if b.Minimized {
		s.Minimized++
		if b.MinimizeSeconds == nil {
			s.Untimed++
		}
	}
	if b.MinimizeSeconds != nil {
		s.MinimizeSeconds += *b.MinimizeSeconds
	}
}

// matching are the ids of the causes whose label matches.
func matching(causes []Cause, label string) []string {
	var ids []string
	for _, c := range causes {
		if c.Matches(label) {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// total sums scores.
func total(scores []Score) Score {
	t := Score{Name: "total"}
	for _, s := range scores {
		if s.Err != "" {
			t.Failed++
			continue
		}
		t.Causes += s.Causes
		t.Found += s.Found
		t.Shown += s.Shown
		t.Buckets += s.Buckets
		t.Right += s.Right
		t.Mixed += s.Mixed
		t.Overflow += s.Overflow
		t.Minimized += s.Minimized
		t.MinimizeSeconds += s.MinimizeSeconds
		t.Untimed += s.Untimed
		t.Cases += s.Cases
	}
	return t
}

// The issue's targets for triage ("Triage that holds on code nobody here
// wrote", item 6).
const (
	maxPerCauseTotal = 1.1  // buckets per true cause, over all implementations
	maxPerCauseImpl  = 2.0  // buckets per true cause, for any one implementation
	minRightShare    = 0.95 // labels right, over all buckets
)

// Verdict is one target and whether the benchmark met it.
type Verdict struct {
	Target string
	Got    string
	Pass   bool
}

// verdicts holds the scores to the targets.
func verdicts(scores []Score) []Verdict {
	t := total(scores)
	worst, worstName := 0.0, "-"
	for _, s := range scores {
		if s.Err != "" {
			continue
		}
		if p := s.PerCause(); p > worst || worstName == "-" {
			worst, worstName = p, s.Name
		}
	}
	right := 1.0
	if t.Buckets > 0 {
		right = float64(t.Right) / float64(t.Buckets)
	}
	return []Verdict{
		{"every run reported", count(t.Failed) + " failed", t.Failed == 0},
		{"at most 1.1 buckets per true cause in total", ratio(t.PerCause()), t.PerCause() <= maxPerCauseTotal},
		{"at most 2 buckets per true cause for any implementation", ratio(worst) + " (" + worstName + ")", worst <= maxPerCauseImpl},
		{"at least 95% labels right", percent(t.Right, t.Buckets), right >= minRightShare},
		{"no mixed bucket", count(t.Mixed), t.Mixed == 0},
		{"no overflow bucket", count(t.Overflow), t.Overflow == 0},
		{"every bucket minimized in the default budget", count(t.Minimized) + "/" + count(t.Buckets), t.Minimized == t.Buckets},
	}
}

// passed reports whether every verdict passed.
func passed(vs []Verdict) bool {
	return !slices.ContainsFunc(vs, func(v Verdict) bool { return !v.Pass })
}
