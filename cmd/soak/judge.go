package main

import (
	"fmt"
	"slices"
)

// The soak's rule: after the warm-up (minutes 0 to baseFrom), the driver's
// median resident set over the last tailSpan minutes may exceed its median
// over minutes baseFrom to baseTo by at most maxGrowth. Medians, so that one
// sample taken while a batch of the largest cases was alive moves neither.
const (
	baseFrom  = 10.0
	baseTo    = 20.0
	tailSpan  = 10.0
	maxGrowth = 10 // percent
	// minJudged is the shortest curve judged: the last 10 minutes must not
	// overlap minutes 10 to 20.
	minJudged = baseTo + tailSpan
)

// Verdict is the rule applied to a curve.
type Verdict struct {
	Pass       bool
	Base, Tail int64 // the two medians, in bytes; 0 when not judged
	Note       string
}

// Judge applies the rule to samples in time order.
func Judge(samples []Sample) Verdict {
	if len(samples) == 0 || samples[len(samples)-1].Minute < minJudged {
		return Verdict{Pass: true, Note: fmt.Sprintf("not judged: the rule wants at least %.0f minutes of samples", minJudged)}
	}
	end := samples[len(samples)-1].Minute
	var base, tail []int64
	for _, s := range samples {
		if s.Minute >= baseFrom && s.Minute <= baseTo {
			base = append(base, s.Driver)
		}
		if s.Minute > end-tailSpan {
			tail = append(tail, s.Driver)
		}
	}
	v := Verdict{Base: median(base), Tail: median(tail)}
	growth := float64(v.Tail)/float64(v.Base) - 1
	v.Pass = 100*v.Tail <= (100+maxGrowth)*v.Base // in integers: 330 over 300 is not 10.000000000000009%
	word := "flat"
	if !v.Pass {
		word = "GROWN"
	}
	v.Note = fmt.Sprintf("%s: driver median RSS %d MiB over the last %.0f minutes against %d MiB over minutes %.0f-%.0f (%+.1f%%, at most %+.0f%%)",
		word, v.Tail>>20, tailSpan, v.Base>>20, baseFrom, baseTo, 100*growth, float64(maxGrowth))
	return v
}

// median of xs (the lower middle of an even count); 0 for none.
func median(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}
