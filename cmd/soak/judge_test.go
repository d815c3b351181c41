package main

import (
	"strings"
	"testing"
)

// curve makes a sample a minute, minutes 1 to len(mib), the driver's
// resident set given in MiB.
func curve(mib ...int64) []Sample {
	s := make([]Sample, len(mib))
	for i, m := range mib {
		s[i] = Sample{Minute: float64(i + 1), Driver: m << 20}
	}
	return s
}

// flat is n minutes at m MiB.
func flat(n int, m int64) []int64 {
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = m
	}
	return xs
}

func cat(parts ...[]int64) []int64 {
	var all []int64
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}

func TestJudge(t *testing.T) {
	for _, tc := range []struct {
		name string
		mib  []int64
		pass bool
		note string
	}{
		{"flat hour", flat(60, 300), true, "flat: driver median RSS 300 MiB"},
		{"warm-up growth is not counted", cat([]int64{100, 150, 200, 250, 280, 290, 295, 298, 299}, flat(51, 300)), true, "+0.0%"},
		{"exactly 10% more", cat(flat(40, 300), flat(20, 330)), true, "+10.0%"},
		{"more than 10% more", cat(flat(40, 300), flat(20, 331)), false, "GROWN"},
		{"the issue's leak", []int64{271, 283, 288, 293, 298, 303, 305, 308, 318, 328, 333, 338, 343, 348, 353, 358, 363, 368, 373, 378, 383, 388, 393, 398, 403, 408, 413, 418, 423, 428, 433}, false, "GROWN"},
		{"one high sample in the tail", cat(flat(55, 300), []int64{300, 300, 900, 300, 300}), true, "flat"},
		{"too short", flat(29, 300), true, "not judged"},
		{"none", nil, true, "not judged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Judge(curve(tc.mib...))
			if v.Pass != tc.pass || !strings.Contains(v.Note, tc.note) {
				t.Errorf("Judge = pass %v, %q; want pass %v, note with %q", v.Pass, v.Note, tc.pass, tc.note)
			}
		})
	}
}

func TestAdapterOf(t *testing.T) {
	for cmdline, want := range map[string]string{
		"/work/adapters/python/.venv/bin/python -m canonjson_worker": "python",
		"node adapters/ts/dist/src/worker.js":                        "ts",
		"adapters/rust/target/release/worker":                        "rust",
		"bin/canonjson-worker":                                       "canonjson-worker",
		"bin/mutant text-over-1mib":                                  "mutant",
	} {
		if got := adapterOf(cmdline); got != want {
			t.Errorf("adapterOf(%q) = %q, want %q", cmdline, got, want)
		}
	}
}
