package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/difffuzz/difffuzz/internal/atomicfile"
)

// Format is one way to write a report to a file. Each format registers
// itself from its own file, so that a new format is that file alone: the
// commands make a flag of every registered format and write each one asked
// for.
type Format struct {
	Name    string // the key of Outputs
	Flag    string // the command-line flag naming the file, without the dash
	Default string // the run's default file; "" means none
	Usage   string // the flag's help, with `file` for its argument
	Render  func(*Report) []byte
}

var formats []Format

// Register adds a format; the name and flag must be new.
func Register(f Format) {
	if slices.ContainsFunc(formats, func(g Format) bool { return g.Name == f.Name || g.Flag == f.Flag }) {
		panic("report: format " + f.Name + " registered twice")
	}
	formats = append(formats, f)
}

// Formats lists the registered formats in a fixed order (by name).
func Formats() []Format {
	out := slices.Clone(formats)
	slices.SortFunc(out, func(a, b Format) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Outputs maps a format's name to the file it goes to; a missing or empty
// entry writes nothing.
type Outputs map[string]string

// WriteAll writes the report in every format outputs asks for, each file
// whole or not at all, and returns one error per file that failed.
func (r *Report) WriteAll(outputs Outputs) []error {
	var errs []error
	for _, f := range Formats() {
		path := outputs[f.Name]
		if path == "" {
			continue
		}
		if err := atomicfile.WriteAll(path, f.Render(r)); err != nil {
			errs = append(errs, fmt.Errorf("%s report: %w", f.Name, err))
		}
	}
	return errs
}

// Describe says where outputs go, for a run's last lines: "report
// out/report.json, junit out/junit.xml".
func (o Outputs) Describe() string {
	s := ""
	for _, f := range Formats() {
		if p := o[f.Name]; p != "" {
			if s != "" {
				s += ", "
			}
			s += f.Name + " " + p
		}
	}
	return s
}

// memorySummary is the summary's line of memory: the driver's peak
// resident set against its budget, and each worker-backed adapter's
// largest peak; nothing when the report has no peak (a merged one).
func (r *Report) memorySummary(w io.Writer) {
	if r.DriverMaxRSS <= 0 {
		return
	}
	budget := "no budget"
	if r.MaxMemory > 0 {
		budget = fmt.Sprintf("a budget of %d MiB (-max-memory)", r.MaxMemory>>20)
	}
	var workers []string
	for _, a := range r.Adapters {
		if a.MaxRSS > 0 {
			workers = append(workers, fmt.Sprintf("%s %d", a.Name, a.MaxRSS>>20))
		}
	}
	fmt.Fprintf(w, "  memory: driver peak %d MiB of %s", r.DriverMaxRSS>>20, budget)
	if len(workers) > 0 {
		fmt.Fprintf(w, "; workers' peaks %s MiB", strings.Join(workers, ", "))
	}
	fmt.Fprintln(w)
}
