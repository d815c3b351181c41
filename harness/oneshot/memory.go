package oneshot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/difffuzz/difffuzz/harness/lane"
	"github.com/difffuzz/difffuzz/harness/minimize"
	"github.com/difffuzz/difffuzz/internal/memlimit"
)

// withBudget holds the command to cfg.MaxMemory (0: memlimit.Default,
// negative: none): the runtime's memory limit, the collector at
// memlimit.ThriftyGC, the minimizer's candidates a call sized to it, and
// a watch on the resident set that ends the
// returned context, with a *memlimit.OverError as its cause, past it.
func withBudget(ctx context.Context, cfg Config, l *lane.Lane) (context.Context, func()) {
	budget := cfg.MaxMemory
	if budget == 0 {
		budget = memlimit.Default
	}
	unlimit := memlimit.Limit(budget, os.Getenv("GOMEMLIMIT"))
	restore := memlimit.Thrifty(os.Getenv("GOGC"))
	l.MaxCandidateBytes = minimize.BatchBytesFor(budget)
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
