package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/adapterfile"
	"github.com/difffuzz/difffuzz/harness/survey"
	"github.com/difffuzz/difffuzz/harness/triage"
)

// survey is "difffuzz survey": every library of survey/survey.toml against
// the reference on one budget and seed, written as docs/survey.md,
// docs/survey.svg and out/survey.json. Divergences are its data, not a
// failure: it exits 0 when the pages are written, 2 on a usage or setup
// error (a library that will not start is reported on the page instead).
func (c *CLI) survey(ctx context.Context, args []string) int {
	fs := c.newFlagSet("survey", "")
	libsPath := fs.String("config", "survey/survey.toml", "the libraries' config `file` (difffuzz.toml's format)")
	refPath := fs.String("reference-config", "difffuzz.toml", "the config `file` that declares the reference")
	refName := fs.String("reference", "go", "the reference adapter of -reference-config (go: the in-process Go implementation, byte-identical to python and cheaper)")
	only := fs.String("libraries", "", "comma-separated libraries to survey (default: all of -config)")
	cfg := survey.Config{Stderr: c.Stderr}
	fs.IntVar(&cfg.Cases, "cases", survey.DefaultCases, "generated cases per library")
	seed := fs.Uint64("seed", 1, "generator seed")
	fs.DurationVar(&cfg.MinimizeTime, "minimize-time", survey.DefaultMinimizeTime, "time to minimize each distinct divergence (negative: none)")
	var out survey.Paths
	fs.StringVar(&out.Markdown, "md", "docs/survey.md", "write the page to this `file` (\"\": none)")
	fs.StringVar(&out.SVG, "svg", "docs/survey.svg", "write the matrix's picture to this `file` (\"\": none)")
	fs.StringVar(&out.JSON, "json", "out/survey.json", "write the data to this `file` (\"\": none)")
	if code := c.parse(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		return c.usageError(fs, "survey takes no arguments, got %q", fs.Args())
	}
	var err error
	if cfg.Reference, err = specNamed(*refPath, *refName); err != nil {
		return c.usageError(fs, "-reference: %v", err)
	}
	if cfg.Libraries, err = surveySpecs(*libsPath, *only); err != nil {
		return c.usageError(fs, "%v", err)
	}
	cfg.Seed = *seed
	cfg.Command = surveyCommand(cfg, *refName, *only)
	fmt.Fprintf(c.Stderr, "difffuzz survey: seed %d, %d cases, %d libraries against %s; repeat with: %s\n",
		cfg.Seed, cfg.Cases, len(cfg.Libraries), *refName, cfg.Command)
	res, err := survey.Run(ctx, cfg)
	if err == nil {
		err = survey.Write(res, out)
	}
	if err != nil {
		fmt.Fprintf(c.Stderr, "difffuzz survey: %v\n", err)
		return triage.ExitSetup
	}
	fmt.Fprintf(c.Stdout, "survey: wrote %s\n", strings.Join(nonEmpty(out.Markdown, out.SVG, out.JSON), ", "))
	return triage.ExitOK
}

// surveySpecs reads the libraries, all of them or those named in only.
func surveySpecs(path, only string) ([]survey.Spec, error) {
	f, err := adapterfile.Load(path)
	if err != nil {
		return nil, err
	}
	specs := f.Specs()
	if only == "" {
		return toSurvey(specs), nil
	}
	var chosen []adapter.Spec
	for _, n := range strings.Split(only, ",") {
		i := indexOf(specs, strings.TrimSpace(n))
		if i < 0 {
			return nil, fmt.Errorf("-libraries: unknown library %q (known: %s)", n, strings.Join(names(specs), ", "))
		}
		chosen = append(chosen, specs[i])
	}
	return toSurvey(chosen), nil
}

// specNamed is one adapter of a config file.
func specNamed(path, name string) (survey.Spec, error) {
	f, err := adapterfile.Load(path)
	if err != nil {
		return survey.Spec{}, err
	}
	specs := f.Specs()
	i := indexOf(specs, name)
	if i < 0 {
		return survey.Spec{}, fmt.Errorf("%s declares no adapter %q (known: %s)", path, name, strings.Join(names(specs), ", "))
	}
	return toSurvey(specs[i : i+1])[0], nil
}

func toSurvey(specs []adapter.Spec) []survey.Spec {
	out := make([]survey.Spec, len(specs))
	for i, s := range specs {
		out[i] = survey.Spec{Spec: s}
	}
	return out
}

// surveyCommand is the command line that repeats the survey, for the page.
func surveyCommand(cfg survey.Config, ref, only string) string {
	parts := []string{"bin/difffuzz survey", "-seed", strconv.FormatUint(cfg.Seed, 10), "-cases", strconv.Itoa(cfg.Cases)}
	if ref != "go" {
		parts = append(parts, "-reference", ref)
	}
	if only != "" {
		parts = append(parts, "-libraries", only)
	}
	return strings.Join(parts, " ")
}

func nonEmpty(xs ...string) []string {
	var out []string
	for _, x := range xs {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}
