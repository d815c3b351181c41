package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/difffuzz/difffuzz/harness/triage"
)

// Flag is one flag of a command as "difffuzz flags" lists it: what a
// program that writes difffuzz command lines (the infra check, a CI
// generator) needs, without reading -h's text, whose wording may change.
type Flag struct {
	Name       string `json:"name"`
	TakesValue bool   `json:"takes_value"` // false for a boolean flag
	Default    string `json:"default"`
	Usage      string `json:"usage"`
}

// flagsCmd is "difffuzz flags CMD [SUB]": the command's flags as JSON. It
// runs the command as with -h, but with listing set, so that parse prints
// the flag set it was given instead of the usage.
func (c *CLI) flagsCmd(ctx context.Context, args []string) int {
	if len(args) == 0 || args[0] == "flags" {
		fmt.Fprintln(c.Stderr, "usage: difffuzz flags COMMAND [SUBCOMMAND]: the command's flags as JSON (such as difffuzz flags corpus merge)")
		return triage.ExitSetup
	}
	for _, cmd := range commands {
		if cmd.name == args[0] {
			c.listing = true
			defer func() { c.listing = false }()
			return cmd.run(c, ctx, append(args[1:], "-h"))
		}
	}
	fmt.Fprintf(c.Stderr, "difffuzz flags: unknown command %q (difffuzz -h lists the commands)\n", args[0])
	return triage.ExitSetup
}

// listFlags writes fs's flags as JSON, in the order of -h.
func (c *CLI) listFlags(fs *flag.FlagSet) int {
	flags := []Flag{}
	fs.VisitAll(func(f *flag.Flag) {
		b, isBool := f.Value.(interface{ IsBoolFlag() bool })
		flags = append(flags, Flag{Name: f.Name, TakesValue: !isBool || !b.IsBoolFlag(), Default: f.DefValue, Usage: f.Usage})
	})
	enc := json.NewEncoder(c.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(struct {
		Command string `json:"command"`
		Flags   []Flag `json:"flags"`
	}{fs.Name(), flags}); err != nil {
		fmt.Fprintf(c.Stderr, "difffuzz flags: %v\n", err)
		return triage.ExitSetup
	}
	return triage.ExitOK
}
