package memlimit

import (
	"fmt"
	"time"

	"github.com/difffuzz/difffuzz/internal/procstat"
)

// OverError says a process went over its budget, and how to raise it.
type OverError struct {
	RSS, Budget int64
	Flag        string // the flag that sets the budget, for the message
}

func (e *OverError) Error() string {
	return fmt.Sprintf("the driver's resident set reached %v, over its budget of %v: it stopped rather than be killed; "+
		"raise the budget with %s SIZE where the machine has the memory, or hold less at once (a smaller -batch, fewer -workers)",
		Size(e.RSS), Size(e.Budget), e.Flag)
}

// Slack is how far above the budget the resident set may go before Watch
// gives up: the runtime's limit covers only its own memory, and it lets
// the heap stand above the limit for a moment rather than collect
// without end (its collector takes at most half the CPU).
const Slack = 1.10

// Watch reads the process's resident set every interval and calls over,
// once, when it is more than Slack times budget; stop ends the watching.
// A budget <= 0 watches nothing.
func Watch(budget int64, every time.Duration, flag string, over func(error)) (stop func()) {
	done := make(chan struct{})
	if budget <= 0 {
		return func() {}
	}
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if rss := procstat.CurrentRSS(); float64(rss) > Slack*float64(budget) {
					over(&OverError{RSS: rss, Budget: budget, Flag: flag})
					return
				}
			}
		}
	}()
	return func() { close(done) }
}
