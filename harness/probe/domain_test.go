package probe

import (
	"testing"

	"lukechampine.com/blake3"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/value"
)

// An input out of the domain twice, accepted, is named by the rule the
// implementation does not keep: the one of the two it accepts alone.
func TestRuleBroken(t *testing.T) {
	written := func() compare.Outcome {
		text := []byte(`{"args":{},"tool_name":"b"}`)
		d := blake3.Sum256(text)
		return compare.Outcome{Canonical: text, Digest: d[:]}
	}
	// profile is an implementation's that accepts alone the inputs of the
	// codes given and answers the rest as internal errors.
	profile := func(accepts ...value.Code) Profile {
		var ref, got []compare.Outcome
		for _, c := range Cases(Domain) {
			ref = append(ref, compare.Outcome{Error: c.Name})
			out := compare.Outcome{Error: "internal", Detail: "UnicodeEncodeError"}
			for _, a := range accepts {
				if c.Name == string(a) {
					out = written()
				}
			}
			got = append(got, out)
		}
		p, err := Measure(contract.Default, Domain, "sdk", ref, got)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	twice, err := value.Parse([]byte(`{"tool_name":"b","args":"\udc00","args":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	thrice, err := value.Parse([]byte(`{"tool_name":"b","args":{},"args":"\udc00"}`))
	if err != nil {
		t.Fatal(err)
	}
	lone, err := value.Parse([]byte(`{"tool_name":"","args":{"":"\udc00"}}`))
	if err != nil {
		t.Fatal(err)
	}
	sig := compare.MustParseSignature("collision: accepts out-of-domain input (want lone_surrogate): sdk")
	for _, tt := range []struct {
		name  string
		p     Profile
		input any
		want  value.Code // "" for none
	}{
		// It keeps the last of a repeated key, and rejects lone surrogates.
		{"last key wins", profile(value.CodeDuplicateKey), twice, value.CodeDuplicateKey},
		// It accepts lone surrogates: the reference's name is its own.
		{"it accepts the named one", profile(value.CodeLoneSurrogate, value.CodeDuplicateKey), twice, ""},
		// The envelope (the last args is no object) is broken too: two it
		// accepts, either of which may be why.
		{"two others", profile(value.CodeDuplicateKey, value.CodeBadEnvelope), thrice, ""},
		// The first args is no object, but the last is: the envelope is
		// the repeated key's problem.
		{"an envelope kept by the last key", profile(value.CodeDuplicateKey, value.CodeBadEnvelope), twice, value.CodeDuplicateKey},
		{"out of the domain once", profile(value.CodeDuplicateKey), lone, ""},
		{"keeps every rule", profile(), twice, ""},
	} {
		got, ok := tt.p.RuleBroken(sig, tt.input)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("%s: RuleBroken = %q, %v; want %q", tt.name, got, ok, tt.want)
		}
	}
	if _, ok := profile(value.CodeDuplicateKey).RuleBroken(compare.MustParseSignature("number: a number rounded to fewer digits: sdk"), twice); ok {
		t.Error("RuleBroken of a number's signature")
	}
}

// Each domain probe is out of the domain by its own code alone.
func TestDomainCasesBreakOneRule(t *testing.T) {
	for _, c := range Cases(Domain) {
		in := c.Input()
		if got := value.Problems(in); len(got) != 1 || string(got[0]) != c.Name {
			t.Errorf("%s probe %.80s breaks %v", c.Name, value.AppendText(nil, in), got)
		}
	}
}
