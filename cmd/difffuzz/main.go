// Difffuzz is a differential fuzzer for canonical JSON: it proves that the
// Python, Go, TypeScript and Rust implementations of the tool-call signature
// produce byte-identical output, and finds, minimizes and replays the inputs
// where they do not.
//
// Usage:
//
//	difffuzz run [flags]           fuzz until -duration or -cases; exit 1 on any divergence
//	difffuzz check [flags] [FILE]  run JSON lines of extended JSON (default stdin) through every adapter
//	difffuzz replay [flags] [PATH...]  re-run saved cases (default out/corpus/, a run's findings); exit 1 if any diverges
//	difffuzz minimize [flags] FILE shrink a diverging input to a minimal one, saved beside it
//	difffuzz promote FILE          add a finding to the golden fixtures' regression list
//	difffuzz corpus merge -o OUT DIR...  merge shard outputs; exit 1 on a new or stale divergence
//	difffuzz adapter check NAME|COMMAND  conformance run for one worker
//	difffuzz init [flags] python|ts|rust|go  write a team's worker skeleton and its difffuzz.toml
//	difffuzz survey [flags]        run every library of survey/survey.toml against the reference of its contract
//	difffuzz bench [flags]         measure each implementation, the driver and the full run
//	difffuzz flags COMMAND [SUB]   the command's flags as JSON, for programs
//	difffuzz version               print difffuzz's version
//
// Inputs are written in the extended JSON of docs/canonical-json.md: JSON
// plus NaN, Infinity and -Infinity; a number with a fraction or exponent is a
// float, one without an integer of any size.
//
// Every run prints its seed; -seed repeats it. Findings go to -corpus (default
// out/corpus/, beside the report, in a folder that version control ignores),
// one file a distinct input, written before they are counted. The
// first Ctrl-C stops generating and writes the report; a second one exits at
// once. Workers never outlive the driver. At a terminal, run's status line
// rewrites itself in place every second; into a file, a pipe or a CI log it
// is a plain line every 10 seconds (-status-every sets either). Each
// worker restart is counted by its reason (crash, hang, protocol, memory,
// setup, stopped), in the status line, the summary and the JSON report.
//
// Exit status: 0 the adapters agree, 1 a divergence, 2 a usage or setup
// error, 130 a run interrupted by Ctrl-C (after it wrote every finding and
// its report).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/difffuzz/difffuzz/harness/adapter"
	_ "github.com/difffuzz/difffuzz/harness/inprocess" // the in-process adapter
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/internal/batchsched"
	"github.com/difffuzz/difffuzz/internal/version"
)

func main() {
	defer func() {
		if p := recover(); p != nil {
			adapter.KillAll()
			panic(p)
		}
	}()
	if os.Getenv("GOGC") == "" {
		// What a command holds live is small (a batch per lane and per
		// producer); collecting less often buys back CPU for the
		// implementations. run then holds its heap at a fixed share of
		// its budget instead (memlimit.Tune), and minimizing at 100
		// (memlimit.Thrifty); the measurements are in docs/performance.md.
		debug.SetGCPercent(400)
	}
	// Before any worker starts, so that they all inherit it.
	batchsched.Enter()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-sigs
		fmt.Fprintln(os.Stderr, "difffuzz: interrupted; abandoning in-flight batches, writing every finding and the report (Ctrl-C again to quit at once)")
		cancel()
		<-sigs
		adapter.KillAll()
		os.Exit(130)
	}()
	cli := &CLI{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin}
	code := cli.Main(ctx, os.Args[1:])
	adapter.KillAll()
	os.Exit(code)
}

// CLI is the command with its streams, so that tests can run it in process.
type CLI struct {
	Stdout, Stderr io.Writer
	Stdin          io.Reader
	// listing makes a command's -h list its flags as JSON ("difffuzz
	// flags").
	listing bool
}

// command is one subcommand: its name, what it does in a line for the
// usage text, and how it runs. The table below is the one list of them:
// Main dispatches on it and usage prints it, so neither can miss one.
type command struct {
	name, summary string
	run           func(c *CLI, ctx context.Context, args []string) int
}

// commands is set in init: "flags" runs the others through it.
var commands []command

func init() {
	commands = []command{
		{"run", "fuzz all adapters against each other (difffuzz run -h for flags)", (*CLI).run},
		{"check", "run JSON lines of extended JSON through every adapter", (*CLI).check},
		{"replay", "re-run saved cases (default out/corpus/, a run's findings); exit 1 if any still diverges", (*CLI).replay},
		{"minimize", "shrink a diverging input to a minimal one", (*CLI).minimize},
		{"adapter", "adapter check NAME|COMMAND: conformance run for one worker", (*CLI).adapterCmd},
		{"init", "init python|ts|rust|go: write a worker skeleton for your SDK, with its difffuzz.toml", func(c *CLI, _ context.Context, args []string) int { return c.initCmd(args) }},
		{"corpus", "corpus merge -o OUT DIR...: merge shard corpora and reports", func(c *CLI, _ context.Context, args []string) int { return c.corpusCmd(args) }},
		{"promote", "turn a minimized finding into a golden-fixture regression", func(c *CLI, _ context.Context, args []string) int { return c.promote(args) }},
		{"survey", "run every library of survey/survey.toml against the reference of the contract it claims; write the survey's pages", (*CLI).survey},
		{"bench", "measure each implementation, the driver and the full run; ratio to the limit", (*CLI).bench},
		{"flags", "flags COMMAND [SUBCOMMAND]: the command's flags as JSON, for programs that write command lines", (*CLI).flagsCmd},
		{"version", "print difffuzz's version (also --version)", func(c *CLI, _ context.Context, _ []string) int {
			fmt.Fprintf(c.Stdout, "difffuzz %s\n", version.String())
			return triage.ExitOK
		}},
	}
}

// Main runs one subcommand and returns the exit status.
func (c *CLI) Main(ctx context.Context, args []string) int {
	if len(args) == 0 {
		c.usage(c.Stderr)
		return triage.ExitSetup
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		c.usage(c.Stdout)
		return triage.ExitOK
	case "-version", "--version":
		args[0] = "version"
	}
	for _, cmd := range commands {
		if cmd.name == args[0] {
			return cmd.run(c, ctx, args[1:])
		}
	}
	fmt.Fprintf(c.Stderr, "difffuzz: unknown command %q (difffuzz -h lists the commands)\n", args[0])
	return triage.ExitSetup
}

func (c *CLI) usage(w io.Writer) {
	fmt.Fprint(w, "usage: difffuzz <command> [flags]\n\ncommands:\n")
	for _, cmd := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprint(w, "\nexit status: 0 agreement, 1 divergence, 2 usage or setup error, 130 interrupted\n")
}
