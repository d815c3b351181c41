package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/adapterfile"
	"github.com/difffuzz/difffuzz/harness/survey"
	"github.com/difffuzz/difffuzz/harness/triage"
)

// survey is "difffuzz survey": every library of survey/survey.toml against
// the reference, following the contract the library claims (its contract
// key), on one budget and seed, written as docs/survey.md,
// docs/survey.svg and out/survey.json. Divergences are its data, not a
// failure: it exits 0 when the pages are written, 2 on a usage or setup
// error (a library that will not start is reported on the page instead).
func (c *CLI) survey(ctx context.Context, args []string) int {
	fs := c.newFlagSet("survey", "")
	libsPath := fs.String("config", "survey/survey.toml", "the libraries' config `file` (difffuzz.toml's format)")
	refPath := fs.String("reference-config", "difffuzz.toml", "the config `file` that declares the reference")
	refName := fs.String("reference", "go", "the reference adapter of -reference-config (go: the in-process Go implementation, byte-identical to python and cheaper)")
	only := fs.String("libraries", "", "comma-separated libraries to survey (default: all of -config)")
	judgeBy := fs.String("contract", "", "judge every library by this contract (a built-in or a contract `file`) instead of the one it claims")
	readingsPath := fs.String("readings", "survey/readings.toml", "the `file` of divergences checked by hand against each library's contract, shown on the page (\"\": none)")
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
	var readings []survey.Reading
	if *readingsPath != "" {
		if readings, err = survey.LoadReadings(*readingsPath); err != nil {
			return c.usageError(fs, "-readings: %v", err)
		}
	}
	if cfg.Reference, err = specNamed(*refPath, *refName); err != nil {
		return c.usageError(fs, "-reference: %v", err)
	}
	if cfg.Libraries, err = surveySpecs(*libsPath, *only, *judgeBy); err != nil {
		return c.usageError(fs, "%v", err)
	}
	cfg.Seed = *seed
	cfg.Command = surveyCommand(cfg, *refName, *only, *judgeBy)
	fmt.Fprintf(c.Stderr, "difffuzz survey: seed %d, %d cases, %d libraries against %s; repeat with: %s\n",
		cfg.Seed, cfg.Cases, len(cfg.Libraries), *refName, cfg.Command)
	res, err := survey.Run(ctx, cfg)
	if err == nil {
		for _, rd := range res.Read(readings) {
			fmt.Fprintf(c.Stderr, "difffuzz survey: stale reading in %s: %s has no divergence %q any more; check it again\n", *readingsPath, rd.Library, rd.Signature)
		}
		err = survey.Write(res, out)
	}
	if err != nil {
		fmt.Fprintf(c.Stderr, "difffuzz survey: %v\n", err)
		return triage.ExitSetup
	}
	fmt.Fprintf(c.Stdout, "survey: wrote %s\n", strings.Join(nonEmpty(out.Markdown, out.SVG, out.JSON), ", "))
	return triage.ExitOK
}

// surveySpecs reads the libraries, all of them or those named in only, each
// with the contract it claims, or every one with the contract judgeBy
// names when it is not "".
func surveySpecs(path, only, judgeBy string) ([]survey.Spec, error) {
	f, err := adapterfile.Load(path)
	if err != nil {
		return nil, err
	}
	all, err := toSurvey(f)
	if err != nil {
		return nil, err
	}
	if judgeBy != "" {
		c, err := contract.Resolve(judgeBy, ".")
		if err != nil {
			return nil, fmt.Errorf("-contract: %w", err)
		}
		for i := range all {
			all[i].Contract, all[i].ContractNote = c, "-contract "+judgeBy+", not its claim"
		}
	}
	if only == "" {
		return all, nil
	}
	var chosen []survey.Spec
	for _, n := range strings.Split(only, ",") {
		i := slices.IndexFunc(all, func(s survey.Spec) bool { return s.Name == strings.TrimSpace(n) })
		if i < 0 {
			known := make([]string, len(all))
			for j, s := range all {
				known[j] = s.Name
			}
			return nil, fmt.Errorf("-libraries: unknown library %q (known: %s)", n, strings.Join(known, ", "))
		}
		chosen = append(chosen, all[i])
	}
	return chosen, nil
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
	return survey.Spec{Spec: specs[i]}, nil
}

// toSurvey are the file's declared adapters as the survey's libraries,
// each with the contract it claims, resolved (not the built-in reference
// that Specs puts first in a file that names none).
func toSurvey(f *adapterfile.File) ([]survey.Spec, error) {
	var out []survey.Spec
	for _, s := range f.Specs() {
		i := slices.IndexFunc(f.Adapters, func(a adapterfile.Adapter) bool { return a.Name == s.Name })
		if i < 0 {
			continue
		}
		a := &f.Adapters[i]
		c, err := contract.Resolve(f.Claim(a), f.Root)
		if err != nil {
			return nil, fmt.Errorf("library %s: %w", a.Name, err)
		}
		s.Contract = c
		out = append(out, survey.Spec{Spec: s, ContractNote: a.ContractNote})
	}
	return out, nil
}

// surveyCommand is the command line that repeats the survey, for the page.
func surveyCommand(cfg survey.Config, ref, only, judgeBy string) string {
	parts := []string{"bin/difffuzz survey", "-seed", strconv.FormatUint(cfg.Seed, 10), "-cases", strconv.Itoa(cfg.Cases)}
	if judgeBy != "" {
		parts = append(parts, "-contract", judgeBy)
	}
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
