// Package compare decides whether the adapters agree on a case and, when
// they do not, names the divergence: which adapters side with which, and what
// kind of difference comes first. The name (the signature) is what findings
// are grouped by, so that one bug is one report.
package compare

import (
	"bytes"
	"sort"
	"strings"

	"lukechampine.com/blake3"
)

// Failure kinds an Outcome can carry instead of a result.
const (
	FailCrash = "crash"
	FailHang  = "hang"
)

// Outcome is one adapter's answer to one case: canonical bytes and digest, an
// error code, or a failure of the worker on this case.
type Outcome struct {
	Canonical []byte
	Digest    []byte
	Error     string // a spec error code, or "internal"
	Failure   string // FailCrash or FailHang: the case made the worker fail
	Detail    string // the error message or the stderr tail; not compared
}

// Kind is the kind of the first difference between two outcomes.
type Kind string

// The kinds, from the most to the least severe failure mode.
const (
	KindCrash     Kind = "crash"
	KindHang      Kind = "hang"
	KindInternal  Kind = "internal"      // an implementation's own failure
	KindRejection Kind = "rejection"     // one rejects, the other outputs
	KindErrorCode Kind = "error_code"    // both reject, with different codes
	KindDigest    Kind = "digest"        // same canonical bytes, a wrong digest
	KindNumber    Kind = "number"        // first difference inside a number
	KindString    Kind = "string_escape" // inside a string's escaping or content
	KindKeyOrder  Kind = "key_order"     // object members in another order
	KindStructure Kind = "structure"     // anything else
)

// Verdict is the comparison of one case across adapters.
type Verdict struct {
	Agree bool
	// Groups partitions adapter indexes by equal outcome; Groups[0] holds
	// adapter 0, the reference, and the rest follow by their first index.
	Groups [][]int
	// Kind and Offset describe the first difference between Groups[0] and
	// Groups[1]; Offset is a byte offset into the canonical text, or -1.
	Kind   Kind
	Offset int
}

// Comparator compares outcomes; it keeps scratch space, so one per goroutine.
type Comparator struct {
	names  []string
	digest [][32]byte
	valid  []bool
	group  []int
}

// New returns a Comparator for adapters with these names, the first being
// the reference.
func New(names []string) *Comparator {
	return &Comparator{names: names, digest: make([][32]byte, len(names)), valid: make([]bool, len(names)), group: make([]int, len(names))}
}

// Compare returns the verdict on one case. It hashes each distinct canonical
// output once, so that a hashing bug is told apart from an encoding bug.
func (c *Comparator) Compare(outs []Outcome) Verdict {
	c.checkDigests(outs)
	ngroups := 0
	for i := range outs {
		c.group[i] = -1
		for j := 0; j < i; j++ {
			if c.same(outs, i, j) {
				c.group[i] = c.group[j]
				break
			}
		}
		if c.group[i] < 0 {
			c.group[i] = ngroups
			ngroups++
		}
	}
	if ngroups == 1 {
		return Verdict{Agree: true, Offset: -1}
	}
	groups := make([][]int, ngroups)
	for i, g := range c.group[:len(outs)] {
		groups[g] = append(groups[g], i)
	}
	a, b := groups[0][0], groups[1][0]
	kind, off := kind(outs[a], outs[b])
	return Verdict{Groups: groups, Kind: kind, Offset: off}
}

// checkDigests sets valid[i]: outs[i].Digest is BLAKE3 of its own output.
func (c *Comparator) checkDigests(outs []Outcome) {
	for i, o := range outs {
		if o.Canonical == nil {
			c.valid[i] = true
			continue
		}
		done := false
		for j := 0; j < i; j++ {
			if outs[j].Canonical != nil && bytes.Equal(o.Canonical, outs[j].Canonical) {
				c.digest[i], done = c.digest[j], true
				break
			}
		}
		if !done {
			c.digest[i] = blake3.Sum256(o.Canonical)
		}
		c.valid[i] = bytes.Equal(o.Digest, c.digest[i][:])
	}
}

func (c *Comparator) same(outs []Outcome, i, j int) bool {
	a, b := outs[i], outs[j]
	return a.Failure == b.Failure && a.Error == b.Error && c.valid[i] == c.valid[j] &&
		(a.Canonical == nil) == (b.Canonical == nil) && bytes.Equal(a.Canonical, b.Canonical)
}

func kind(a, b Outcome) (Kind, int) {
	switch {
	case a.Failure == FailCrash || b.Failure == FailCrash:
		return KindCrash, -1
	case a.Failure == FailHang || b.Failure == FailHang:
		return KindHang, -1
	case a.Error == "internal" || b.Error == "internal":
		return KindInternal, -1
	case (a.Error == "") != (b.Error == ""):
		return KindRejection, -1
	case a.Error != "":
		return KindErrorCode, -1
	case bytes.Equal(a.Canonical, b.Canonical):
		return KindDigest, -1 // equal bytes in different groups: a digest is wrong
	}
	off := FirstDiff(a.Canonical, b.Canonical)
	return Classify(a.Canonical, b.Canonical, off), off
}

// Signature names a divergence for grouping: its kind and which adapters
// side with which, as "key_order: go python rust | ts".
func (c *Comparator) Signature(v Verdict) string {
	if v.Agree {
		return ""
	}
	parts := make([]string, len(v.Groups))
	for i, g := range v.Groups {
		names := make([]string, len(g))
		for j, k := range g {
			names[j] = c.names[k]
		}
		sort.Strings(names)
		parts[i] = strings.Join(names, " ")
	}
	return string(v.Kind) + ": " + strings.Join(parts, " | ")
}

// FirstDiff is the first byte offset where a and b differ, or the shorter
// length if one is a prefix of the other, or -1 if they are equal.
func FirstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) == len(b) {
		return -1
	}
	return n
}
