// Package retain decides what a run keeps of its findings, in bounded disk
// and memory: which findings of a bucket go to the corpus (Keeper), and
// which root causes get a bucket of their own before the rest overflow
// (Causes, Folded). It sits beside the corpus, which it writes to; the run
// asks it, and never decides retention itself.
package retain

import (
	"fmt"
	"os"
	"sync"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
)

// DefaultKeepPerBucket is how many examples of one bucket a run writes to
// the corpus when Config.KeepPerBucket is 0; the rest are counted. A bucket
// is one root cause, so its twentieth example teaches little that its first
// did not, while an SDK that diverges on half its cases would otherwise
// Write gigabytes in an hour.
const DefaultKeepPerBucket = 20

// Keeper decides which findings go to the corpus: every bucket's first,
// then up to its cap, with the lowest case index always among them. The
// lanes ask it (wants) before they build a finding's entry, so that a
// finding nobody will write costs no entry, rendering or copy; the
// collector asks again (take) before it writes, and records what it wrote.
// A bucket's wants only ever turn false, so a finding the lanes skipped is
// one the collector would not have written.
type Keeper struct {
	limit   int // 0: keep every finding
	causes  *Causes
	mu      sync.Mutex
	buckets map[string]*kept
	refs    map[string]int // paths this run created, by the buckets holding them
}

// kept is one bucket's examples on disk.
type kept struct {
	files []keptFile
	min   uint64 // the lowest case index written; valid when files is not empty
}

type keptFile struct {
	path    string
	index   uint64
	created bool // this run created the file, so it may remove it
}

// NewKeeper keeps at most limit findings a bucket (0: every one), by the
// buckets causes assigns.
func NewKeeper(limit int, causes *Causes) *Keeper {
	return &Keeper{limit: limit, causes: causes, buckets: map[string]*kept{}, refs: map[string]int{}}
}

// Wants reports whether a finding of case index with these signatures (its
// own; the Keeper looks up their buckets) would be written now.
func (k *Keeper) Wants(sigs []compare.Signature, index uint64) bool {
	if k.limit == 0 {
		return true
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, s := range sigs {
		b := k.buckets[k.causes.Lookup(s).Bucket()]
		if b == nil || len(b.files) < k.limit || index < b.min {
			return true
		}
	}
	return false
}

// Write stores e in dir when some bucket of its signatures (assigned:
// causes.assign) still wants it,
// and returns its path ("" when not written). A bucket over its cap (a lower
// case index came late) gives up its highest-indexed file that this run
// created and no other bucket holds, so that it keeps at most its cap.
func (k *Keeper) Write(dir string, e *corpus.Entry, sigs []compare.Signature, index uint64) (string, error) {
	if !k.Wants(sigs, index) {
		return "", nil
	}
	_, statErr := os.Stat(corpus.EntryPath(dir, e))
	path, err := corpus.Write(dir, e)
	if err != nil {
		return "", err
	}
	if k.limit == 0 {
		return path, nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	created := os.IsNotExist(statErr)
	for _, s := range sigs {
		key := s.Bucket()
		b := k.buckets[key]
		if b == nil {
			b = &kept{min: index}
			k.buckets[key] = b
		}
		b.files = append(b.files, keptFile{path: path, index: index, created: created})
		b.min = min(b.min, index)
		if created {
			k.refs[path]++
		}
		if err := k.trim(b); err != nil {
			return path, err
		}
	}
	return path, nil
}

// trim removes b's highest-indexed removable file while it is over the cap.
func (k *Keeper) trim(b *kept) error {
	for len(b.files) > k.limit {
		hi := -1
		for i, f := range b.files {
			if f.created && f.index != b.min && (hi < 0 || f.index > b.files[hi].index) {
				hi = i
			}
		}
		if hi < 0 {
			return nil // every file predates the run or is the lowest: keep them
		}
		f := b.files[hi]
		b.files = append(b.files[:hi], b.files[hi+1:]...)
		if k.refs[f.path]--; k.refs[f.path] == 0 {
			delete(k.refs, f.path)
			if err := os.Remove(f.path); err != nil && !os.IsNotExist(err) {
				return fmt.Errorf("corpus: %w", err)
			}
		}
	}
	return nil
}

// Written is how many examples of the bucket (Signature.Bucket) are on
// disk.
func (k *Keeper) Written(key string) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	if b := k.buckets[key]; b != nil {
		return len(b.files)
	}
	return 0
}

// Causes is the bucket assignment the keeper looks buckets up in, which the
// run's collector assigns as it counts.
func (k *Keeper) Causes() *Causes { return k.causes }
