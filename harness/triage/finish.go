package triage

import (
	"errors"
	"fmt"
	"io"

	"github.com/difffuzz/difffuzz/harness/report"
)

// Policy is how a finished report is judged and where it goes.
type Policy struct {
	// KnownPath is the list of accepted divergences; "" means none.
	// UpdateKnown rewrites it to the report's divergences first.
	KnownPath   string
	UpdateKnown bool
	// CheckStale lists the known entries the report lacks as stale: only a
	// whole, uninterrupted run sees the whole case space.
	CheckStale  bool
	Interrupted bool
	Outputs     report.Outputs
}

// Finish holds the report to the known list, sets its exit status, writes
// it everywhere p asks and prints the summary. A known list or a file that
// cannot be read or written makes the status 2: the run's outcome would
// otherwise be lost.
func Finish(rep *report.Report, p Policy, stdout, stderr io.Writer) {
	if p.KnownPath != "" {
		if err := applyKnown(rep, p, stderr); err != nil {
			rep.Error = err.Error()
		}
	}
	rep.Exit = Status(rep, p.Interrupted)
	failed := false
	for _, err := range rep.WriteAll(p.Outputs) {
		fmt.Fprintf(stderr, "difffuzz: %v\n", err)
		failed = true
	}
	if failed {
		rep.Exit = ExitSetup
	}
	rep.Summary(stdout)
}

func applyKnown(rep *report.Report, p Policy, stderr io.Writer) error {
	k, err := LoadKnown(p.KnownPath)
	var old *OldFormError
	if err != nil && !(p.UpdateKnown && errors.As(err, &old)) {
		return err
	}
	if p.UpdateKnown {
		if err := k.Update(p.KnownPath, rep); err != nil {
			return err
		}
		if k, err = LoadKnown(p.KnownPath); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "difffuzz: rewrote %s with %d entries\n", p.KnownPath, len(rep.Distinct))
	}
	k.Mark(rep, p.CheckStale)
	return nil
}
