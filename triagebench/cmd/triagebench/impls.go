package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// The value models an implementation can run in; the benchmark runs each
// implementation in every model it has a command for.
const (
	modelNative = "native"
	modelText   = "text"
)

// Impl is one implementation under the benchmark, read from its file in
// the implementations folder (triagebench/impls/NAME.toml): how to start its
// worker in each model, and the true causes of its divergences.
type Impl struct {
	Name     string            `toml:"name"`     // the adapter's name in the runs; the file's base name
	Language string            `toml:"language"` // go, python, rust or typescript
	Origin   string            `toml:"origin"`   // "own" (written for the benchmark) or "library" (a public one, pinned)
	Summary  string            `toml:"summary"`  // what it is, in a line
	Commands map[string]string `toml:"commands"` // model -> worker command line, split on spaces, run from the repository root
	Causes   []Cause           `toml:"cause"`
	File     string            `toml:"-"` // where it was read from
}

// Cause is one true cause of an implementation's divergences.
type Cause struct {
	ID          string `toml:"id"`
	Description string `toml:"description"`
	// Label is the label difffuzz should give the cause: a regular
	// expression over a bucket's signature text without its
	// implementations, "KIND: CAUSE".
	Label string `toml:"label"`
	// Shows is where the cause can show: "native", "text" or "both".
	Shows string `toml:"shows"`
	re    *regexp.Regexp
}

// In reports whether the cause can show in model.
func (c Cause) In(model string) bool { return c.Shows == "both" || c.Shows == model }

// Matches reports whether label, a bucket's "KIND: CAUSE", is c's label.
func (c Cause) Matches(label string) bool { return c.re.MatchString(label) }

// Models are the models the implementation runs in, in a fixed order.
func (im Impl) Models() []string {
	var ms []string
	for _, m := range []string{modelNative, modelText} {
		if im.Commands[m] != "" {
			ms = append(ms, m)
		}
	}
	return ms
}

// CausesIn are the causes that can show in model.
func (im Impl) CausesIn(model string) []Cause {
	var cs []Cause
	for _, c := range im.Causes {
		if c.In(model) {
			cs = append(cs, c)
		}
	}
	return cs
}

// LoadImpls reads every NAME.toml of dir, sorted by name. Every file's
// problems are collected, not only the first one's.
func LoadImpls(dir string) ([]Impl, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no implementation (*.toml) in %s", dir)
	}
	sort.Strings(paths)
	var impls []Impl
	var errs []error
	for _, p := range paths {
		im, err := loadImpl(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		impls = append(impls, im)
	}
	return impls, errors.Join(errs...)
}

// loadImpl reads and checks one implementation's file.
func loadImpl(path string) (Impl, error) {
	var im Impl
	data, err := os.ReadFile(path)
	if err != nil {
		return im, err
	}
	dec := toml.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&im); err != nil {
		return im, fmt.Errorf("%s: %w", path, err)
	}
	im.File = path
	if err := im.check(strings.TrimSuffix(filepath.Base(path), ".toml")); err != nil {
		return im, fmt.Errorf("%s: %w", path, err)
	}
	return im, nil
}

// check validates the file's content and compiles the labels.
func (im *Impl) check(base string) error {
	var errs []error
	if im.Name != base {
		errs = append(errs, fmt.Errorf("name %q, want the file's base name %q", im.Name, base))
	}
	if !slices.Contains([]string{"own", "library"}, im.Origin) {
		errs = append(errs, fmt.Errorf("origin %q, want own or library", im.Origin))
	}
	for m := range im.Commands {
		if m != modelNative && m != modelText {
			errs = append(errs, fmt.Errorf("a command for model %q, want native or text", m))
		}
	}
	if len(im.Models()) == 0 {
		errs = append(errs, errors.New("no command: want [commands] native or text"))
	}
	if len(im.Causes) == 0 {
		errs = append(errs, errors.New("no cause"))
	}
	seen := map[string]bool{}
	for i := range im.Causes {
		c := &im.Causes[i]
		if c.ID == "" || seen[c.ID] {
			errs = append(errs, fmt.Errorf("cause %d: id %q empty or repeated", i+1, c.ID))
		}
		seen[c.ID] = true
		switch c.Shows {
		case "both":
			if len(im.Models()) < 2 {
				errs = append(errs, fmt.Errorf("cause %s shows in both models, but the implementation runs in %v only", c.ID, im.Models()))
			}
		case modelNative, modelText:
			if im.Commands[c.Shows] == "" {
				errs = append(errs, fmt.Errorf("cause %s shows in %s, which has no command", c.ID, c.Shows))
			}
		default:
			errs = append(errs, fmt.Errorf("cause %s: shows %q, want native, text or both", c.ID, c.Shows))
		}
		re, err := regexp.Compile(c.Label)
		if err != nil {
			errs = append(errs, fmt.Errorf("cause %s: label: %w", c.ID, err))
		}
		c.re = re
	}
	return errors.Join(errs...)
}
