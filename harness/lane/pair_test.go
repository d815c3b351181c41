package lane

import (
	"testing"

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
	m.Signatures = m.Signatures[:1]
	if _, ok := m.Label(kept); ok {
		t.Errorf("a minimized input that no longer shows the cause has a label")
	}
}
