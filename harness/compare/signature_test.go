package compare

import "testing"

// A collision and the deviation it is named by are one root cause in one
// implementation; a failure, another implementation or another cause is
// not.
func TestSameCause(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"collision: a `\"` in a key left unescaped: x", "key_escape: a `\"` in a key left unescaped: x", true},
		{"rejection: accepts out-of-domain input (want too_deep): x", "collision: accepts out-of-domain input (want too_deep): x", true},
		{"collision: null where want an object: x", "structure: null where want an object: x", true},
		{"collision: -0 written without its sign (want -0): x", "number: -0 written without its sign (want -0): x", true},
		{"collision: keys in UTF-16 order: x", "key_order: keys in UTF-16 order: x", true},
		{"collision: non-ASCII written raw (want \\uXXXX): x", "string_escape: non-ASCII written raw (want \\uXXXX): x", true},
		{"number: -0 written without its sign (want -0): x", "number: -0 written without its sign (want -0): x", true},
		{"collision: a member dropped: x", "collision: a member dropped: x", true},
		// Another implementation, or more of them: the plain bucket names one the collision does not.
		{"collision: a member dropped: x", "structure: a member dropped: y", false},
		{"collision: a member dropped: x", "structure: a member dropped: x, y", false},
		// Another cause.
		{"collision: a member dropped: x", "structure: null where want an object: x", false},
		// Two plain kinds of one cause text are told apart by their kind.
		{"key_escape: a `\"` in a key left unescaped: x", "string_escape: a `\"` in a key left unescaped: x", false},
		// A collision's implementation wrote both texts: it never takes its cause from a failure.
		{"collision: ValueError in dumps (canon.py): x", "internal: ValueError in dumps (canon.py): x", false},
		{"collision: no answer: x", "hang: no answer: x", false},
		{"collision: SIGSEGV: x", "crash: SIGSEGV: x", false},
		{"collision: duplicate_key where want lone_surrogate: x", "error_code: duplicate_key where want lone_surrogate: x", false},
		// The overflow buckets of two kinds hold different causes.
		{"collision: " + OverflowCause + ": x", "rejection: " + OverflowCause + ": x", false},
	}
	for _, tt := range tests {
		a, b := MustParseSignature(tt.a), MustParseSignature(tt.b)
		if got := a.SameCause(b); got != tt.want {
			t.Errorf("SameCause(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := b.SameCause(a); got != tt.want {
			t.Errorf("SameCause(%q, %q) = %v, want %v (it is symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

// A minimizer keeps a bucket's cause, and of a key order only that it is
// one: an example of two orders shrinks to one of either; a failure may
// lose its trigger.
func TestKeeps(t *testing.T) {
	for _, tt := range []struct {
		s, t string
		want bool
	}{
		{"number: a number rounded to fewer digits: a, b", "number: a number rounded to fewer digits: a", true},
		{"number: a number rounded to fewer digits: b", "number: a number rounded to fewer digits: a", false},
		{"number: a number written with another value: a", "number: a number rounded to fewer digits: a", false},
		{"key_order: keys in UTF-16 order: a", "key_order: keys out of order: a", true},
		{"key_order: integer-like keys first (JavaScript property order): a, b", "key_order: keys out of order: a", true},
		{"key_order: keys in UTF-16 order: b", "key_order: keys out of order: a", false},
		{"rejection: accepts out-of-domain input (want duplicate_key): a", "rejection: accepts out-of-domain input (want lone_surrogate): a", false},
		// A failure's trigger may go, never change: what the reference
		// rejected did not set it off when it fails on valid input too.
		{"internal: E: bad token on valid input: a", "internal: E: bad token on a lone surrogate: a", true},
		{"internal: E: bad token on valid input: a", "internal: E: bad token on input rejected with x_y: a", true},
		{"internal: E: bad token on a lone surrogate: a", "internal: E: bad token on valid input: a", false},
		// Or another code: the example held what set the failure off
		// beside what the reference rejected first (bytes beside a lone
		// surrogate key), and shrinks to it.
		{"internal: TypeError in f (x.py) on a non-string key: a", "internal: TypeError in f (x.py) on an unsupported value: a", true},
		{"internal: TypeError in f (x.py) on an unsupported value: a", "internal: TypeError in f (x.py) on a lone surrogate: a", true},
		{"internal: TypeError in f (x.py) on a lone surrogate: a", "internal: TypeError in f (x.py) on a lone surrogate: a", true},
		{"internal: TypeError in g (x.py) on an unsupported value: a", "internal: TypeError in f (x.py) on a lone surrogate: a", false},
		{"internal: E: other on valid input: a", "internal: E: bad token on a lone surrogate: a", false},
		{"crash: E: bad token on valid input: a", "internal: E: bad token on a lone surrogate: a", false},
		{"internal: E: bad token on valid input: b", "internal: E: bad token on a lone surrogate: a", false},
	} {
		if got := MustParseSignature(tt.s).Keeps(MustParseSignature(tt.t)); got != tt.want {
			t.Errorf("(%s).Keeps(%s) = %v, want %v", tt.s, tt.t, got, tt.want)
		}
	}
}
