// Package triage decides what a run's findings mean: it holds a report to
// the known list, sets the exit status by the one exit policy, writes the
// report in every format asked for, merges the shards of a sharded run, and
// promotes a minimized finding into the golden fixtures. It never touches
// an adapter.
package triage

import "github.com/difffuzz/difffuzz/harness/report"

// Exit statuses of every command, defined here alone.
const (
	ExitOK         = 0 // every adapter agreed on every case
	ExitDivergence = 1 // a new divergence, or a known-list entry gone stale
	ExitSetup      = 2 // usage, setup or internal error
	// ExitInterrupted is a run stopped by Ctrl-C (or SIGTERM) after it wrote
	// every finding and its report, 128+SIGINT as shells report it: a CI job
	// must not take an interrupted run for a clean one.
	ExitInterrupted = 130
)

// Status is the exit policy: an error is 2, an interrupted run 130, a
// divergence the known list does not accept or a stale entry of it 1, and
// anything else 0. Without a known list every divergence is new.
func Status(r *report.Report, interrupted bool) int {
	switch {
	case r.Error != "":
		return ExitSetup
	case interrupted:
		return ExitInterrupted
	case len(r.Stale) > 0:
		return ExitDivergence
	}
	for _, g := range r.Distinct {
		if g.KnownReason == "" {
			return ExitDivergence
		}
	}
	return ExitOK
}
