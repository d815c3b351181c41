package zoo

import (
	"hash/maphash"
	"slices"
	"strings"
)

// statefulMutants remember what they computed before: each answers one
// input two ways, by how many calls, or which, came before it in its
// process, or by a seed of its process. An exactly-once system that names
// a call by its digest signs such a call two ways (docs/triage.md,
// "Nondeterministic"). Their state lives in the closures Set makes, so
// that each worker process (each Func) has its own. They are hunted for a
// nondeterministic bucket, not the first divergence (Stateful).
var statefulMutants = []Mutant{
	{"sort-skip-nth", "every 1000th call writes its objects' members in input order (a sort skipped on a counter)", func(e *Enc) {
		var calls int
		skip := false
		e.Order = func(keys []string, level int) []int {
			if level == 1 { // one top-level object a call: count the calls
				calls++
				skip = calls%skipEvery == 0
			}
			if skip {
				return SortBy(keys, func(a, b string) int { return 0 })
			}
			return SortBy(keys, strings.Compare)
		}
	}},
	{"length-cache", "strings cached by their length alone: a later string of one length gets an earlier one's text (a cache of 16, flushed when full)", func(e *Enc) {
		cache := map[int][]byte{}
		e.String = func(e *Enc, dst []byte, s string, _ bool) []byte {
			if q, ok := cache[len(s)]; ok {
				return append(dst, q...)
			}
			if len(cache) == lengthCacheSize {
				clear(cache)
			}
			q := e.Quote(nil, s)
			cache[len(s)] = q
			return append(dst, q...)
		}
	}},
	{"reused-buffer", "a string with an escape is escaped in a buffer kept across calls and never cut shorter: an earlier, longer string's tail is written after it", func(e *Enc) {
		var buf []byte // its length only grows
		e.String = func(e *Enc, dst []byte, s string, _ bool) []byte {
			q := e.Quote(nil, s)
			if len(q) == len(s)+2 { // no escape: the fast path
				return append(dst, q...)
			}
			n := copy(buf, q)
			buf = append(buf, q[n:]...)
			return append(dst, buf...) // buf[:len(q)] was meant
		}
	}},
	{"seeded-order", "objects of 4 or more members written in an order hashed with a seed of the process (a hash map's iteration order)", func(e *Enc) {
		seed := maphash.MakeSeed()
		e.Order = func(keys []string, _ int) []int {
			if len(keys) < seededOrderFrom {
				return SortBy(keys, strings.Compare)
			}
			perm := SortBy(keys, strings.Compare)
			slices.SortStableFunc(perm, func(a, b int) int {
				ha, hb := maphash.String(seed, keys[a]), maphash.String(seed, keys[b])
				return compareUint(ha, hb)
			})
			return perm
		}
	}},
}

// The stateful mutants' parameters: how often the sort is skipped, the
// length cache's size, and the object size from which the seeded order
// shows.
const (
	skipEvery       = 1000
	lengthCacheSize = 16
	seededOrderFrom = 4
)

func compareUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// statefulNames are the mutants hunted for a nondeterministic bucket.
var statefulNames = map[string]bool{}

func init() {
	Mutants = append(Mutants, statefulMutants...)
	for _, m := range statefulMutants {
		statefulNames[m.Name] = true
	}
}

// Stateful reports whether mutant name (one of the zoo, not a
// combination) answers one input two ways: its hunt waits for a
// nondeterministic bucket, not the first divergence.
func Stateful(name string) bool { return statefulNames[name] }
