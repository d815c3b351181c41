package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// Page is what the -md page says besides the results, so that a reader can
// tell what made it and make it again.
type Page struct {
	Command string        // the command line that made the page
	Limit   time.Duration // the longest hunt of one mutant
	Took    time.Duration // the whole hunt, minimizations included
}

// Markdown is the page -md writes (docs/mutants.md under make mutants): what
// the hunt is, the command that made the page, the table and the summary.
// It is the make mutants counterpart of the survey's docs/survey.md.
func Markdown(rs []Result, p Page) string {
	var b strings.Builder
	b.WriteString(`# The mutant zoo, hunted

Each mutant of the zoo (adapters/go/zoo) is one implementation of canonical
JSON with one bug (` + "`bin/mutant -list`" + ` lists them). The hunt runs difffuzz
with each one as a worker (cmd/mutant) beside the in-process Go reference,
stops the run at its first divergence, and minimizes that finding with
difffuzz minimize.
"seconds" and "cases" are the time and the cases to the first divergence,
cases counted to the first diverging case; "signature" is that divergence's
bucket, its kind, cause and deviants (docs/triage.md); "minimized" is the size
of the smallest input still showing it, in extended JSON, and the input itself.
A collision mutant (its bug gives two different calls one digest:
docs/triage.md, "Collisions") is hunted to its first collision instead, and
its row shows the minimized pair, the two inputs joined by " ≍ ".

This page was made by

` + "```sh\n" + p.Command + "\n```\n" + `
in ` + p.Took.Round(time.Second).String() + `, and is rewritten by it (` + "`make mutants`" + ` runs it).

`)
	b.WriteString(Table(rs, p.Limit))
	return b.String()
}

// Table is the results as a Markdown table, one row a mutant, and the
// summary line.
func Table(rs []Result, limit time.Duration) string {
	var b strings.Builder
	b.WriteString("| mutant | bug | found | seconds | cases | signature | minimized (bytes) | minimized input |\n")
	b.WriteString("|---|---|---|---:|---:|---|---:|---|\n")
	for _, r := range rs {
		b.WriteString(row(r, limit))
	}
	fmt.Fprintf(&b, "\n%s\n", Summary(rs))
	return b.String()
}

// row is one mutant's row of the table.
func row(r Result, limit time.Duration) string {
	desc := cell(r.Desc)
	if !r.Found {
		return fmt.Sprintf("| `%s` | %s | **no** (%s) | > %.0f | | | | |\n", r.Name, desc, cell(r.Note), limit.Seconds())
	}
	size, input := "", cell(r.Note)
	if r.Minimized != "" {
		size, input = fmt.Sprint(len(r.Minimized)), code(clip.String(r.Minimized, 80))
	}
	return fmt.Sprintf("| `%s` | %s | yes | %.2f | %d | `%s` | %s | %s |\n", r.Name, desc, r.Seconds, r.Cases, cell(r.Signature), size, input)
}

// cell is s made safe for a table cell: no column breaks, no line breaks.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(s)
}

// code is s as an inline code span in a table cell, its delimiter one
// backtick longer than any run of backticks in s.
func code(s string) string {
	longest, run := 0, 0
	for _, c := range s {
		if c != '`' {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		return fence + " " + cell(s) + " " + fence
	}
	return fence + cell(s) + fence
}
