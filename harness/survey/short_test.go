package survey

import (
	"encoding/json"
	"os"
	"strings"
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
		// Both write non-ASCII raw, in values and keys alike.
		d := divergenceOf(l, "string_escape")
		if d == nil || !strings.Contains(d.Reference, `\u`) || strings.Contains(d.Library, `\u`) {
			t.Errorf("%s: want a string_escape divergence of raw non-ASCII, got %+v", l.Name, d)
		}
		// NaN and the infinities are refused by encoding/json: internal.
		if divergenceOf(l, "internal") == nil {
			t.Errorf("%s: no internal divergence (json.Marshal refuses NaN)", l.Name)
		}
	}
	// RFC 8785 sorts keys by UTF-16 code units; encoding/json by bytes, as
	// the contract does.
	if divergenceOf(jcs, "key_order") == nil {
		t.Errorf("gowebpki-jcs: no key_order divergence")
	}
	if divergenceOf(naive, "key_order") != nil {
		t.Errorf("go-encoding-json: a key_order divergence, but it sorts keys as the contract does")
	}
	// encoding/json keeps -0; RFC 8785 writes 0.
	if divergenceOf(naive, "number") == nil {
		t.Errorf("go-encoding-json: no number divergence (-0)")
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
