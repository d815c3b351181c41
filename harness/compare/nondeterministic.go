package compare

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// KindNondeterministic is one implementation giving one input two outputs:
// asked the same call twice (a re-ask with text, a resend, a minimization
// step, a replay), it answered otherwise the second time. An exactly-once
// system names a call by the digest of its canonical text, so such an
// implementation signs one call two ways and runs it twice: as severe as a
// collision, and like a collision no symptom of its own in one answer. It
// is judged against the implementation's own earlier answer, never
// against the reference, so the reference can show it too (see
// Nondeterministic).
const KindNondeterministic Kind = "nondeterministic"

// NondeterministicCause is the one cause of KindNondeterministic: what two
// answers differ in says nothing of why (a cache, a counter, a reused
// buffer or a per-process seed each show as any symptom at all), so the
// bucket is one per implementation, never one per symptom.
const NondeterministicCause = "gives one input two digests"

// Nondeterministic reports whether before and after, one adapter's answers
// to one input asked twice, are two answers: both are answers (a text or
// an error code) and they differ, by digest, by error code, or a text
// against an error. A crash, a hang or an inexpressible case on either side
// is none: a worker can die or be slow on a loaded machine, and a native
// model's refusal says nothing of its output. Texts are compared by digest,
// the name a call gets; a digest that is not BLAKE3 of its text is a
// digest finding of its own.
func Nondeterministic(before, after Outcome) bool {
	if !answered(before) || !answered(after) {
		return false
	}
	return before.Error != after.Error || !bytes.Equal(before.Digest, after.Digest)
}

// answered reports whether o is an answer to compare with another: a text
// with its digest, or an error code.
func answered(o Outcome) bool {
	return !o.Absent() && o.Failure == "" && (o.Error != "" || o.Digest != nil)
}

// NondeterministicSignature is the signature of adapter name giving one
// input two answers. The reference is named like any other: it is the
// truth other implementations are judged by on each case, but two answers
// of its own to one call are a bug in the reference itself, which no other
// implementation can show.
func NondeterministicSignature(name string) Signature {
	return Signature{Kind: KindNondeterministic, Cause: NondeterministicCause, Deviants: []string{name}}
}

// RenderNondeterministic shows for people adapter name's two answers to
// one input, the earlier first, and what they were asked by (how: "a
// re-ask with text", "a resend").
func RenderNondeterministic(name, how string, before, after Outcome) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "  first  %-10s %s\n", name, Visible(clip.String(describeAnswer(before), 400)))
	fmt.Fprintf(&sb, "  again  %-10s %s\n", name, Visible(clip.String(describeAnswer(after), 400)))
	fmt.Fprintf(&sb, "  %s gives one input two answers (asked again by %s): one call signed two ways\n", name, how)
	return sb.String()
}

// describeAnswer is Describe with the digest, which is all a digest-only
// answer has.
func describeAnswer(o Outcome) string {
	if o.Error == "" && o.Digest != nil {
		d := hex.EncodeToString(o.Digest)
		if o.Canonical == nil {
			return "digest " + d + " (no text)"
		}
		return Describe(o) + "  digest " + d
	}
	return Describe(o)
}
