package compare

import (
	"strings"
	"testing"
)

// Two answers of one adapter to one input are two when both are answers
// and they differ by digest, by error code, or a text against an error; a
// failure or an inexpressible case on either side is none.
func TestNondeterministic(t *testing.T) {
	text := func(d byte) Outcome { return Outcome{Digest: []byte{d}} }
	withText := Outcome{Canonical: []byte("1"), Digest: []byte{1}}
	code := func(c string) Outcome { return Outcome{Error: c} }
	tests := []struct {
		name          string
		before, after Outcome
		want          bool
	}{
		{"same digest", text(1), text(1), false},
		{"same digest, one with text", text(1), withText, false},
		{"another digest", text(1), text(2), true},
		{"a text, then an error", text(1), code("duplicate_key"), true},
		{"two codes", code("duplicate_key"), code("lone_surrogate"), true},
		{"one code twice", code("internal"), code("internal"), false},
		{"a crash", text(1), Outcome{Failure: FailCrash}, false},
		{"a hang first", Outcome{Failure: FailHang}, text(1), false},
		{"inexpressible", Outcome{Inexpressible: "big_int"}, text(1), false},
		{"no answer kept", Outcome{}, text(1), false},
	}
	for _, tt := range tests {
		if got := Nondeterministic(tt.before, tt.after); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// The signature names one implementation, the reference as well, by one
// cause whatever the answers; its text reads back.
func TestNondeterministicSignature(t *testing.T) {
	s := NondeterministicSignature("python")
	if got := s.String(); got != "nondeterministic: gives one input two digests: python" {
		t.Errorf("signature %q", got)
	}
	if back := MustParseSignature(s.String()); !back.Equal(s) {
		t.Errorf("read back as %#v", back)
	}
	r := RenderNondeterministic("python", "a resend", Outcome{Digest: []byte{0xab}}, Outcome{Canonical: []byte(`{"a":1}`), Digest: []byte{0xcd}})
	for _, want := range []string{"digest ab (no text)", `{"a":1}  digest cd`, "asked again by a resend"} {
		if !strings.Contains(r, want) {
			t.Errorf("rendering lacks %q:\n%s", want, r)
		}
	}
}
