package compare

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Signature names one bug: the kind of the first difference, its cause, and
// the adapters that deviate from the reference, sorted. Findings are grouped
// by it, the known list and the corpus store it, and its text form,
// "key_order: keys in UTF-16 order: rust, ts", is written by String and read
// by UnmarshalText alone (parseSignature).
type Signature struct {
	Kind     Kind
	Cause    string
	Deviants []string
}

// The separators of a signature's text form. A cause never holds a
// line break nor signatureSep (see FitCause), and a kind or an adapter
// name never holds ": ", so the text splits back at its first and last ": ".
const (
	partSep    = ": "
	deviantSep = ", "
)

// String is the signature's text form, "KIND: CAUSE: A, B".
func (s Signature) String() string {
	return string(s.Kind) + partSep + s.Cause + partSep + strings.Join(s.Deviants, deviantSep)
}

// MarshalText is the signature's text form, so that a report's JSON, a
// corpus file and a known list hold it as the line a person reads.
func (s Signature) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads the text form MarshalText wrote. A signature of
// difffuzz before causes is an error that wraps ErrOldSignature.
func (s *Signature) UnmarshalText(text []byte) error {
	t, err := parseSignature(string(text))
	if err != nil {
		return err
	}
	*s = t
	return nil
}

// MustParseSignature reads a signature written in the program (a test's
// expectation): it panics on a malformed one, as regexp.MustCompile does.
// Text read from a file or a report goes through UnmarshalText.
func MustParseSignature(text string) Signature {
	s, err := parseSignature(text)
	if err != nil {
		panic(err)
	}
	return s
}

// Equal reports whether s and t name the same bug.
func (s Signature) Equal(t Signature) bool {
	return s.Kind == t.Kind && s.Cause == t.Cause && slices.Equal(s.Deviants, t.Deviants)
}

// Bucket is the root cause s names, without the implementations: a run
// keeps one bucket per root cause, and names in it every implementation
// that showed it (see Covers).
func (s Signature) Bucket() string { return string(s.Kind) + partSep + s.Cause }

// SameCause reports whether s and t are one root cause in the same
// implementations, whatever sign it showed by: one kind and cause, or a
// collision and a deviation of a kind a collision takes its cause from
// (collisionSign) with that cause. A collision is named by the deviation
// where the implementation merged the two calls (see CollisionSignature),
// so "collision: a `"` in a key left unescaped" and "key_escape: a `"` in
// a key left unescaped" of one implementation are one bug seen twice: as a
// wrong text, and as the two calls it makes one.
func (s Signature) SameCause(t Signature) bool {
	if s.Cause != t.Cause || !slices.Equal(s.Deviants, t.Deviants) {
		return false
	}
	switch {
	case s.Kind == t.Kind:
		return true
	case s.Cause == OverflowCause: // many causes, one per kind
		return false
	case s.Kind == KindCollision:
		return collisionSign(t.Kind)
	case t.Kind == KindCollision:
		return collisionSign(s.Kind)
	}
	return false
}

// collisionSign reports whether a deviation of kind k can name a
// collision: a collision's implementation wrote a text for both calls, so
// its deviation is a wrong text or an input it should have rejected, never
// a failure, a hang or another error code.
func collisionSign(k Kind) bool {
	switch k {
	case KindRejection, KindDigest, KindNumber, KindString, KindKeyEscape, KindKeyOrder, KindStructure:
		return true
	}
	return false
}

// OverflowCause is the cause of a run's overflow buckets: past its bucket
// limit (run's -max-buckets), a finding of a new root cause is counted in
// the one overflow bucket of its kind, so that a cause that differs with
// every input (an SDK's message naming the input in words) cannot grow
// the run's memory, its disk and its report without bound.
const OverflowCause = "a new cause past the run's bucket limit"

// Overflow is the signature of s's overflow bucket: its kind and
// implementations, OverflowCause for its cause.
func (s Signature) Overflow() Signature {
	return Signature{Kind: s.Kind, Cause: OverflowCause, Deviants: slices.Clone(s.Deviants)}
}

// Covers reports whether s names t's root cause in every implementation t
// names, and perhaps more: a case that shows the cause in fewer of them
// (another bug of one came first) still belongs to the bucket.
func (s Signature) Covers(t Signature) bool {
	if s.Kind != t.Kind || s.Cause != t.Cause {
		return false
	}
	for _, n := range t.Deviants {
		if !s.Deviates(n) {
			return false
		}
	}
	return true
}

// Keeps reports whether s still shows t's root cause, for a minimizer:
// Covers, except that a key order is one whatever order its example fits.
// An example of two orders at once (a JavaScript object's integer-like
// keys first, its other keys by UTF-16 units) fits neither alone and is
// "keys out of order"; shrunk keeping that, it stays an example of two
// causes, and shrunk keeping any order it becomes one of either, which
// the implementation's profile of key orders then names (package probe).
// A failure keeps its cause too where it shows it on valid input, its
// trigger gone (lostTrigger).
func (s Signature) Keeps(t Signature) bool {
	if s.Kind == KindKeyOrder && t.Kind == KindKeyOrder || s.lostTrigger(t) {
		u := s
		u.Cause = t.Cause
		return u.Covers(t)
	}
	return s.Covers(t)
}

// Merge is s naming the implementations of t too; both name one cause.
func (s Signature) Merge(t Signature) Signature {
	names := slices.Clone(s.Deviants)
	for _, n := range t.Deviants {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return Signature{Kind: s.Kind, Cause: s.Cause, Deviants: names}
}

// Deviates reports whether adapter name is among the deviants.
func (s Signature) Deviates(name string) bool { return slices.Contains(s.Deviants, name) }

// ErrOldSignature marks a signature in the form of difffuzz before causes,
// "KIND: A B", which names no cause and cannot be matched to a bug now.
var ErrOldSignature = errors.New(`signature in the old form "KIND: ADAPTER..." without a cause; ` +
	`rewrite the list with -update-known (difffuzz run -known FILE -update-known), then give every entry its reason again`)

// parseSignature reads a signature's text form: the one reader of it,
// which UnmarshalText calls.
func parseSignature(text string) (Signature, error) {
	kind, rest, ok := strings.Cut(text, partSep)
	if !ok || kind == "" {
		return Signature{}, fmt.Errorf("signature %q: want \"KIND: CAUSE: ADAPTER, ...\"", text)
	}
	i := strings.LastIndex(rest, partSep)
	if i < 0 {
		return Signature{}, fmt.Errorf("signature %q: %w", text, ErrOldSignature)
	}
	s := Signature{Kind: Kind(kind), Cause: rest[:i]}
	for _, n := range strings.Split(rest[i+len(partSep):], deviantSep) {
		if n = strings.TrimSpace(n); n != "" {
			s.Deviants = append(s.Deviants, n)
		}
	}
	if s.Cause == "" || len(s.Deviants) == 0 {
		return Signature{}, fmt.Errorf("signature %q: want \"KIND: CAUSE: ADAPTER, ...\"", text)
	}
	slices.Sort(s.Deviants)
	return s, nil
}

// signatureSep joins the signatures of one finding in their text form.
const signatureSep = "; "

// Signatures are the signatures one finding shows, in the order the
// comparison found them: a corpus entry holds them, and its file holds
// their text form, "KIND: CAUSE: A; KIND: CAUSE: B".
type Signatures []Signature

// String is the text form of ss, each signature's String joined by "; ";
// none is "".
func (ss Signatures) String() string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = s.String()
	}
	return strings.Join(parts, signatureSep)
}

// MarshalText is ss's text form (String), so that a corpus file holds the
// line a person reads.
func (ss Signatures) MarshalText() ([]byte, error) { return []byte(ss.String()), nil }

// UnmarshalText reads the text form MarshalText wrote; "" is none. A
// signature of difffuzz before causes is an error that wraps
// ErrOldSignature.
func (ss *Signatures) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*ss = nil
		return nil
	}
	var out Signatures
	for _, part := range strings.Split(string(text), signatureSep) {
		s, err := parseSignature(part)
		if err != nil {
			return err
		}
		out = append(out, s)
	}
	*ss = out
	return nil
}
