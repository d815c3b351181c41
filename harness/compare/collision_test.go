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

func TestCollisionSignature(t *testing.T) {
	first := []Signature{{Kind: KindString, Cause: "U+007F written raw (want \\u007f)", Deviants: []string{"m"}}}
	other := []Signature{{Kind: KindRejection, Cause: "accepts out-of-domain input (want lone_surrogate)", Deviants: []string{"m"}}}
	rej := Outcome{Error: "lone_surrogate"}
	wrongX := []Signature{{Kind: KindStructure, Cause: "the byte 0x78 where want an object", Deviants: []string{"m"}}}
	tests := []struct {
		name          string
		ra, rb        Outcome
		first, second []Signature
		want          string
	}{
		// The place the reference's texts differ, whatever else m got wrong.
		{"where the reference texts differ", out(`{"a\":1,\"b":2}`), out(`{"a":1,"b":2}`), first, nil, "collision: a `\"` in a key left unescaped: m"},
		{"a rejection: the first deviation", out(`"\ufffd"`), rej, nil, other, `collision: accepts out-of-domain input (want lone_surrogate): m`},
		{"a rejection: the first case's", rej, out(`"\ufffd"`), other, first, `collision: accepts out-of-domain input (want lone_surrogate): m`},
		{"neither deviates", rej, out(`"x"`), nil, nil, ""},
		// One wrong text for every object: its cause, not where the two differ.
		{"one structural cause on both", out(`{"a":1}`), out(`{"b":2}`), wrongX, wrongX, "collision: the byte 0x78 where want an object: m"},
		{"two causes: where they differ", out(`{"a":1}`), out(`{"b":2}`), wrongX, first, "collision: printable ASCII in a key written as printable ASCII: m"},
		{"one escaping cause on both: where they differ", out(`{"a\u007f":1}`), out(`{"b\u007f":1}`), first, first, "collision: printable ASCII in a key written as printable ASCII: m"},
	}
	for _, tt := range tests {
		s, ok := CollisionSignature("m", tt.ra, tt.rb, tt.first, tt.second)
		if got := s.String(); ok != (tt.want != "") || ok && got != tt.want {
			t.Errorf("%s: %q (%v), want %q", tt.name, got, ok, tt.want)
		}
	}
}
