package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/difffuzz/difffuzz/harness/compare"
)

// runReport is the part of difffuzz run's JSON report (harness/report) the
// benchmark reads. Its own small types, so that a field the benchmark does
// not read may change freely; a field it does read and that is missing
// reads as its zero value, or as nil where the difference matters.
type runReport struct {
	Cases    uint64         `json:"cases"`
	Seconds  float64        `json:"seconds"`
	Error    string         `json:"error"`
	Distinct []reportBucket `json:"distinct"`
}

// reportBucket is one bucket of the report.
type reportBucket struct {
	Signature compare.Signature `json:"signature"`
	Count     uint64            `json:"count"`
	// First and MinimizedPath are corpus files of the bucket: its first
	// finding and its minimized example.
	First         string `json:"first"`
	Minimized     bool   `json:"minimized"`
	MinimizedPath string `json:"minimized_path"`
	// MinimizeSeconds is nil when the report has no such field (a report
	// that does not time its minimizations, or a bucket not minimized).
	MinimizeSeconds    *float64 `json:"minimize_seconds"`
	MinimizeIncomplete bool     `json:"minimize_incomplete"`
}

// readReport reads a run's JSON report.
func readReport(path string) (*runReport, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r runReport
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}

// Bucket is one bucket of a run, as the benchmark scores it.
type Bucket struct {
	Signature compare.Signature
	Label     string // the signature without its implementations: "KIND: CAUSE"
	Count     uint64
	Overflow  bool // a kind's overflow bucket, past the run's bucket limit
	// Minimized: the run minimized its example to the end within its
	// budget (an example, and no note that time ran out).
	Minimized bool
	// MinimizeSeconds is how long that took; nil when the report does not say.
	MinimizeSeconds *float64
	// Rechecked are the labels its kept examples show when replayed, one
	// each, "(agrees)" for one that no longer diverges; Kept how many.
	Rechecked []string
	Kept      int
}

// Mixed reports whether the bucket's kept examples show more than one label.
func (b Bucket) Mixed() bool { return len(b.Rechecked) > 1 }

// buckets turns a report's buckets into the benchmark's, for the run of
// the implementation named impl.
func buckets(r *runReport, impl string) []Bucket {
	out := make([]Bucket, 0, len(r.Distinct))
	for _, g := range r.Distinct {
		label := labelOf(g.Signature, impl)
		out = append(out, Bucket{
			Signature:       g.Signature,
			Label:           label,
			Count:           g.Count,
			Overflow:        g.Signature.Cause == compare.OverflowCause,
			Minimized:       g.Minimized && !g.MinimizeIncomplete,
			MinimizeSeconds: g.MinimizeSeconds,
		})
	}
	return out
}

// labelOf is a signature's "KIND: CAUSE" (compare.Signature.Bucket) when
// impl is its one deviant, as in a run of one implementation beside the
// reference; else its whole text.
func labelOf(s compare.Signature, impl string) string {
	if !slices.Equal(s.Deviants, []string{impl}) {
		return s.String()
	}
	return s.Bucket()
}
