package survey

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// TestShortSurvey checks what a short survey of two Go libraries
// (make survey-short) must show, from the out/survey.json it wrote: it runs
// only when SURVEY_JSON names that file.
func TestShortSurvey(t *testing.T) {
	path := os.Getenv("SURVEY_JSON")
	if path == "" {
		t.Skip("SURVEY_JSON not set: run by make survey-short")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	naive, jcs := library(t, &r, "go-encoding-json"), library(t, &r, "gowebpki-jcs")
	for _, l := range []*Library{naive, jcs} {
		// The budget is cases compared: inexpressible ones are sent on top.
		if l.Error != "" || l.Agree+l.Diverge != r.Cases || l.Cases != l.Agree+l.Diverge+l.Inexpressible {
			t.Errorf("%s: %d sent, %d compared of %d, error %q", l.Name, l.Cases, l.Agree+l.Diverge, r.Cases, l.Error)
		}
		// A map[string]any cannot hold a repeated key.
		if c := cellOf(t, &r, l, "duplicate-key"); c.Cases == 0 || c.Inexpressible != c.Cases {
			t.Errorf("%s: duplicate-key cell %+v: want every case inexpressible", l.Name, c)
		}
		// Both are judged by RFC 8785, the one by its claim, the other as
		// the nearest built-in (survey/survey.toml).
		if l.Contract != "rfc8785" {
			t.Errorf("%s: judged by %q, want rfc8785", l.Name, l.Contract)
		}
		// NaN and the infinities are refused by encoding/json with its
		// own error, which RFC 8785 allows (it names no codes): the
		// library's profile, not a divergence.
		if !slices.ContainsFunc(l.Profile, func(tr *Trait) bool { return tr.Trait == "own_exceptions" }) {
			t.Errorf("%s: no own_exceptions in its profile %v (json.Marshal refuses NaN)", l.Name, l.Profile)
		}
		if d := divergenceOf(l, "internal"); d != nil {
			t.Errorf("%s: its own exception is a divergence under rfc8785: %s", l.Name, d.Signature)
		}
	}
	// Under RFC 8785 its own choices, non-ASCII written raw and keys in
	// UTF-16 order, are never a JCS library's divergence.
	for _, kind := range []string{"string_escape", "key_escape", "key_order"} {
		if d := divergenceOf(jcs, kind); d != nil {
			t.Errorf("gowebpki-jcs: a %s divergence under rfc8785: %s", kind, d.Signature)
		}
	}
	// encoding/json sorts keys by bytes, not UTF-16 units; it escapes <, >
	// and & for HTML, and keeps -0, which Number::toString writes 0.
	for _, kind := range []string{"key_order", "string_escape", "number"} {
		if divergenceOf(naive, kind) == nil {
			t.Errorf("go-encoding-json: no %s divergence under rfc8785", kind)
		}
	}
}

func library(t *testing.T, r *Result, name string) *Library {
	t.Helper()
	for _, l := range r.Libraries {
		if l.Name == name {
			return l
		}
	}
	t.Fatalf("no library %q in the survey", name)
	return nil
}

func cellOf(t *testing.T, r *Result, l *Library, class string) *Cell {
	t.Helper()
	for i, c := range r.Classes {
		if c == class {
			return l.Cells[i]
		}
	}
	t.Fatalf("no class %q", class)
	return nil
}

func divergenceOf(l *Library, kind string) *Divergence {
	for _, d := range l.Divergences {
		if kindOf(d.Signature) == kind {
			return d
		}
	}
	return nil
}
