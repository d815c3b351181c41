// Package survey runs canonical JSON libraries that nobody here wrote
// against the reference, one at a time, on one fixed budget of generated
// cases, each judged by the contract it claims (RFC 8785 for a JCS library,
// the nearest built-in for one that claims none), and tabulates what each does with every edge class of the spec:
// agrees, diverges (and how), or cannot even express the case in its native
// value model. It minimizes one example of every distinct divergence, so
// that each cell of the matrix has a case a person can read.
//
// It is the engine of "difffuzz survey"; the pages it renders
// (docs/survey.md, docs/survey.svg, out/survey.json) are what a team reads
// before choosing a library. It uses the leaf packages directly (adapter,
// gen, compare, minimize) and knows nothing of the fuzzing run loop.
package survey

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/harness/minimize"
	"github.com/difffuzz/difffuzz/harness/panel"
)

// Spec is one adapter of the survey: a library's worker, or the reference.
// A library's Contract is the contract it claims, which it is judged by:
// the reference is started anew for each library, following it (a zero
// Contract is this project's).
type Spec struct {
	adapter.Spec
	// ContractNote says why Contract was chosen for a library that claims
	// no contract of its own, for the page.
	ContractNote string
	// Adapter, if set, is used as it is instead of starting one: tests
	// survey fake libraries in process. The survey closes it. Libraries
	// only: the reference is started anew for each library.
	Adapter adapter.Adapter
}

// Config is one survey. Zero values mean the documented defaults.
type Config struct {
	// Reference is the implementation every library is compared with; it
	// must follow any contract (the in-process reference does), as each
	// library's run sets its Contract to the library's.
	Reference Spec
	// Libraries are surveyed in this order, each on the same cases.
	Libraries []Spec
	// Cases is how many cases each library must have compared (agreed or
	// diverged: a case its native model cannot express does not count);
	// 0 means 20,000. Every library is sent the same cases from index 0 on,
	// until it has compared that many or has been sent maxSentFactor times
	// as many.
	Cases int
	// Seed of the generator; every library sees the same cases.
	Seed uint64
	// Batch is the number of cases a round trip; 0 means 256.
	Batch int
	// MinimizeTime bounds the minimization of each distinct divergence;
	// 0 means DefaultMinimizeTime, negative means none (the first example
	// is kept as is). Unlike a fuzzing run's, whose -minimize-time is one
	// budget for the run, it is per divergence: every library of the page
	// must be minimized alike, whichever comes last.
	MinimizeTime time.Duration
	// Gen tunes the generator; its Seed is overwritten by Seed.
	Gen gen.Config
	// Command is the command line that repeats this survey, for the page.
	Command string
	// Stderr receives progress lines; nil means none.
	Stderr io.Writer
}

// Defaults of Config's zero values.
const (
	DefaultCases        = 20000
	DefaultBatch        = panel.DefaultBatch
	DefaultMinimizeTime = minimize.DefaultTime
)

func (c *Config) setDefaults() {
	if c.Cases <= 0 {
		c.Cases = DefaultCases
	}
	if c.Batch <= 0 {
		c.Batch = DefaultBatch
	}
	if c.MinimizeTime == 0 {
		c.MinimizeTime = DefaultMinimizeTime
	}
	if c.Stderr == nil {
		c.Stderr = io.Discard
	}
	c.Gen.Seed = c.Seed
}

// Run surveys every library. A library whose worker will not start, or
// breaks the protocol, is reported with its error and the survey goes on
// with the next one; only the reference's failure, or ctx's end, stops it.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	cfg.setDefaults()
	res := &Result{Command: cfg.Command, Seed: cfg.Seed, Cases: cfg.Cases, Classes: classNames(), Contracts: contractsOf(cfg.Libraries)}
	ref, err := start(ctx, cfg.Reference)
	if err != nil {
		return nil, fmt.Errorf("survey: reference %s: %w", cfg.Reference.Name, err)
	}
	res.Reference = describe(cfg.Reference.Name, ref)
	ref.Close()
	gens := map[string]*gen.Generator{}
	for _, lib := range cfg.Libraries {
		lr := surveyOne(ctx, cfg, generatorFor(gens, cfg.Gen, contractOf(lib)), lib)
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("survey: %w", err)
		}
		res.Libraries = append(res.Libraries, lr)
	}
	return res, nil
}

// surveyOne runs one library over the budget, then minimizes an example of
// each of its divergences. The reference and the library make a lane of
// their own, so that the library lives by the fuzzing run's policy: a batch
// it crashes or hangs on is re-run case by case to find the case, and a
// worker that breaks the protocol again and again is given up on.
func surveyOne(ctx context.Context, cfg Config, g *gen.Generator, lib Spec) *Library {
	c := contractOf(lib)
	fmt.Fprintf(cfg.Stderr, "survey: %s (contract %s) ...\n", lib.Name, c.Name)
	failed := &Library{Name: lib.Name, Contract: c.Name, ContractNote: lib.ContractNote}
	refSpec := cfg.Reference
	refSpec.Contract = c
	ref, err := start(ctx, refSpec)
	if err != nil {
		failed.Error = fmt.Sprintf("reference %s: %v", cfg.Reference.Name, err)
		return failed
	}
	a, err := start(ctx, lib)
	if err != nil {
		ref.Close()
		fmt.Fprintf(cfg.Stderr, "survey: %s: %v\n", lib.Name, err)
		failed.Error = buildHint(err, lib)
		return failed
	}
	l := panel.Of([]string{refName, libName}, []adapter.Adapter{ref, a}, cfg.Stderr)
	l.JudgeBy(c)
	defer l.Close()
	lr := newLibrary(lib, a)
	begin := time.Now()
	if err := tallyCases(ctx, cfg, g, l, lr); err != nil {
		lr.Error = err.Error()
		fmt.Fprintf(cfg.Stderr, "survey: %s: %v\n", lib.Name, err)
		return lr
	}
	lr.Seconds = time.Since(begin).Seconds()
	minimizeAll(ctx, cfg, l, lr)
	fmt.Fprintf(cfg.Stderr, "survey: %s %s: %d agree, %d diverge (%d distinct), %d cannot express\n",
		lr.Package, lr.Version, lr.Agree, lr.Diverge, len(lr.Divergences), lr.Inexpressible)
	return lr
}

// generatorFor is the generator of contract c's cases, made once per
// contract: every library of one contract is sent the same cases, drawn as
// that contract's reference and libraries are judged (no envelope and no
// NaN under rfc8785).
func generatorFor(gens map[string]*gen.Generator, cfg gen.Config, c contract.Contract) *gen.Generator {
	if g, ok := gens[c.Name]; ok {
		return g
	}
	cfg.Contract = c
	g := gen.New(cfg)
	gens[c.Name] = g
	return g
}

// contractOf is the contract lib claims, and is judged by.
func contractOf(lib Spec) contract.Contract {
	if lib.Contract.Name == "" {
		return contract.Default
	}
	return lib.Contract
}

// contractsOf are the contracts the libraries claim, each once, in the
// order of their first library: the page has one matrix for each.
func contractsOf(libs []Spec) []string {
	var names []string
	for _, lib := range libs {
		if n := contractOf(lib).Name; !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// libName is the library's name in signatures, as a fuzzing run would
// name a deviant ("key_order: lib"), so that a divergence reads alike in a
// survey and in a run.
const libName = "lib"

// refName is the reference's name in the lane.
const refName = "reference"

// maxSentFactor bounds the cases sent to a library that cannot express
// most of them, so that the survey ends.
const maxSentFactor = 10

// tallyCases runs cases in batches and counts each verdict, until the
// library has compared cfg.Cases of them. A case the library answered
// outside the protocol is not compared, and not counted.
func tallyCases(ctx context.Context, cfg Config, g *gen.Generator, l *panel.Panel, lr *Library) error {
	for first := 0; lr.Agree+lr.Diverge < cfg.Cases && first < maxSentFactor*cfg.Cases; first += cfg.Batch {
		n := min(cfg.Batch, cfg.Cases-(lr.Agree+lr.Diverge))
		cases := make([]any, n)
		classes := make([]gen.Classes, n)
		for i := range cases {
			cases[i], classes[i] = g.Case(uint64(first + i))
		}
		js, err := l.Judge(ctx, cases)
		if err != nil {
			return err
		}
		for i, j := range js {
			if j.Answered {
				lr.add(classes[i], cases[i], j)
			}
		}
	}
	return nil
}

// start opens one adapter of the survey.
func start(ctx context.Context, s Spec) (adapter.Adapter, error) {
	if s.Adapter != nil {
		return s.Adapter, nil
	}
	if s.InProcess {
		return adapter.NewInProcessFor(s.Name, s.Contract)
	}
	w, err := adapter.Start(ctx, s.Spec)
	if err != nil {
		return nil, err
	}
	return w, nil
}

// buildHint renders a start failure with the stderr tail and the command
// that builds the worker.
func buildHint(err error, s Spec) string {
	msg := err.Error()
	if f, ok := adapter.AsFailure(err); ok && f.Stderr != "" {
		msg += ": " + lastLine(f.Stderr)
	}
	if s.Build != "" {
		msg += " (build it with: " + s.Build + ")"
	}
	return msg
}
