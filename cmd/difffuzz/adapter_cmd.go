package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/adapterfile"
	"github.com/difffuzz/difffuzz/harness/conform"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/internal/atomicfile"
	"github.com/difffuzz/difffuzz/tests/fixtures"
)

// adapterCmd runs "difffuzz adapter SUBCOMMAND".
func (c *CLI) adapterCmd(ctx context.Context, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(c.Stderr, "usage: difffuzz adapter check [flags] NAME|COMMAND")
		return triage.ExitSetup
	}
	switch args[0] {
	case "check":
		return c.adapterCheck(ctx, args[1:])
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(c.Stderr, "usage: difffuzz adapter check [flags] NAME|COMMAND")
		return triage.ExitOK
	}
	fmt.Fprintf(c.Stderr, "difffuzz adapter: unknown subcommand %q (want check)\n", args[0])
	return triage.ExitSetup
}

// adapterCheck is "difffuzz adapter check": the conformance run of one
// worker (package conform). It prints a PASS or FAIL line a check and the
// summary "N passed, N failed"; it exits 0 when every check passed, 1 when
// one failed, 2 on a usage or setup error. With -known, the checks of the
// failure list must fail and the others pass (conform.Config.Known). With
// -write-known, the checks that fail are written as that list (see
// conformWriteKnown).
func (c *CLI) adapterCheck(ctx context.Context, args []string) int {
	fs := c.newFlagSet("adapter check", "NAME|COMMAND\n\nNAME is an adapter of the config; anything else is a worker's command line,\nsplit on spaces (quote it as one argument). Flags go before it.")
	var configPath string
	configFlag(fs, &configPath)
	cfg := conform.Config{Stdout: c.Stdout, Stderr: c.Stderr}
	fs.StringVar(&cfg.Fixtures, "fixtures", "", "the `folder` of the fixture files (*.jsonl) (default: "+fixtures.Dir+" in the difffuzz checkout, or else the copy built into difffuzz)")
	knownPath := fs.String("known", "", "the worker's failure list: a `file` of the checks it is known to fail, one a line (# comments)")
	writeKnown := fs.String("write-known", "", "write the checks the worker fails to this `file`, as its failure list for -known, and exit 0 if it started")
	cases := fs.Int("cases", conform.DefaultCases, "generated cases to compare with the Go implementation (0: skip the check)")
	contractArg := fs.String("contract", "", "the contract the worker is held to: a built-in ("+strings.Join(contract.Names(), ", ")+
		") or a contract `file` (default: the one the config's adapter claims, or the config's contract key, or difffuzz)")
	timeout := fs.Duration("timeout", 0, fmt.Sprintf("deadline of the hello and of each answer before its per-case part (0: the config's, or %v and %v for the hello)",
		adapter.DefaultBatchTimeout, adapter.DefaultStartTimeout))
	if code := c.parse(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		return c.usageError(fs, "want one NAME or COMMAND, got %d arguments (quote a command line; flags go before it)", fs.NArg())
	}
	if *cases < 0 {
		return c.usageError(fs, "-cases: want 0 or more, got %d", *cases)
	}
	spec, err := resolveWorker(configPath, fs.Arg(0))
	if err != nil {
		return c.usageError(fs, "%v", err)
	}
	if cfg.Contract, err = checkContract(configPath, fs.Arg(0), *contractArg); err != nil {
		return c.usageError(fs, "%v", err)
	}
	if *knownPath != "" {
		if cfg.Known, err = conform.LoadKnown(*knownPath); err != nil {
			return c.usageError(fs, "%v", err)
		}
	}
	if cfg.Fixtures == "" {
		cfg.Fixtures, cfg.FixturesFS = builtinFixtures()
	}
	cfg.Worker, cfg.Cases = spec, *cases
	if *cases == 0 {
		cfg.Cases = -1
	}
	if *timeout > 0 {
		cfg.Worker.StartTimeout, cfg.Worker.BatchTimeout = *timeout, *timeout
	}
	if *writeKnown != "" {
		return c.conformWriteKnown(ctx, cfg, spec, *writeKnown, fs.Arg(0))
	}
	return c.conform(ctx, cfg, spec)
}

// builtinFixtures are the fixtures of -fixtures' default: the checkout's
// folder when the working folder is the checkout's root (where make fixtures
// rewrites them, and a binary built before would carry the old ones), or
// else the copy built into difffuzz (a team's repository).
func builtinFixtures() (string, fs.FS) {
	if st, err := os.Stat(fixtures.Dir); err == nil && st.IsDir() {
		return fixtures.Dir, nil
	}
	return "(built in)", fixtures.FS()
}

// conform runs the checks and turns the summary into an exit status.
func (c *CLI) conform(ctx context.Context, cfg conform.Config, spec adapter.Spec) int {
	sum, err := conform.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(c.Stderr, "difffuzz adapter check: %v\n", err)
		return triage.ExitSetup
	}
	if !sum.Started && spec.Build != "" {
		fmt.Fprintf(c.Stderr, "difffuzz adapter check: the worker did not start; build it with: %s\n", spec.Build)
	}
	if !sum.OK() {
		return triage.ExitDivergence
	}
	return triage.ExitOK
}

// conformWriteKnown runs the checks and writes the ones that failed to
// path, as the worker's failure list: a worker that fails exactly those
// then passes with -known path. The list describes the worker, failures
// and all, so the status is 0 once it is written; a worker that did not
// start has no list to write.
func (c *CLI) conformWriteKnown(ctx context.Context, cfg conform.Config, spec adapter.Spec, path, worker string) int {
	sum, err := conform.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(c.Stderr, "difffuzz adapter check: %v\n", err)
		return triage.ExitSetup
	}
	if !sum.Started {
		if spec.Build != "" {
			fmt.Fprintf(c.Stderr, "difffuzz adapter check: the worker did not start; build it with: %s\n", spec.Build)
		}
		fmt.Fprintf(c.Stderr, "difffuzz adapter check: the worker did not start, so %s was not written\n", path)
		return triage.ExitSetup
	}
	if err := atomicfile.Write(path, conform.FormatKnown(knownHeader(path, worker), sum.Failures)); err != nil {
		fmt.Fprintf(c.Stderr, "difffuzz adapter check: %v\n", err)
		return triage.ExitSetup
	}
	fmt.Fprintf(c.Stdout, "wrote %d failing checks to %s; check against it with: difffuzz adapter check -known %s %s\n",
		len(sum.Failures), path, path, shellWord(worker))
	return triage.ExitOK
}

// knownHeader heads a failure list that -write-known writes.
func knownHeader(path, worker string) string {
	return fmt.Sprintf(`# The checks of difffuzz adapter check that %[2]s fails, one a line with
# the reason it failed, written by
#   difffuzz adapter check -write-known %[1]s %[2]s
# With the list,
#   difffuzz adapter check -known %[1]s %[2]s
# passes when the worker fails exactly these checks, and fails when one of
# them passes, so the list cannot go stale: delete a line as your SDK comes
# to pass its check (or write the list again), and drop -known when none is
# left.
`, path, shellWord(worker))
}

// shellWord quotes s for a shell when it is more than one plain word.
func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// resolveWorker finds the worker to check: the config's adapter of that
// name, or else a command line whose program exists.
func resolveWorker(configPath, arg string) (adapter.Spec, error) {
	f, err := loadConfig(configPath)
	if err != nil {
		return adapter.Spec{}, err
	}
	specs := f.Specs()
	if i := indexOf(specs, arg); i >= 0 {
		if specs[i].InProcess {
			return adapter.Spec{}, fmt.Errorf("adapter %q runs inside the driver and has no worker to check (the checks compare a worker with it)", arg)
		}
		return specs[i], nil
	}
	argv := strings.Fields(arg)
	if len(argv) == 0 {
		return adapter.Spec{}, fmt.Errorf("empty NAME or COMMAND")
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		if configPath == "" {
			configPath = defaultConfig
		}
		return adapter.Spec{}, fmt.Errorf("%q is neither an adapter of %s (%s) nor a command: %v",
			arg, configPath, strings.Join(names(specs), ", "), err)
	}
	name := filepath.Base(argv[0])
	return adapter.Spec{Name: name, Command: argv}, nil
}

// checkContract is the contract adapter check holds the worker to: arg
// (-contract), else the one the config's adapter of that name claims (its
// contract key, else the config's), else the config's contract key, else
// this project's; a run of the same worker is judged by the same one.
func checkContract(configPath, worker, arg string) (contract.Contract, error) {
	if arg != "" {
		return contract.Resolve(arg, ".")
	}
	f, err := loadConfig(configPath)
	if err != nil {
		return contract.Contract{}, err
	}
	claim := f.Contract
	if i := slices.IndexFunc(f.Adapters, func(a adapterfile.Adapter) bool { return a.Name == worker }); i >= 0 {
		claim = f.Claim(&f.Adapters[i])
	}
	c, err := contract.Resolve(claim, f.Root)
	if err != nil {
		return c, fmt.Errorf("%s: %w", defaultConfig, err)
	}
	return c, nil
}
