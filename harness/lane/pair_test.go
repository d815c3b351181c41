package lane

import (
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/value"
)

// hole splits a pair at its one difference, and grafting each side's part
// back gives each input again.
func TestHole(t *testing.T) {
	obj := func(text string) any {
		v, err := value.Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		name, a, b string
		top        bool // they differ at the top: nothing shared
		a0, b0     string
	}{
		{"a string's middle", `{"t":"","args":{"k":"z\ufffd192"}}`, `{"t":"","args":{"k":"z\udb98192"}}`, false, `"\ufffd"`, `"\udb98"`},
		{"a key's middle", `{"args":{"kts_\u00c5ef":8}}`, `{"args":{"kts_A\u030aef":8}}`, false, `"\u00c5"`, `"A\u030a"`},
		{"a member's value", `{"args":{"k":{"x\":1,\"y":2},"n":[1]}}`, `{"args":{"k":{"x":1,"y":2},"n":[1]}}`, false, `{"x\":1,\"y":2}`, `{"x":1,"y":2}`},
		{"an element", `[1,9007199254740992]`, `[1,9007199254740993]`, false, `9007199254740992`, `9007199254740993`},
		{"two places", `[1,2]`, `[3,4]`, true, `[1,2]`, `[3,4]`},
		{"a prefix", `"ab"`, `"a"`, false, `"b"`, `""`},
	}
	for _, tt := range tests {
		a, b := obj(tt.a), obj(tt.b)
		h := hole(a, b)
		if isHole(h.shared) != tt.top {
			t.Errorf("%s: shared %s", tt.name, value.AppendText(nil, h.shared))
		}
		if !value.Equal(h.a, obj(tt.a0)) || !value.Equal(h.b, obj(tt.b0)) {
			t.Errorf("%s: parts %s and %s", tt.name, value.AppendText(nil, h.a), value.AppendText(nil, h.b))
		}
		ga, na := h.graft(h.shared, h.a)
		gb, nb := h.graft(h.shared, h.b)
		if na != 1 || nb != 1 || !value.Equal(ga, a) || !value.Equal(gb, b) {
			t.Errorf("%s: grafted back %s (%d) and %s (%d)", tt.name, value.AppendText(nil, ga), na, value.AppendText(nil, gb), nb)
		}
	}
}

// The renames a pair of key twins offers: their words and integers, the
// longest first, each into a letter neither holds.
func TestTokenRenames(t *testing.T) {
	a := value.Object{{Key: `h5sqf":"151kg","n_h5sqf`, Value: int64(-4294967298)}}
	b := value.Object{{Key: "h5sqf", Value: "151kg"}, {Key: "n_h5sqf", Value: int64(-4294967298)}}
	var got []string
	for _, r := range tokenRenames(a, b) {
		if r.word != "" {
			got = append(got, r.word+">"+r.to)
		} else {
			got = append(got, string(value.AppendText(nil, r.num))+">0")
		}
	}
	want := "-4294967298>0 n_h5sqf>a 151kg>a h5sqf>a"
	if strings.Join(got, " ") != want {
		t.Errorf("renames %v, want %s", got, want)
	}
	if r := (rename{word: "h5sqf", to: "a"}); !value.Equal(r.apply(b), value.Object{{Key: "a", Value: "151kg"}, {Key: "n_a", Value: int64(-4294967298)}}) {
		t.Errorf("applied: %s", value.AppendText(nil, r.apply(b)))
	}
}

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
