package compare

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"lukechampine.com/blake3"
)

func out(s string) Outcome {
	d := blake3.Sum256([]byte(s))
	return Outcome{Canonical: []byte(s), Digest: d[:]}
}

func TestCompare(t *testing.T) {
	good := `{"args":{"a":1e+21,"b":"\u00e9"},"tool_name":"t"}`
	lying := out(good)
	lying.Digest = make([]byte, 32)
	tests := []struct {
		name string
		outs []Outcome
		sig  string // "" for agreement
	}{
		{"agree", []Outcome{out(good), out(good), out(good)}, ""},
		{"same error agrees", []Outcome{{Error: "too_deep"}, {Error: "too_deep"}, {Error: "too_deep"}}, ""},
		{"number", []Outcome{out(good), out(good), out(`{"args":{"a":1000000000000000000000,"b":"\u00e9"},"tool_name":"t"}`)}, "number: a number of 1e21 or more printed in full (want exponent form): c"},
		{"string escape", []Outcome{out(good), out(`{"args":{"a":1e+21,"b":"é"},"tool_name":"t"}`), out(good)}, `string_escape: non-ASCII written raw (want \uXXXX): b`},
		{"key order", []Outcome{out(`{"args":{"\uff61":1,"\ud83d\ude00":2},"tool_name":"t"}`), out(`{"args":{"\ud83d\ude00":2,"\uff61":1},"tool_name":"t"}`), out(`{"args":{"\uff61":1,"\ud83d\ude00":2},"tool_name":"t"}`)}, "key_order: keys in UTF-16 order: b"},
		{"key order, prefix key", []Outcome{out(`{"a":1,"ab":2}`), out(`{"ab":2,"a":1}`), out(`{"a":1,"ab":2}`)}, "key_order: keys in reverse order: b"},
		{"negative zero", []Outcome{out(`{"x":0}`), out(`{"x":-0}`), out(`{"x":0}`)}, "number: -0 written with its sign (want 0): b"},
		{"digest only", []Outcome{out(good), lying, out(good)}, "digest: digest is not BLAKE3 of its own text: b"},
		{"rejection", []Outcome{{Error: "lone_surrogate"}, out(good), {Error: "lone_surrogate"}}, "rejection: accepts out-of-domain input (want lone_surrogate): b"},
		{"error code", []Outcome{{Error: "duplicate_key"}, {Error: "lone_surrogate"}, {Error: "duplicate_key"}}, "error_code: lone_surrogate where want duplicate_key: b"},
		{"crash", []Outcome{out(good), {Failure: FailCrash, Detail: "worker exited: signal: segmentation fault"}, out(good)}, "crash: worker exited: signal: segmentation fault on valid input: b"},
		{"hang", []Outcome{out(good), out(good), {Failure: FailHang, Detail: "no answer in 12s"}}, "hang: no answer in Ns on valid input: c"},
		{"internal", []Outcome{out(good), {Error: "internal", Detail: "RecursionError: maximum recursion depth exceeded"}, out(good)}, "internal: RecursionError: maximum recursion depth exceeded on valid input: b"},
		{"three groups", []Outcome{out(`[1]`), out(`[2]`), out(`[3]`)}, "number: an integer with other digits: b, c"}, // one cause, two outputs,
		{"structure", []Outcome{out(`[true]`), out(`[null]`), out(`[true]`)}, "structure: null where want a boolean: b"},
		// The reference is the truth, however many disagree with it.
		{"reference alone", []Outcome{out(`[1.5]`), out(`[1.50]`), out(`[1.50]`)}, "number: not the shortest digits that round-trip: b, c"},
	}
	c := New([]string{"a", "b", "c"})
	for _, tt := range tests {
		v := c.Compare(tt.outs)
		if got := c.Signatures(v).String(); got != tt.sig {
			t.Errorf("%s: signature %q, want %q", tt.name, got, tt.sig)
		}
		if v.Agree != (tt.sig == "") {
			t.Errorf("%s: agree = %v", tt.name, v.Agree)
		}
	}
}

// textless is out(s) as a digest-only answer gives it.
func textless(s string) Outcome {
	o := out(s)
	o.Canonical = nil
	return o
}

func TestDigestOnlyOutcomes(t *testing.T) {
	a, b := `{"args":{},"tool_name":"a"}`, `{"args":{},"tool_name":"b"}`
	tests := []struct {
		name    string
		outs    []Outcome
		settled bool
		agree   bool
	}{
		{"equal digests agree", []Outcome{textless(a), textless(a), textless(a)}, true, true},
		{"text and digest alike", []Outcome{out(a), textless(a), textless(a)}, true, true},
		{"same error", []Outcome{{Error: "too_deep"}, {Error: "too_deep"}}, true, true},
		{"digests differ", []Outcome{textless(a), textless(b), textless(a)}, false, false},
		{"digest against error", []Outcome{textless(a), {Error: "too_deep"}}, false, false},
		{"digest against crash", []Outcome{textless(a), {Failure: FailCrash}}, false, false},
		{"all with text", []Outcome{out(a), out(b)}, true, false},
	}
	c := New([]string{"a", "b", "c"})
	for _, tt := range tests {
		if got := Settled(tt.outs); got != tt.settled {
			t.Errorf("%s: Settled = %v, want %v", tt.name, got, tt.settled)
		}
		if v := c.Compare(tt.outs); v.Agree != tt.agree {
			t.Errorf("%s: Agree = %v, want %v", tt.name, v.Agree, tt.agree)
		}
	}
}

func TestRenderPointsAtFirstDifference(t *testing.T) {
	c := New([]string{"python", "ts"})
	outs := []Outcome{out(`{"args":{"a":1e+21},"tool_name":"t"}`), out(`{"args":{"a":1000000000000000000000},"tool_name":"t"}`)}
	v := c.Compare(outs)
	r := c.Render(v, outs)
	for _, want := range []string{"first difference at byte 14", `{"args":{"a":1>>>e+21`, `{"args":{"a":1>>>000`, "ts vs python: number", "diff (-python +ts)"} {
		if !contains(r, want) {
			t.Errorf("render lacks %q:\n%s", want, r)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func BenchmarkCompareAgreeDigests(b *testing.B) {
	c := New([]string{"python", "go", "ts", "rust"})
	s := `{"args":{"a":[1,2,3,"x",{"b":null}],"c":1.5e-7},"tool_name":"some_tool"}`
	outs := []Outcome{textless(s), textless(s), textless(s), textless(s)}
	b.ReportAllocs()
	for b.Loop() {
		c.Compare(outs)
	}
}

func BenchmarkCompareAgree(b *testing.B) {
	c := New([]string{"python", "go", "ts", "rust"})
	s := `{"args":{"a":[1,2,3,"x",{"b":null}],"c":1.5e-7},"tool_name":"some_tool"}`
	outs := []Outcome{out(s), out(s), out(s), out(s)}
	b.ReportAllocs()
	for b.Loop() {
		c.Compare(outs)
	}
}

// A signature's text form reads back as the same signature, a cause may
// hold ": ", and a text that is not one is an error; the old form without
// a cause says how to update.
func TestSignatureRoundTrip(t *testing.T) {
	for _, text := range []string{
		"key_order: keys in UTF-16 order: ts",
		"number: a number of 1e21 or more printed in full (want exponent form): rust, ts",
		"internal: RecursionError: maximum recursion depth exceeded: go-worker",
	} {
		var s Signature
		err := s.UnmarshalText([]byte(text))
		if back, _ := s.MarshalText(); err != nil || string(back) != text {
			t.Errorf("UnmarshalText(%q) = %v, %v", text, s, err)
		}
	}
	if s := MustParseSignature("number: x: ts, rust"); s.String() != "number: x: rust, ts" {
		t.Errorf("deviants not sorted: %v", s)
	}
	for _, bad := range []string{"", "number", "number: ", ": ts", "number: : ts", "number: x: "} {
		var s Signature
		if err := s.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) accepted", bad)
		}
	}
	var old Signature
	if err := old.UnmarshalText([]byte("key_order: rust ts")); !errors.Is(err, ErrOldSignature) {
		t.Errorf("old form: %v, want ErrOldSignature", err)
	}
}

// A finding's signatures read back from their text form, none from "",
// and one old or malformed signature among them is an error.
func TestSignaturesText(t *testing.T) {
	for _, tt := range []struct {
		text string
		want Signatures
		err  error // nil: any error is wrong; errAny: some error is right
	}{
		{text: "", want: nil},
		{text: "number: x: ts", want: Signatures{{Kind: KindNumber, Cause: "x", Deviants: []string{"ts"}}}},
		{text: "number: x: ts; key_order: y: go, rust", want: Signatures{
			{Kind: KindNumber, Cause: "x", Deviants: []string{"ts"}},
			{Kind: KindKeyOrder, Cause: "y", Deviants: []string{"go", "rust"}}}},
		{text: "number: x: ts; key_order: go rust", err: ErrOldSignature},
		{text: "number: x: ts; ", err: errAny},
	} {
		var got Signatures
		err := got.UnmarshalText([]byte(tt.text))
		switch {
		case tt.err == nil && err != nil, tt.err != nil && err == nil,
			tt.err != nil && tt.err != errAny && !errors.Is(err, tt.err):
			t.Errorf("UnmarshalText(%q): error %v, want %v", tt.text, err, tt.err)
			continue
		case err != nil:
			continue
		}
		if len(got) != len(tt.want) || (len(got) > 0 && !slices.EqualFunc(got, tt.want, Signature.Equal)) {
			t.Errorf("UnmarshalText(%q) = %v, want %v", tt.text, got, tt.want)
		}
		if back, _ := got.MarshalText(); string(back) != tt.text {
			t.Errorf("MarshalText(UnmarshalText(%q)) = %q", tt.text, back)
		}
	}
}

// errAny stands for "some error" in a table of wanted errors.
var errAny = errors.New("any error")

// When every other implementation agrees against the reference, the
// verdict still names them, and the rendering says so as a hint.
func TestUnanimousHint(t *testing.T) {
	c := New([]string{"ref", "b", "c"})
	outs := []Outcome{out(`[1.5]`), out(`[1.50]`), out(`[1.50]`)}
	v := c.Compare(outs)
	if !v.Unanimous() {
		t.Fatal("not unanimous")
	}
	if r := c.Render(v, outs); !strings.Contains(r, "hint: every implementation but the reference, ref, agrees on this;") {
		t.Errorf("render lacks the hint:\n%s", r)
	}
	// The built-in reference's name is the word itself, said once.
	builtin := New([]string{"reference", "b", "c"})
	if r := builtin.Render(builtin.Compare(outs), outs); !strings.Contains(r, "hint: every implementation but the reference agrees on this;") {
		t.Errorf("render with the built-in reference lacks the hint:\n%s", r)
	}
	if v := c.Compare([]Outcome{out(`[1.5]`), out(`[1.50]`), out(`[1.5]`)}); v.Unanimous() {
		t.Error("unanimous with one deviant")
	}
}

// Texts shown at the terminal keep their line: control and invisible
// characters are written as ⟨U+XXXX⟩.
func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"plain é":       "plain é",
		"a\x7fb\u2028":  "a⟨U+007F⟩b⟨U+2028⟩",
		"line\nbreak":   "line⟨U+000A⟩break",
		"stray\xffbyte": "stray⟨0xFF⟩byte",
		"real \ufffd":   "real ⟨U+FFFD⟩",
		"bom\ufeff":     "bom⟨U+FEFF⟩",
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}

// A bucket is a root cause: a case that shows it in fewer implementations
// (another bug of one came first) is covered by it, another cause is not.
func TestBucketCovers(t *testing.T) {
	both := MustParseSignature("string_escape: U+007F written raw (want \\u007f): a, c")
	one := MustParseSignature("string_escape: U+007F written raw (want \\u007f): c")
	other := MustParseSignature("string_escape: non-ASCII written raw (want \\uXXXX): c")
	if !both.Covers(one) || one.Covers(both) || both.Covers(other) || both.Bucket() != one.Bucket() {
		t.Errorf("Covers: %v %v %v", both.Covers(one), one.Covers(both), both.Covers(other))
	}
	if m := one.Merge(both); !m.Equal(both) {
		t.Errorf("Merge = %v, want %v", m, both)
	}
}

// SignatureOf names a minimized example by the cause it shows once small:
// a large case's first cause was another bug's.
func TestSignatureOf(t *testing.T) {
	names := []string{"ref", "x", "y"}
	large := []Outcome{out(`{"a":1.5,"b":"\u00e9"}`), out(`{"a":1.50,"b":"é"}`), out(`{"a":1.5,"b":"é"}`)}
	small := []Outcome{out(`"\u00e9"`), out(`"é"`), out(`"é"`)}
	if got := SignatureOf(names, large).String(); got != "number: not the shortest digits that round-trip: x; string_escape: non-ASCII written raw (want \\uXXXX): y" {
		t.Errorf("large: %q", got)
	}
	if got := SignatureOf(names, small).String(); got != `string_escape: non-ASCII written raw (want \uXXXX): x, y` {
		t.Errorf("small: %q", got)
	}
	if got := SignatureOf(names, []Outcome{out(`1`), out(`1`), out(`1`)}); got != nil {
		t.Errorf("agreement: %v", got)
	}
}

// A worker's error code is not checked on arrival: one that holds a
// signature's separators or a line break still makes a signature that
// reads back.
func TestStrayErrorCode(t *testing.T) {
	c := New([]string{"ref", "w"})
	for _, outs := range [][]Outcome{
		{{Error: "too_deep"}, {Error: "bad; code\nhere # x"}},
		{out(`1`), {Error: "bad; code\nhere # x"}},
	} {
		for _, s := range c.Signatures(c.Compare(outs)) {
			text, _ := Signatures{s}.MarshalText()
			var back Signatures
			err := back.UnmarshalText(text)
			if err != nil || len(back) != 1 || !back[0].Equal(s) || strings.ContainsAny(s.Cause, "\n") {
				t.Errorf("%q: read back as %v, %v", s, back, err)
			}
		}
	}
}
