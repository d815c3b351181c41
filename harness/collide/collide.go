// Package collide is the collision oracle (docs/triage.md, "Collisions"):
// in tables of fixed size, it notices that one implementation gave one
// digest to two cases the reference tells apart, the failure with no
// symptom of its own. It is pure: a run feeds it each batch's judged cases
// and confirms the candidates it returns by judging both cases again.
package collide

import (
	"encoding/binary"
	"math/bits"
	"sync"

	"github.com/difffuzz/difffuzz/harness/compare"
)

// Sizes of the oracle's tables (run.Config.CollisionSlots sets the first).
const (
	// DefaultSlots is the slots of the table of the reference's
	// digests: 16 bytes each, 1 MiB in all, however long the run. A table
	// of 16 MiB (2^20 slots) keeps cases 16 times longer, but each case's
	// insert then misses the caches: 4 to 5 times the cost a case
	// (BenchmarkWatch: about 100 ns against 460 on 2 busy cores).
	DefaultSlots = 1 << 16
	// deviantSlots is the slots of each implementation's table of its
	// digests of the cases where it deviated: 24 bytes each, 1.5 MiB, made
	// at its first such case (a clean run makes none).
	deviantSlots = 1 << 16
	// maskedAdapters is how many adapters (the reference's place included)
	// a reference slot can say deviated; one past them is only ever
	// matched against its own deviations.
	maskedAdapters = 16
)

// Watch is the collision oracle: it keeps,
// in tables of fixed size, what it needs to notice that one implementation
// gave one digest to two cases the reference tells apart. The reference is
// injective, so such a pair always holds a case where that implementation
// deviated; where it agreed, it gave the reference's digest. So the Watch
// keeps the reference's digest of every recent case (with which
// implementations did not give it) and each implementation's digests of its
// recent deviating cases, and matches a deviating case's digest against
// both, and a case's reference digest against the deviating digests of the
// implementations that gave it.
//
// Each table is direct-mapped on the digest's first 8 bytes (a uniformly
// random number): a case takes the slot its digest picks and evicts what
// was there. So memory is fixed, and a case stays within reach until a
// later one lands on its slot: of the next k cases with the default 2^16
// slots, it survives with probability e^(-k/2^16): 90% after 6,900 cases,
// half after 45,000.
// Twins (gen) are adjacent cases, always within reach. A prefix match is a
// Candidate: the lane confirms it by judging both cases with text before it
// is a finding. It is shared by the lanes; each takes it once a batch.
type Watch struct {
	names  []string // the adapters, the reference first
	mu     sync.Mutex
	refs   []refSlot
	devs   [][]devSlot // by adapter; nil until its first deviating text
	causes []string    // interned causes of deviations, by id
	ids    map[string]uint16
}

// refSlot is one case's reference digest: key its first 8 bytes, val the
// case's index+1 (0: empty) shifted past a mask of the adapters that did
// not give that digest.
type refSlot struct{ key, val uint64 }

// devSlot is one case an implementation deviated on: key its digest's
// first 8 bytes, ref the reference's (0 for a rejection), val the case's
// index+1 shifted past the id of its cause.
type devSlot struct{ key, ref, val uint64 }

// Candidate is a pair of cases, a < b, that adapter gave one digest where
// the reference gave two; cause is the deviation that made it, of the
// first case on which adapter deviated.
type Candidate struct {
	Adapter int
	A, B    uint64
	Cause   string
}

// New is a Watch over adapters names with at least slots reference
// slots (a power of two); nil, no oracle, when slots is not positive.
func New(names []string, slots int) *Watch {
	if slots <= 0 {
		return nil
	}
	n := 1 << bits.Len(uint(slots-1))
	return &Watch{names: names, refs: make([]refSlot, n), ids: map[string]uint16{}}
}

// prefix is a digest's first 8 bytes; 0 for none.
func prefix(d []byte) uint64 {
	if len(d) < 8 {
		return 0
	}
	return binary.LittleEndian.Uint64(d)
}

// Seen is one judged case as the Watch takes it.
type Seen struct {
	Index uint64
	Outs  []compare.Outcome
	Sigs  []compare.Signature // nil when every adapter agreed
}

// Observe takes a batch's judged cases and returns the collisions they
// complete with what the Watch holds; nil on a nil Watch.
func (w *Watch) Observe(cases []Seen) []Candidate {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var found []Candidate
	for i := range cases {
		found = w.see(&cases[i], found)
	}
	return found
}

// see matches one case against the tables, then enters it.
func (w *Watch) see(c *Seen, found []Candidate) []Candidate {
	ref := c.Outs[0]
	if ref.Absent() || ref.Failure != "" {
		return found // no truth to tell cases apart by
	}
	rp := prefix(ref.Digest) // 0: the reference rejected the case
	var mask uint64          // the adapters that did not give rp
	for x := 1; x < len(c.Outs); x++ {
		o := c.Outs[x]
		if o.Error == "" && o.Failure == "" && !o.Absent() && prefix(o.Digest) == rp && rp != 0 {
			continue
		}
		if x < maskedAdapters {
			mask |= 1 << x
		}
		xp := prefix(o.Digest)
		if o.Error != "" || o.Failure != "" || o.Absent() || xp == 0 || xp == rp {
			continue
		}
		found = w.deviated(c, x, xp, rp, found)
	}
	if rp == 0 {
		return found
	}
	for x := 1; x < len(c.Outs) && x < maskedAdapters; x++ {
		if mask&(1<<x) != 0 || x >= len(w.devs) || w.devs[x] == nil {
			continue
		}
		// x gave the reference's digest here and, on another case, the same
		// digest where it deviated from another reference text.
		if s := w.devs[x][rp&uint64(deviantSlots-1)]; s.key == rp && s.val != 0 && s.ref != rp {
			found = append(found, w.pair(x, s.val>>16-1, c.Index, w.causes[s.val&0xffff], ""))
		}
	}
	slot := &w.refs[rp&uint64(len(w.refs)-1)]
	// A digest already there keeps the case more implementations gave it.
	if slot.key != rp || slot.val == 0 || mask&^(slot.val&0xffff) == 0 {
		*slot = refSlot{key: rp, val: (c.Index+1)<<16 | mask}
	}
	return found
}

// deviated matches adapter x's digest xp of a case it deviated on (the
// reference's rp) against the cases where x gave the reference's digest,
// and those where it deviated too, then enters it.
func (w *Watch) deviated(c *Seen, x int, xp, rp uint64, found []Candidate) []Candidate {
	cause := w.causeOf(c.Sigs, x)
	if x < maskedAdapters {
		if s := w.refs[xp&uint64(len(w.refs)-1)]; s.key == xp && s.val != 0 && s.val&(1<<x) == 0 && s.val>>16-1 != c.Index {
			found = append(found, w.pair(x, c.Index, s.val>>16-1, cause, ""))
		}
	}
	for len(w.devs) <= x {
		w.devs = append(w.devs, nil)
	}
	if w.devs[x] == nil {
		w.devs[x] = make([]devSlot, deviantSlots)
	}
	slot := &w.devs[x][xp&uint64(deviantSlots-1)]
	if slot.key == xp && slot.val != 0 && slot.val>>16-1 != c.Index && slot.ref != rp {
		found = append(found, w.pair(x, c.Index, slot.val>>16-1, cause, w.causes[slot.val&0xffff]))
	}
	*slot = devSlot{key: xp, ref: rp, val: (c.Index+1)<<16 | uint64(w.intern(cause))}
	return found
}

// pair is the Candidate of cases i (where x deviated with cause ci) and j
// (with cause cj, "" if x agreed there), the lower index first; its cause
// is that of the first case on which x deviated.
func (w *Watch) pair(x int, i, j uint64, ci, cj string) Candidate {
	if j < i {
		i, j = j, i
		if cj != "" {
			ci = cj
		}
	}
	return Candidate{Adapter: x, A: i, B: j, Cause: ci}
}

// intern is cause's id; past 65,535 causes, the last one's.
func (w *Watch) intern(cause string) uint16 {
	if id, ok := w.ids[cause]; ok {
		return id
	}
	if len(w.causes) > 0xffff {
		return 0xffff
	}
	id := uint16(len(w.causes))
	w.ids[cause] = id
	w.causes = append(w.causes, cause)
	return id
}

// causeOf is the cause of adapter x's deviation among a case's signatures.
func (w *Watch) causeOf(sigs []compare.Signature, x int) string {
	for _, s := range sigs {
		if s.Deviates(w.names[x]) {
			return s.Cause
		}
	}
	return ""
}
