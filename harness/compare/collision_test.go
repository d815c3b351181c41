package compare

import "testing"

// The oracle's rule: an implementation's one digest for two cases is a
// collision only where the reference tells the cases apart.
func TestCollides(t *testing.T) {
	rej := func(code string) Outcome { return Outcome{Error: code} }
	tests := []struct {
		name           string
		ra, rb, xa, xb Outcome
		want           bool
	}{
		// {"a\":1,\"b":2} against {"a":1,"b":2}, keys written unescaped.
		{"a key faking two members", out(`{"a\":1,\"b":2}`), out(`{"a":1,"b":2}`), out(`{"a":1,"b":2}`), out(`{"a":1,"b":2}`), true},
		{"the other way round", out(`{"a":1,"b":2}`), out(`{"a\":1,\"b":2}`), out(`{"a":1,"b":2}`), out(`{"a":1,"b":2}`), true},
		{"both cases deviate", out(`"\\n"`), out(`"\u00e9"`), out(`"x"`), out(`"x"`), true},
		{"given by digest alone", textless(`[1]`), textless(`[2]`), textless(`[3]`), textless(`[3]`), true},
		{"a text against a rejection", rej("lone_surrogate"), out(`"\ufffd"`), out(`"\ufffd"`), out(`"\ufffd"`), true},
		// -0 and 0 are one text by the contract: never a collision.
		{"-0 against 0", out(`{"x":0}`), out(`{"x":0}`), out(`{"x":-0}`), out(`{"x":-0}`), false},
		{"a divergence without a shared digest", out(`{"a\":1,\"b":2}`), out(`{"a":1,"b":2}`), out(`{"a":1,"b":3}`), out(`{"a":1,"b":2}`), false},
		{"agreement on both", out(`[1]`), out(`[2]`), out(`[1]`), out(`[2]`), false},
		{"two rejections", rej("lone_surrogate"), rej("duplicate_key"), out(`"x"`), out(`"x"`), false},
		{"the implementation rejects one", out(`[1]`), out(`[2]`), rej("too_deep"), out(`[2]`), false},
		{"the implementation crashes", out(`[1]`), out(`[2]`), Outcome{Failure: FailCrash}, Outcome{Failure: FailCrash}, false},
		{"the reference could not express one", Outcome{Inexpressible: "bin"}, out(`[2]`), out(`[2]`), out(`[2]`), false},
	}
	for _, tt := range tests {
		if got := Collides(tt.ra, tt.rb, tt.xa, tt.xb); got != tt.want {
			t.Errorf("%s: Collides = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// CollisionSignature names what the implementation did, judged on real
// outcomes: the reference's text of each case and the one text m wrote for
// both.
func TestCollisionSignature(t *testing.T) {
	rej := Outcome{Error: "lone_surrogate"}
	tests := []struct {
		name   string
		ra, rb Outcome
		x      Outcome // m's outcome on both cases
		want   string
	}{
		{"keys written unescaped", out(`{"a\":1,\"b":2}`), out(`{"a":1,"b":2}`), out(`{"a":1,"b":2}`), "collision: a `\"` in a key left unescaped: m"},
		{"the same, the other way round", out(`{"a":1,"b":2}`), out(`{"a\":1,\"b":2}`), out(`{"a":1,"b":2}`), "collision: a `\"` in a key left unescaped: m"},
		// m writes 0 for both: never "-0 written with its sign".
		{"-0 and 0 as 0", out(`[0]`), out(`[-0]`), out(`[0]`), "collision: -0 written without its sign (want -0): m"},
		{"-0 and 0 as 0, -0 first", out(`[-0]`), out(`[0]`), out(`[0]`), "collision: -0 written without its sign (want -0): m"},
		// m writes 0.0 for both, deviating on each: still never "with its sign".
		{"-0 and 0 as 0.0", out(`[0]`), out(`[-0]`), out(`[0.0]`), "collision: -0 written without its sign (want -0): m"},
		// m writes -0.0 for both: it does write the sign.
		{"-0 and 0 as -0.0", out(`[0]`), out(`[-0]`), out(`[-0.0]`), "collision: -0 written with its sign (want 0): m"},
		{"a text against a rejection", out(`"\ufffd"`), rej, out(`"\ufffd"`), "collision: accepts out-of-domain input (want lone_surrogate): m"},
		// m writes 0.0 for both, deviating on each: still never "with its sign".
		{"-0 and 0 as 0.0", out(`[0]`), out(`[-0]`), out(`[0.0]`), "collision: -0 written without its sign (want -0): m"},
		// m writes -0.0 for both: it does write the sign.
		{"-0 and 0 as -0.0", out(`[0]`), out(`[-0]`), out(`[-0.0]`), "collision: -0 written with its sign (want 0): m"},
		{"a rejection first", rej, out(`"\ufffd"`), out(`"\ufffd"`), "collision: accepts out-of-domain input (want lone_surrogate): m"},
		// A lone surrogate decoded as U+FFFD, which m also writes raw: the
		// acceptance merged the two calls, not the raw U+FFFD (the valid
		// case first, then the rejected one first).
		{"a lone surrogate as a raw U+FFFD", out(`"\ufffd"`), rej, out("\"\ufffd\""), "collision: accepts out-of-domain input (want lone_surrogate): m"},
		{"a lone surrogate as a raw U+FFFD, rejected first", rej, out(`"\ufffd"`), out("\"\ufffd\""), "collision: accepts out-of-domain input (want lone_surrogate): m"},
		// A catch-all's null for a valid call and for one it should refuse:
		// the one wrong shape of both, whichever comes first.
		{"a catch-all's null", out(`{"a":1}`), rej, out(`null`), "collision: null where want an object: m"},
		{"a catch-all's null, rejected first", rej, out(`{"a":1}`), out(`null`), "collision: null where want an object: m"},
		// One wrong text for every object: its cause, not where the two differ.
		{"one structural cause on both", out(`{"a":1}`), out(`{"b":2}`), out(`x`), "collision: the byte 0x78 where want an object: m"},
		// One deviation on both, where the two differ: what m did there.
		{"NaN and Infinity as null", out(`[NaN]`), out(`[Infinity]`), out(`[null]`), "collision: a non-finite number written as null: m"},
		// Another value on one, another spelling on the other: the value
		// made the two one.
		{"a value lost, a value spelled", out(`[999999999999999900000]`), out(`[1e+21]`), out(`[1000000000000000000000]`),
			"collision: an integer past 2^53 with other digits: m"},
		// A character-level deviation on both keeps the texts in line.
		{"one escaping cause on both: where they differ", out(`["\u00e9","a"]`), out(`["\u00e9","b"]`), out(`["é","c"]`),
			"collision: a character replaced by another (printable ASCII): m"},
	}
	c := New([]string{"ref", "m"})
	judge := func(ref, x Outcome) []Signature { return c.Signatures(c.Compare([]Outcome{ref, x})) }
	for _, tt := range tests {
		s, ok := CollisionSignature("m", tt.ra, tt.rb, tt.x, judge(tt.ra, tt.x), judge(tt.rb, tt.x))
		if got := s.String(); !ok || got != tt.want {
			t.Errorf("%s: %q (%v), want %q", tt.name, got, ok, tt.want)
		}
	}
	if s, ok := CollisionSignature("m", rej, out(`"x"`), out(`"x"`), nil, nil); ok {
		t.Errorf("neither deviates: %v, want none", s)
	}
}

// A minimized pair is named again from its outcomes alone.
func TestCollisionSignatureOf(t *testing.T) {
	names := []string{"ref", "go", "m"}
	a := []Outcome{out(`{"a\":1,\"b":2}`), out(`{"a\":1,\"b":2}`), out(`{"a":1,"b":2}`)}
	b := []Outcome{out(`{"a":1,"b":2}`), out(`{"a":1,"b":2}`), out(`{"a":1,"b":2}`)}
	s, ok := CollisionSignatureOf(names, 2, a, b)
	if !ok || s.String() != "collision: a `\"` in a key left unescaped: m" {
		t.Errorf("CollisionSignatureOf = %q, %v", s, ok)
	}
	if s, ok := CollisionSignatureOf(names, 1, a, b); ok {
		t.Errorf("go does not collide: %q", s)
	}
}
