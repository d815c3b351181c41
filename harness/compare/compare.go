// Package compare decides whether the adapters agree on a case and, when
// they do not, names the divergence against the reference: which adapters
// deviate from it, the kind of the first difference, and its cause as a
// person would say it ("U+007F written raw (want \u007f)"). That name (the
// signature) is what findings are grouped by, so that one root cause is one
// bug report. The reference is the truth: it is never named as a deviant,
// however many implementations disagree with it (docs/triage.md).
package compare

import (
	"bytes"
	"fmt"
	"slices"
	"sort"

	"lukechampine.com/blake3"

	"github.com/difffuzz/difffuzz/contract"

	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Failure is how a worker failed on one case, which an Outcome can carry
// instead of a result. The kinds of difference and the adapter package's
// failure kinds are made from these, so each word is defined once.
type Failure string

// The failures that are the case's fault.
const (
	FailCrash Failure = "crash"
	FailHang  Failure = "hang"
)

// Outcome is one adapter's answer to one case: a digest (with the canonical
// bytes unless the batch was digest-only), an error code, or a failure of the
// worker on this case.
type Outcome struct {
	Canonical []byte
	Digest    []byte
	Error     string  // a spec error code, or "internal"
	Failure   Failure // FailCrash or FailHang: the case made the worker fail
	// Inexpressible is the reason the adapter's native value model cannot
	// hold the case: it has no answer to compare, and is left out.
	Inexpressible string
	Detail        string // the error message or the stderr tail; not compared
	// ErrorType and Frames are what an internal error's worker said failed
	// and where (protocol 4): its bucket's key when present, never Detail.
	ErrorType string
	Frames    []wire.Frame
	// Template is Detail with the input's own strings masked (see
	// WithTemplate): what a failure without frames is keyed by, when set.
	Template string
}

// OutcomeOf is a worker's result as an outcome to compare. An internal
// error keeps what its worker said failed and where (protocol 4), its
// bucket's key; the driver ignores them on a spec error code.
func OutcomeOf(r wire.Result) Outcome {
	switch {
	case r.Inexpressible != "":
		return Outcome{Inexpressible: r.Inexpressible, Detail: r.Message}
	case r.Error == wire.ErrorInternal:
		return Outcome{Error: r.Error, Detail: r.Message, ErrorType: r.ErrorType, Frames: r.Frames}
	case r.Error != "":
		return Outcome{Error: r.Error, Detail: r.Message}
	}
	return Outcome{Canonical: r.Canonical, Digest: r.Digest}
}

// Absent reports whether o is left out of the comparison: its adapter could
// not even express the case.
func (o Outcome) Absent() bool { return o.Inexpressible != "" }

// Kind is the kind of the first difference between two outcomes.
type Kind string

// The kinds, from the most to the least severe failure mode.
const (
	// KindCollision is two cases the reference tells apart that one
	// implementation gives one digest: two different calls deduplicated as
	// one, the failure with no symptom of its own (see Collides).
	KindCollision Kind = "collision"
	KindCrash     Kind = Kind(FailCrash)
	KindHang      Kind = Kind(FailHang)
	KindInternal  Kind = "internal"      // an implementation's own failure
	KindRejection Kind = "rejection"     // one rejects, the other outputs
	KindErrorCode Kind = "error_code"    // both reject, with different codes
	KindDigest    Kind = "digest"        // same canonical bytes, a wrong digest
	KindNumber    Kind = "number"        // first difference inside a number
	KindString    Kind = "string_escape" // inside a string's escaping or content
	KindKeyEscape Kind = "key_escape"    // a key's quote or backslash left unescaped: it breaks out
	KindKeyOrder  Kind = "key_order"     // object members in another order
	KindStructure Kind = "structure"     // anything else
)

// Verdict is the comparison of one case across adapters.
type Verdict struct {
	Agree bool
	// Groups partitions adapter indexes by equal outcome, in order of their
	// first adapter; Groups[0] holds the reference (adapter 0) unless its
	// outcome is absent. Absent outcomes are in no group.
	Groups [][]int
	// Base is the index in Groups of the baseline: the reference's group.
	// Only when the reference could not express the case is it the largest
	// group (the earliest on a tie), and NoReference is set.
	Base        int
	NoReference bool
	// Deviations has one entry per group other than the baseline that
	// the contract does not allow.
	Deviations []Deviation
	// Allowed has one entry per group other than the baseline whose
	// difference the contract leaves open (Judge): no finding, a row of
	// the implementation's profile. Agree is set when every deviation is
	// allowed.
	Allowed []Allowance
}

// Deviation is one group of adapters that answers otherwise than the
// baseline. Two bugs in one case are two deviations, so that each bug keeps
// one signature whether or not the other shows up in the same case.
type Deviation struct {
	Group int  // index in Verdict.Groups
	Kind  Kind // the kind of the first difference from the baseline
	// Cause is the root cause of the difference as a person reads it, the
	// same wherever in the text it shows: see cause.go.
	Cause string
	// Offset is the byte offset of that difference in the canonical text,
	// or -1 when it is not a text difference.
	Offset int
}

// Unanimous reports whether every implementation but the reference agrees
// against it: a hint for people (perhaps the reference is wrong), never a
// change of the verdict, since the reference stays the truth.
func (v Verdict) Unanimous() bool {
	return !v.Agree && !v.NoReference && len(v.Groups) == 2 && len(v.Groups[v.Base]) == 1 &&
		len(v.Groups[1-v.Base]) > 1
}

// Comparator compares outcomes; it keeps scratch space, so one per goroutine.
type Comparator struct {
	names []string
	want  contract.Contract // the reference's, for the causes (CauseUnder) and its allowances
	// variants are the reference under the contracts want's allowances
	// let a library follow instead (WithVariants); nil: none checked.
	variants []Variant
	digest   [][32]byte
	valid    []bool
	group    []int
}

// New returns a Comparator for adapters with these names, the first being
// the reference, which follows this project's contract.
func New(names []string) *Comparator { return NewFor(names, contract.Default) }

// NewFor is New for a reference that follows contract c: the causes say
// what c wants.
func NewFor(names []string, c contract.Contract) *Comparator {
	return &Comparator{names: names, want: c, digest: make([][32]byte, len(names)), valid: make([]bool, len(names)), group: make([]int, len(names))}
}

// Settled reports whether outs can be judged as they are: every output
// carries its canonical text, or all outcomes are alike (same digest, error
// code and failure). An unsettled case of a digest-only batch must be asked
// again with text, to tell what kind of difference it is.
func Settled(outs []Outcome) bool {
	return alike(outs) || !anyTextless(outs)
}

// alike reports whether all outcomes have the same digest, error code and
// failure. Equal digests stand for equal texts: BLAKE3 does not collide.
func alike(outs []Outcome) bool {
	first := -1
	for i, o := range outs {
		switch {
		case o.Absent():
		case first < 0:
			first = i
		case o.Failure != outs[first].Failure || o.Error != outs[first].Error || !bytes.Equal(o.Digest, outs[first].Digest):
			return false
		}
	}
	return true
}

// Textless reports whether o is an output given without its canonical text,
// as an answer to a digest-only batch may be.
func (o Outcome) Textless() bool { return o.Canonical == nil && o.Digest != nil }

func anyTextless(outs []Outcome) bool {
	for _, o := range outs {
		if o.Textless() {
			return true
		}
	}
	return false
}

// Compare returns the verdict on one case. It hashes each distinct canonical
// output once, so that a hashing bug is told apart from an encoding bug.
// Outputs without text (a digest-only batch) agree when all are alike; an
// unsettled set of them is compared by digest alone (see Settled).
func (c *Comparator) Compare(outs []Outcome) Verdict {
	if anyTextless(outs) && alike(outs) {
		return Verdict{Agree: true}
	}
	c.checkDigests(outs)
	ngroups := 0
	for i := range outs {
		c.group[i] = -1
		if outs[i].Absent() {
			continue
		}
		for j := 0; j < i; j++ {
			if !outs[j].Absent() && c.same(outs, i, j) {
				c.group[i] = c.group[j]
				break
			}
		}
		if c.group[i] < 0 {
			c.group[i] = ngroups
			ngroups++
		}
	}
	if ngroups <= 1 {
		return Verdict{Agree: true}
	}
	v := Verdict{Groups: make([][]int, ngroups)}
	for i, g := range c.group[:len(outs)] {
		if g >= 0 {
			v.Groups[g] = append(v.Groups[g], i)
		}
	}
	if outs[0].Absent() {
		v.NoReference = true
		for g := range v.Groups {
			if len(v.Groups[g]) > len(v.Groups[v.Base]) {
				v.Base = g
			}
		}
	}
	base := outs[v.Groups[v.Base][0]]
	for g, members := range v.Groups {
		if g != v.Base {
			v.Deviations = append(v.Deviations, deviation(g, base, outs[members[0]], c.want))
		}
	}
	return v
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
		(a.Canonical == nil) == (b.Canonical == nil) && bytes.Equal(a.Canonical, b.Canonical) &&
		(a.Canonical != nil || bytes.Equal(a.Digest, b.Digest))
}

// deviation judges outcome b of group g against the baseline a, a
// reference following contract c.
func deviation(g int, a, b Outcome, c contract.Contract) Deviation {
	d := Deviation{Group: g, Offset: -1}
	switch {
	case a.Failure == FailCrash || b.Failure == FailCrash:
		d.Kind, d.Cause = KindCrash, failureCause(a, b)
	case a.Failure == FailHang || b.Failure == FailHang:
		d.Kind, d.Cause = KindHang, failureCause(a, b)
	case a.Error == "internal" || b.Error == "internal":
		d.Kind, d.Cause = KindInternal, failureCause(a, b)
	case (a.Error == "") != (b.Error == ""):
		// A worker's code is its own word: FitCause keeps a stray one
		// from breaking the signature's text form.
		d.Kind, d.Cause = KindRejection, FitCause(rejectionCause(a, b))
	case a.Error != "":
		d.Kind, d.Cause = KindErrorCode, FitCause(fmt.Sprintf("%s where want %s", b.Error, a.Error))
	case bytes.Equal(a.Canonical, b.Canonical):
		// equal bytes in different groups: a digest is wrong
		d.Kind, d.Cause = KindDigest, "digest is not BLAKE3 of its own text"
	default:
		d.Offset = FirstDiff(a.Canonical, b.Canonical)
		d.Kind, d.Cause = CauseUnder(c, a.Canonical, b.Canonical, d.Offset)
	}
	return d
}

// Signatures names the bugs a verdict shows, one per deviation, for grouping
// findings: the kind of difference, its cause and the adapters that deviate,
// as "key_order: keys in UTF-16 order: ts". The reference is never named,
// so that a bug keeps its name however the others split in some case.
//
// Two groups whose outputs differ, but first differ from the reference in
// the same way, share one signature: their other differences come later in
// the text, and are other causes.
func (c *Comparator) Signatures(v Verdict) Signatures {
	var sigs Signatures
	for _, d := range v.Deviations {
		names := make([]string, len(v.Groups[d.Group]))
		for j, k := range v.Groups[d.Group] {
			names[j] = c.names[k]
		}
		sort.Strings(names)
		s := Signature{Kind: d.Kind, Cause: d.Cause, Deviants: names}
		if i := slices.IndexFunc(sigs, func(t Signature) bool { return t.Bucket() == s.Bucket() }); i >= 0 {
			sigs[i] = sigs[i].Merge(s)
			continue
		}
		sigs = append(sigs, s)
	}
	return sigs
}

// SignatureOf judges one case's outcomes afresh and names the bugs they
// show, as a run buckets the case: outs are in the order of names, the
// reference's first. A run keys a bucket by its first example, whose
// cause may be one of the noise a large case holds; called on the
// minimized example's outcomes, it gives the signature of the cause the
// example shows once small, by which the bucket can be keyed again (see
// CollisionSignatureOf for a collision pair).
func SignatureOf(names []string, outs []Outcome) Signatures {
	c := New(names)
	return c.Signatures(c.Compare(outs))
}

// Kind is the corpus kind of a finding with this verdict: "crash" or "hang"
// when some adapter failed so on the case, else "divergence".
func (v Verdict) Kind() string {
	for _, d := range v.Deviations {
		if d.Kind == KindCrash || d.Kind == KindHang {
			return string(d.Kind)
		}
	}
	return "divergence"
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
