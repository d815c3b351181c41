package minimize

import (
	"context"
	"strings"
	"testing"

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

// dropX is a fake implementation with a collision bug: it drops every x
// from strings and keys, so two values that differ only in their x's get
// one text.
func dropX(v any) any {
	switch x := v.(type) {
	case string:
		return strings.ReplaceAll(x, "x", "")
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = dropX(e)
		}
		return c
	case value.Object:
		c := make(value.Object, len(x))
		for i, m := range x {
			c[i] = value.Member{Key: dropX(m.Key).(string), Value: dropX(m.Value)}
		}
		return c
	}
	return v
}

// collidesDropX: the reference tells the two apart, dropX does not.
func collidesDropX(_ context.Context, pairs [][2]any) ([]bool, error) {
	res := make([]bool, len(pairs))
	for i, p := range pairs {
		res[i] = !value.Equal(p[0], p[1]) && value.Equal(dropX(p[0]), dropX(p[1]))
	}
	return res, nil
}

// A collision of twins deep in a large value shrinks to the two smallest
// inputs that still collide, and each pass's counts add up: the bytes the
// passes removed are the bytes the pair lost.
func TestMinimizePair(t *testing.T) {
	parse := func(s string) any {
		v, err := value.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct{ name, a, b, wantA, wantB string }{
		{"twins in a large object",
			`{"tool_name":"search","args":{"query":"abcxdef","limit":10,"filters":["news","blogs",{"lang":"en"}]}}`,
			`{"tool_name":"search","args":{"query":"abcdef","limit":10,"filters":["news","blogs",{"lang":"en"}]}}`,
			`"x"`, `""`},
		{"apart in two places", `["x",{"kx":[1,2,3]}]`, `["",{"k":[1,2,3]}]`, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := parse(tc.a), parse(tc.b)
			ga, gb, st, err := MinimizePair(context.Background(), a, b, collidesDropX, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(value.AppendText(nil, ga)) + " " + string(value.AppendText(nil, gb)); tc.wantA != "" && got != tc.wantA+" "+tc.wantB {
				t.Errorf("minimized to %s, want %s %s (passes %+v)", got, tc.wantA, tc.wantB, st.Passes)
			}
			if !st.Minimal {
				t.Errorf("not minimal: %+v", st)
			}
			removed := 0
			for i, p := range st.Passes {
				if p.Name != pairPassNames[i] || p.Hits > p.Tried || (p.Shrinks == 0) != (p.Removed == 0) {
					t.Errorf("pass %d: %+v", i, p)
				}
				removed += p.Removed
			}
			if ok, _ := collidesDropX(context.Background(), [][2]any{{ga, gb}}); !ok[0] {
				t.Errorf("the minimized pair does not collide")
			}
			before := len(value.AppendText(nil, a)) + len(value.AppendText(nil, b))
			after := len(value.AppendText(nil, ga)) + len(value.AppendText(nil, gb))
			if after >= before {
				t.Errorf("the pair did not shrink: %d bytes, then %d", before, after)
			}
			if removed != before-after {
				t.Errorf("the passes removed %d bytes, the pair lost %d: %+v", removed, before-after, st.Passes)
			}
		})
	}
}

// A pair that no longer collides is not minimized.
func TestMinimizePairNotReproducible(t *testing.T) {
	_, _, _, err := MinimizePair(context.Background(), "a", "b", collidesDropX, Options{})
	if err != ErrNotReproducible {
		t.Errorf("err = %v, want ErrNotReproducible", err)
	}
}
