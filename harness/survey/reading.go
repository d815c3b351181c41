package survey

import (
	"fmt"
	"os"
	"slices"

	"github.com/difffuzz/difffuzz/internal/tomlstrict"
)

// Reading is a person's check of one library's divergence against the text
// of the contract it claims: the section the divergence breaks, or why it is
// no departure of the library's. The survey finds and minimizes; only a
// person reading the RFC beside the example can say which it is, so
// readings are data (survey/readings.toml), kept beside the survey and
// shown with the divergence they read. A reading that no divergence of its
// library matches any more is stale, and the survey says so: a reading can
// never silently outlive its divergence.
type Reading struct {
	// Library and Signature name the divergence: the library's name in
	// survey.toml and the divergence's signature text, as survey.json
	// holds it.
	Library   string `toml:"library" json:"-"`
	Signature string `toml:"signature" json:"-"`
	// Section is the clause checked ("RFC 8785 §3.2.2.3").
	Section string `toml:"section" json:"section"`
	// Verdict is one of the Verdicts.
	Verdict Verdict `toml:"verdict" json:"verdict"`
	// Note says what the library does against what the text says.
	Note string `toml:"note" json:"note"`
}

// Verdict is what a reading found.
type Verdict string

const (
	// VerdictBreaks: the library departs from its contract's text.
	VerdictBreaks Verdict = "breaks"
	// VerdictContract: the text leaves the point open (or to the data's
	// author) and the built-in contract settles it; the library's answer
	// is allowed by the text.
	VerdictContract Verdict = "contract"
	// VerdictHarness: the divergence is the worker's or the value model's,
	// not the library's: the library does what the text asks, and the
	// answer reaches the driver under another name.
	VerdictHarness Verdict = "harness"
)

var verdicts = []Verdict{VerdictBreaks, VerdictContract, VerdictHarness}

// LoadReadings reads a readings file. Errors name the file, and the line
// of an unknown key.
func LoadReadings(path string) ([]Reading, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("readings: %w", err)
	}
	var f struct {
		Reading []Reading `toml:"reading"`
	}
	if err := tomlstrict.Decode(data, &f); err != nil {
		return nil, fmt.Errorf("readings %s:%w", path, err)
	}
	for i, r := range f.Reading {
		if r.Library == "" || r.Signature == "" || r.Section == "" || r.Note == "" {
			return nil, fmt.Errorf("readings %s: reading %d: library, signature, section and note are required", path, i+1)
		}
		if !slices.Contains(verdicts, r.Verdict) {
			return nil, fmt.Errorf("readings %s: reading %d (%s): verdict %q: want one of %q", path, i+1, r.Library, r.Verdict, verdicts)
		}
	}
	return f.Reading, nil
}

// Read attaches each reading to the divergence it names, and returns the
// stale ones: those of a library of r that match none of its divergences.
// Readings of libraries r did not survey are neither attached nor stale.
func (r *Result) Read(readings []Reading) (stale []Reading) {
	for _, rd := range readings {
		lib := r.library(rd.Library)
		if lib == nil {
			continue
		}
		d := lib.divergenceText(rd.Signature)
		if d == nil {
			stale = append(stale, rd)
			continue
		}
		d.Reading = &rd
	}
	return stale
}

func (r *Result) library(name string) *Library {
	for _, l := range r.Libraries {
		if l.Name == name {
			return l
		}
	}
	return nil
}

func (lr *Library) divergenceText(sig string) *Divergence {
	for _, d := range lr.Divergences {
		if d.Signature.String() == sig {
			return d
		}
	}
	return nil
}
