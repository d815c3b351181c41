package minimize

// edgeChunks emits, for a sequence too long for single-item chunks, the
// chunks of 1, 2, 4, ... items at each end and all but those: what a bug at
// the end of a long sequence needs (the one character past 65,536 that must
// stay, the elements past a length) and what its uniform chunks, each
// holding that end and more, cannot give. They come after the uniform
// chunks, at the level past the finest of those.
func (t *tree) edgeChunks(k int, emit func(lo, hi int, keep bool)) {
	for n := 1; n < k; n *= 2 {
		emit(k-n, k, false)
		emit(0, k-n, false)
		emit(0, n, false)
		emit(n, k, false)
	}
}

// chunks calls fn for the ddmin chunks of a sequence of k items: for
// n = 2, 4, 8, ... and finally k pieces, drop each piece (keep=false) and
// keep only each piece (keep=true), skipping repeats, dropping everything
// (unless all is set) and keeping everything.
func (t *tree) chunks(k int, all bool, fn func(lo, hi int, keep bool, level uint8)) {
	// t.seen holds this round's chunks of every sequence, told apart by a
	// call number: clearing a map per sequence costs its whole capacity.
	t.seenCall++
	call := uint64(t.seenCall) << 42
	level := uint8(0)
	emit := func(lo, hi int, keep bool) {
		if keep && lo == 0 {
			lo, hi, keep = hi, k, false // keeping a prefix drops the rest
		} else if keep && hi == k {
			lo, hi, keep = 0, lo, false
		}
		if lo >= hi || (!all && lo == 0 && hi == k) {
			return
		}
		if k < 1<<21 {
			key := call | uint64(lo)<<22 | uint64(hi)<<1
			if keep {
				key |= 1
			}
			if _, dup := t.seen[key]; dup {
				return
			}
			t.seen[key] = struct{}{}
		}
		fn(lo, hi, keep, level)
	}
	for n := 2; ; n *= 2 {
		level++
		n = min(n, k)
		if n > maxChunks {
			t.edgeChunks(k, emit)
			return
		}
		for j := range n {
			lo, hi := j*k/n, (j+1)*k/n
			emit(lo, hi, false)
			if n <= maxKeepChunks {
				emit(lo, hi, true)
			}
		}
		if n == k {
			return
		}
	}
}

// ranges offers dropping and keeping chunks of a container's members.
func (t *tree) ranges(id int32) {
	n := &t.nodes[id]
	k := int(n.n)
	if k == 0 {
		return
	}
	// Prefix sums of member text lengths and weights.
	pre := append(t.pre[:0], 0)
	for _, c := range t.nodes[n.first : n.first+n.n] {
		pre = append(pre, pre[len(pre)-1]+c.size+memberExtra(c))
	}
	wpre := append(t.wpre[:0], 0)
	for _, c := range t.nodes[n.first : n.first+n.n] {
		wpre = append(wpre, wpre[len(wpre)-1]+c.weight+c.keyWeight)
	}
	t.pre, t.wpre = pre, wpre
	t.chunks(k, false, func(lo, hi int, keep bool, level uint8) {
		c := cand{kind: kDrop, list: listRange, level: level, node: id, a: int32(lo), b: int32(hi)}
		gone, goneSize, goneWeight := hi-lo, pre[hi]-pre[lo], wpre[hi]-wpre[lo]
		if keep {
			c.kind = kKeep
			gone, goneSize, goneWeight = k-gone, pre[k]-goneSize, wpre[k]-goneWeight
		}
		commas := (k - 1) - max(0, k-gone-1)
		t.add(c, goneSize+commas, goneWeight, 0, 0)
	})
}
