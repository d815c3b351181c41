package zoo

import (
	"testing"

	"github.com/difffuzz/difffuzz/harness/gen"
)

// Each collision mutant gives two inputs that Go writes apart one text,
// and the generator's twins hold such a pair within 20,000 cases.
func TestCollisionMutantsCollide(t *testing.T) {
	g := gen.New(gen.Config{Seed: 1})
	for name := range collisionNames {
		m, ok := Lookup(name)
		if !ok {
			t.Fatalf("%s: not in the zoo", name)
		}
		fn := m.Func()
		found := false
		for i := uint64(0); i < 20000 && !found; i += 2 {
			a, _ := g.Case(i)
			b, _ := g.Case(i + 1)
			ma, mb := outcome(fn, a), outcome(fn, b)
			found = ma == mb && ma[:min(len(ma), 6)] != "error " && golden(a) != golden(b)
		}
		if !found {
			t.Errorf("%s: no generated pair collides", name)
		}
	}
}

// The partial NFC composes the twins' decomposed letters and keeps the rest.
func TestCompose(t *testing.T) {
	for in, want := range map[string]string{"e\u0301": "\u00e9", "xA\u030ay": "x\u00c5y", "\u0301e": "\u0301e", "q\u0301": "q\u0301", "\xed\xa0\x80": "\xed\xa0\x80"} {
		if got := compose(in); got != want {
			t.Errorf("compose(%q) = %q, want %q", in, got, want)
		}
	}
}
