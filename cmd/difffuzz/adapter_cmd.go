package main

import (
	"context"
	"fmt"

	"difffuzz/harness"
)

// adapterCmd runs "difffuzz adapter SUBCOMMAND".
func (c *CLI) adapterCmd(ctx context.Context, args []string) int {
	fmt.Fprintln(c.Stderr, "difffuzz adapter: not yet available")
	return harness.ExitSetup
}
