package panel

import (
	"testing"

	"lukechampine.com/blake3"

	"github.com/difffuzz/difffuzz/harness/compare"
)

// A minimized input is labelled by the signature it shows for the cause it
// was kept for: that cause's implementations on it, fewer or more than the
// bucket named; none when it no longer shows the cause.
func TestMinimizedLabel(t *testing.T) {
	kept := compare.Signature{Kind: compare.KindKeyOrder, Cause: "keys in UTF-16 order", Deviants: []string{"a", "b"}}
	m := &Minimized{Signatures: []compare.Signature{
		{Kind: compare.KindNumber, Cause: "-0 written with its sign (want 0)", Deviants: []string{"b"}},
		{Kind: compare.KindKeyOrder, Cause: "keys in UTF-16 order", Deviants: []string{"a", "c"}},
	}}
	if got, ok := m.Label(kept); !ok || got.String() != "key_order: keys in UTF-16 order: a, c" {
		t.Errorf("Label = %s, %v", got, ok)
	}
	// An example of two key orders shrunk to one: the order it shows.
	mixed := compare.Signature{Kind: compare.KindKeyOrder, Cause: "keys out of order", Deviants: []string{"a"}}
	if got, ok := m.Label(mixed); !ok || got.String() != "key_order: keys in UTF-16 order: a, c" {
		t.Errorf("Label(%s) = %s, %v", mixed, got, ok)
	}
	m.Signatures = m.Signatures[:1]
	if _, ok := m.Label(kept); ok {
		t.Errorf("a minimized input that no longer shows the cause has a label")
	}
}

// A pair is shrunk as a collision of the cause it was found with: a pair
// of an SDK that keeps the last of a repeated key, shrunk into one of its
// missing envelope check, would name the first bug's bucket by the second.
func TestCollidesAsKeepsCause(t *testing.T) {
	names := []string{"go", "sdk"}
	l := &Panel{names: names}
	c := compare.New(names)
	judged := func(ref, sdk compare.Outcome) Judged {
		outs := []compare.Outcome{ref, sdk}
		v := c.Compare(outs)
		return Judged{Outs: outs, Verdict: v, Signatures: c.Signatures(v), Answered: true}
	}
	text := func(s string) compare.Outcome {
		d := blake3.Sum256([]byte(s))
		return compare.Outcome{Canonical: []byte(s), Digest: d[:]}
	}
	call := text(`{"args":{},"tool_name":"b"}`)
	valid := judged(call, call)
	repeated := judged(compare.Outcome{Error: "duplicate_key"}, call) // {"tool_name":"b","args":0,"args":{}}
	extra := judged(compare.Outcome{Error: "bad_envelope"}, call)     // {"tool_name":"b","args":{},"":0}
	apart := judged(compare.Outcome{Error: "bad_envelope"}, text(`{"args":{},"tool_name":"c"}`))
	const lastKey, envelope = "collision: accepts out-of-domain input (want duplicate_key)", "collision: accepts out-of-domain input (want bad_envelope)"
	for _, tt := range []struct {
		name   string
		bucket string
		a, b   Judged
		want   bool
	}{
		{"the cause it was found with", lastKey, valid, repeated, true},
		{"another cause", lastKey, valid, extra, false},
		{"that other cause's own pair", envelope, valid, extra, true},
		{"no collision", envelope, valid, apart, false},
	} {
		if got := l.collidesAs(1, tt.bucket, tt.a, tt.b); got != tt.want {
			t.Errorf("%s: collidesAs(%s) = %v, want %v", tt.name, tt.bucket, got, tt.want)
		}
	}
}
