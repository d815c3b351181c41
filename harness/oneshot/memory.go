package oneshot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/difffuzz/difffuzz/internal/memlimit"
)

// budgetOf is cfg.MaxMemory with its default: memlimit.Default for 0,
// negative for none.
func budgetOf(cfg Config) int64 {
	if cfg.MaxMemory == 0 {
		return memlimit.Default
	}
	return cfg.MaxMemory
}

// withBudget holds the command to its budget (budgetOf): the runtime's
// memory limit, the collector at memlimit.ThriftyGC (what a one-shot
// command holds is a few inputs and their near-copies, not a stream), and
// a watch on the resident set that ends the returned context, with a
// *memlimit.OverError as its cause, past it. What the command holds at
// once, the caller sizes to the budget.
func withBudget(ctx context.Context, cfg Config) (context.Context, func()) {
	budget := budgetOf(cfg)
	unlimit := memlimit.Limit(budget, os.Getenv("GOMEMLIMIT"))
	restore := memlimit.Thrifty(os.Getenv("GOGC"))
	ctx, cancel := context.WithCancelCause(ctx)
	stop := memlimit.Watch(budget, time.Second, "-max-memory", cancel)
	return ctx, func() { stop(); cancel(nil); restore(); unlimit() }
}

// overBudget prints why ctx ended when the budget ended it, and says so.
func overBudget(ctx context.Context, cfg Config) bool {
	var over *memlimit.OverError
	if errors.As(context.Cause(ctx), &over) {
		fmt.Fprintf(cfg.Stderr, "difffuzz: %v\n", over)
		return true
	}
	return false
}
