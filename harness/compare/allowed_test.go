package compare

import (
	"math/big"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/contract"
	model "github.com/difffuzz/difffuzz/value"
)

// nested is a value n levels deep.
func nested(n int) any {
	v := any([]any{})
	for range n - 1 {
		v = []any{v}
	}
	return v
}

// TestJudge checks each allowance under rfc8785, and that the default
// contract allows none of them: the same outcomes are its divergences.
func TestJudge(t *testing.T) {
	small := model.Object{{Key: "a", Value: int64(1)}}
	unsafe := model.Object{{Key: "a", Value: int64(1 << 60)}}
	bigOdd := model.Object{{Key: "a", Value: new(big.Int).SetUint64(1<<53 + 1)}}
	rounded := out(`{"a":9007199254740992}`)
	tests := []struct {
		name  string
		input any
		outs  []Outcome
		trait Trait  // under rfc8785; "" for a divergence
		sig   string // under rfc8785, when a divergence
	}{
		{"own exception on a refused case", small, []Outcome{{Error: "lone_surrogate"}, {Error: "internal", Detail: "ValueError"}}, TraitOwnErrors, ""},
		{"another code", small, []Outcome{{Error: "duplicate_key"}, {Error: "lone_surrogate"}}, TraitOtherCodes, ""},
		{"own limit past the floor", nested(200), []Outcome{out("[[]]"), {Error: "internal", Detail: "RecursionError"}}, TraitDepthLimit, ""},
		{"unsafe integer refused", unsafe, []Outcome{out(`{"a":1152921504606847000}`), {Error: "unsupported_value"}}, TraitUnsafeInts, ""},
		{"big integer as its double", bigOdd, []Outcome{{Error: "unsupported_value"}, rounded}, TraitBigInts, ""},
		{"no limit", nested(600), []Outcome{{Error: "too_deep"}, out("[[]]")}, TraitNoDepthLimit, ""},
		// Still bugs under rfc8785.
		{"a limit shallower than the floor", nested(10), []Outcome{out("[[]]"), {Error: "internal", Detail: "RecursionError"}}, "", "internal: RecursionError on valid input: b"},
		{"exception on valid input", small, []Outcome{out(`{"a":1}`), {Error: "internal", Detail: "TypeError"}}, "", "internal: TypeError on valid input: b"},
		{"crash on a refused case", small, []Outcome{{Error: "lone_surrogate"}, {Failure: FailCrash, Detail: "worker exited"}}, "", "crash: worker exited on a lone surrogate: b"},
		{"accepts out of domain", small, []Outcome{{Error: "lone_surrogate"}, out(`{"a":1}`)}, "", "rejection: accepts out-of-domain input (want lone_surrogate): b"},
		{"big integer otherwise", bigOdd, []Outcome{{Error: "unsupported_value"}, out(`{"a":9007199254740993}`)}, "", "rejection: accepts out-of-domain input (want unsupported_value): b"},
	}
	names := []string{"a", "b"}
	// The rfc8785 reference with no limit, and reading doubles, as far
	// as these cases go.
	vs := contract.RFC8785.Variants()
	noLimit := func(input any) (Outcome, bool) {
		if model.Depth(input) > 512 {
			return out("[[]]"), true
		}
		return Outcome{Error: "unsupported_value"}, true
	}
	doubles := func(any) (Outcome, bool) { return rounded, true }
	jcs := NewFor(names, contract.RFC8785)
	jcs.WithVariants([]Variant{{vs[0], noLimit}, {vs[1], doubles}})
	ours := New(names)
	for _, tt := range tests {
		v := jcs.Judge(tt.input, tt.outs)
		switch {
		case tt.trait != "" && (!v.Agree || len(v.Allowed) != 1 || v.Allowed[0].Trait != tt.trait):
			t.Errorf("%s: rfc8785 verdict %+v, want %s allowed", tt.name, v, tt.trait)
		case tt.trait == "" && jcs.Signatures(v).String() != tt.sig:
			t.Errorf("%s: rfc8785 signature %q, want %q", tt.name, jcs.Signatures(v).String(), tt.sig)
		}
		if d := ours.Judge(tt.input, tt.outs); d.Agree || len(d.Allowed) > 0 {
			t.Errorf("%s: difffuzz allows it: %+v", tt.name, d)
		}
	}
}

// TestJudgeClosed checks a team file closing what rfc8785 leaves open.
func TestJudgeClosed(t *testing.T) {
	c, err := contract.Parse([]byte("base = \"rfc8785\"\n[allows]\nerror_codes = \"exact\"\n"), "strict")
	if err != nil {
		t.Fatal(err)
	}
	j := NewFor([]string{"a", "b"}, c)
	if v := j.Judge(model.Object{}, []Outcome{{Error: "duplicate_key"}, {Error: "lone_surrogate"}}); v.Agree {
		t.Errorf("error codes closed, another code allowed: %+v", v)
	}
	// The nesting floor stays open, with its code.
	if v := j.Judge(nested(300), []Outcome{out("[]"), {Error: "too_deep"}}); !v.Agree {
		t.Errorf("a limit of its own refused with too_deep: %+v", v)
	}
	if v := j.Judge(nested(300), []Outcome{out("[]"), {Error: "internal"}}); v.Agree {
		t.Errorf("error codes closed, an exception allowed: %+v", v)
	}
}

func TestMasked(t *testing.T) {
	j := NewFor([]string{"a", "b", "c"}, contract.RFC8785)
	outs := []Outcome{{Error: "lone_surrogate"}, {Error: "internal"}, out("[]")}
	v := j.Judge(model.Object{}, outs)
	m := v.Masked(outs)
	if m[1].Error != "lone_surrogate" || m[2].Canonical == nil || outs[1].Error != "internal" {
		t.Errorf("masked %+v from %+v", m, outs)
	}
	if len(v.Deviations) != 1 || !strings.Contains(j.Signatures(v).String(), "rejection") {
		t.Errorf("verdict %+v", v)
	}
}

// An output of the variant of two choices at once (no limit, and big
// integers read as doubles, on a deep case holding one) shows both traits.
func TestJudgeBothVariants(t *testing.T) {
	vs := contract.RFC8785.Variants()
	deep := []any{nested(600), new(big.Int).SetUint64(1<<53 + 1)}
	both := out("[[...],9007199254740992]")
	refuse := func(any) (Outcome, bool) { return Outcome{Error: "unsupported_value"}, true }
	j := NewFor([]string{"a", "b"}, contract.RFC8785)
	j.WithVariants([]Variant{{vs[0], refuse}, {vs[1], refuse}, {vs[2], func(any) (Outcome, bool) { return both, true }}})
	v := j.Judge(deep, []Outcome{{Error: "too_deep"}, both})
	if !v.Agree || len(v.Allowed) != 2 || v.Allowed[0].Trait != TraitNoDepthLimit || v.Allowed[1].Trait != TraitBigInts {
		t.Errorf("verdict %+v, want no_depth_limit and big_ints allowed", v)
	}
}
