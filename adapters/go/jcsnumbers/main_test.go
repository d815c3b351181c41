package main

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestCompare checks that compare counts and reports a mismatch, and that
// node's output ending early or running long is an error, not a pass.
func TestCompare(t *testing.T) {
	feed := func(xs ...float64) chan float64 {
		ch := make(chan float64, len(xs))
		for _, x := range xs {
			ch <- x
		}
		close(ch)
		return ch
	}
	var report bytes.Buffer
	m, err := compare(strings.NewReader("1e+21\n0.000001\nNaN\n"), feed(1e21, 1e-6, math.NaN()), &report)
	if err != nil || m != 0 {
		t.Errorf("agreeing texts: %d mismatches, %v", m, err)
	}
	m, err = compare(strings.NewReader("1e21\n-0\n"), feed(1e21, math.Copysign(0, -1)), &report)
	if err != nil || m != 2 || !strings.Contains(report.String(), "bits 444b1ae4d6e2ef50: canonjson 1e+21, node 1e21") {
		t.Errorf("two mismatches: got %d, %v, report %q", m, err, report.String())
	}
	if _, err := compare(strings.NewReader("1\n"), feed(1, 2), &report); err == nil {
		t.Error("output ending early: no error")
	}
	if _, err := compare(strings.NewReader("1\n2\n"), feed(1), &report); err == nil {
		t.Error("output running long: no error")
	}
}

// TestBoundaryDoubles checks that the boundary classes hold what the
// package doc promises.
func TestBoundaryDoubles(t *testing.T) {
	xs := boundaryDoubles()
	has := map[uint64]bool{}
	for _, x := range xs {
		has[math.Float64bits(x)] = true
	}
	for _, x := range []float64{1e-7, math.Nextafter(1e-7, 0), 1e21, math.Nextafter(1e21, 2e21), 1 << 53, 1<<53 + 2,
		math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 0x1p-1022, math.Float64frombits(1<<52 - 1), 5e-324, -1e-300} {
		if !has[math.Float64bits(x)] {
			t.Errorf("boundary classes lack %v (%016x)", x, math.Float64bits(x))
		}
	}
}
