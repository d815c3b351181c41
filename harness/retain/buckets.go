package retain

import (
	"hash/maphash"
	"slices"
	"sync"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/report"
)

// Causes maps a finding's signatures to the run's buckets: each to its own
// root cause's bucket while the run has room for it (run.Config.MaxBuckets),
// to its kind's overflow bucket (compare.OverflowCause) past that. An SDK
// whose failure messages name each input in words would otherwise make a
// bucket of every finding, each with its example, diff and corpus files.
// The collector assigns buckets as it counts; the lanes, through the
// keeper, only look them up.
type Causes struct {
	max  int // <= 0: no bound
	mu   sync.RWMutex
	seen map[string]bool // the buckets assigned so far
}

// NewCauses gives at most limit root causes a bucket of their own (<= 0:
// no bound).
func NewCauses(limit int) *Causes { return &Causes{max: limit, seen: map[string]bool{}} }

// Lookup is the bucket s would be counted in now.
func (c *Causes) Lookup(s compare.Signature) compare.Signature {
	if c.max <= 0 {
		return s
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.bucket(s)
}

func (c *Causes) bucket(s compare.Signature) compare.Signature {
	if c.seen[s.Bucket()] || len(c.seen) < c.max {
		return s
	}
	return s.Overflow()
}

// Assign gives each of sigs its bucket, taking room for new causes while
// there is some; the overflow buckets, one a kind, come on top of the
// limit.
func (c *Causes) Assign(sigs []compare.Signature) []compare.Signature {
	if c.max <= 0 {
		return sigs
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := sigs // copied only when one overflows
	for i, s := range sigs {
		b := c.bucket(s)
		c.seen[b.Bucket()] = true
		if b.Cause != s.Cause {
			if &out[0] == &sigs[0] {
				out = slices.Clone(sigs)
			}
			out[i] = b
		}
	}
	return out
}

// Folded counts the causes an overflow bucket holds, in bounded memory:
// the first report.MaxFoldedListed with their findings, and how many
// distinct causes up to report.MaxFoldedCounted, remembered by a 64-bit
// hash each (a cause may be a long message). The overflow exists because
// causes came without bound; its account of them must not grow with them.
type Folded struct {
	seed   maphash.Seed
	listed map[string]int      // a listed cause's place in Group.Folded
	seen   map[uint64]struct{} // every cause counted, by hash
}

// NewFolded counts an overflow bucket's causes.
func NewFolded() *Folded {
	return &Folded{seed: maphash.MakeSeed(), listed: map[string]int{}, seen: map[uint64]struct{}{}}
}

// Add counts own, the cause a finding of the overflow bucket g showed.
func (f *Folded) Add(g *report.Group, own compare.Signature) {
	cause := own.Bucket()
	if i, ok := f.listed[cause]; ok {
		g.Folded[i].Count++
		return
	}
	h := maphash.String(f.seed, cause)
	if _, ok := f.seen[h]; !ok {
		if len(f.seen) == report.MaxFoldedCounted {
			g.FoldedMore = true
			return // a cause past the count is past the list too
		}
		f.seen[h] = struct{}{}
		g.FoldedCauses++
	}
	if len(g.Folded) < report.MaxFoldedListed {
		f.listed[cause] = len(g.Folded)
		g.Folded = append(g.Folded, report.FoldedCause{Cause: cause, Count: 1})
	}
}
