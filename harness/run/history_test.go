package run

import (
	"slices"
	"testing"

	"github.com/difffuzz/difffuzz/harness/compare"
)

// The calls before a case are what its lane's workers answered before its
// answer: earlier round trips, then the batch's cases before it, or, for a
// case re-asked with text, the whole batch and the re-asks before it; at
// most HistoryLen of them.
func TestCallsBefore(t *testing.T) {
	var h history
	h.push(1, 2, 3)
	b := &batch{indexes: []uint64{10, 11, 12, 13}}
	tests := []struct {
		name    string
		i       int
		reasked []int
		want    []uint64
	}{
		{"first of the batch", 0, nil, []uint64{1, 2, 3}},
		{"third of the batch", 2, nil, []uint64{1, 2, 3, 10, 11}},
		{"re-asked first", 1, []int{1, 3}, []uint64{1, 2, 3, 10, 11, 12, 13}},
		{"re-asked second", 3, []int{1, 3}, []uint64{1, 2, 3, 10, 11, 12, 13, 11}},
	}
	for _, tt := range tests {
		if got := callsBefore(&h, b, tt.i, tt.reasked); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	h.pushBatch(b, []int{1})
	if want := []uint64{1, 2, 3, 10, 11, 12, 13, 11}; !slices.Equal(h.calls, want) {
		t.Errorf("after the batch: %v, want %v", h.calls, want)
	}
	for i := range uint64(200) {
		h.push(i)
	}
	if len(h.calls) != HistoryLen || h.calls[HistoryLen-1] != 199 || len(h.before([]uint64{7})) != HistoryLen {
		t.Errorf("history of %d calls, last %d: want the last %d", len(h.calls), h.calls[len(h.calls)-1], HistoryLen)
	}
}

// The resend share is about one case in oneIn, the same cases for the same
// seed; a lane takes what other lanes held when there are several, and
// what it held itself when it is alone; the cases held are bounded.
func TestResender(t *testing.T) {
	share := func(seed uint64) []uint64 {
		s := newResender(&Config{Seed: seed, ResendOneIn: 64}, 1)
		var chosen []uint64
		for i := range uint64(64000) {
			if s.chosen(i) {
				chosen = append(chosen, i)
			}
		}
		return chosen
	}
	a, b := share(1), share(1)
	if !slices.Equal(a, b) || len(a) < 800 || len(a) > 1200 || slices.Equal(a, share(2)) {
		t.Errorf("%d of 64,000 chosen (want about 1,000, the same for one seed)", len(a))
	}
	if newResender(&Config{Seed: 1, ResendOneIn: -1}, 1).chosen(a[0]) {
		t.Error("a negative share chose a case")
	}
	outs := [][]compare.Outcome{{{Digest: []byte{1}}}, {{Digest: []byte{2}}}}
	two := newResender(&Config{Seed: 1, ResendOneIn: 1}, 2)
	two.hold(0, []uint64{5, 6}, outs, []bool{true, false})
	if got := two.take(0); len(got) != 0 {
		t.Errorf("lane 0 took back its own cases %v in a run of two lanes", got)
	}
	if got := two.take(1); len(got) != 1 || got[0].index != 5 || got[0].outs[0].Digest[0] != 1 {
		t.Errorf("lane 1 took %+v, want case 5 alone (6 was not answered)", got)
	}
	one := newResender(&Config{Seed: 1, ResendOneIn: 1}, 1)
	for i := range uint64(maxResendHeld + 10) {
		one.hold(0, []uint64{i}, outs[:1], []bool{true})
	}
	if got := one.take(0); len(got) != maxResendHeld || got[0].index != 10 {
		t.Errorf("held %d from %d, want the last %d", len(got), got[0].index, maxResendHeld)
	}
}
