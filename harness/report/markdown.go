package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/difffuzz/difffuzz/harness/compare"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// Markdown renders the report for a CI job summary.
func (r *Report) Markdown() []byte {
	var b strings.Builder
	status := "no divergence"
	switch {
	case r.Error != "":
		status = "error"
	case r.Exit == 1:
		status = fmt.Sprintf("%d new or stale divergences", r.newCount()+len(r.Stale))
	case len(r.Distinct) > 0:
		status = "only known divergences"
	}
	fmt.Fprintf(&b, "## difffuzz: %s\n\n", status)
	fmt.Fprintf(&b, "| cases | compared | duration | rate | seed | shard |\n|---|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| %d | %d | %.1fs | %.0f/s | %d | %d/%d |\n\n", r.Cases, r.Compared, r.Seconds, r.Rate, r.Seed, r.Shard, r.Shards)
	if r.Command != "" {
		fmt.Fprintf(&b, "Repeat with `%s`\n\n", r.Command)
	}
	if r.Error != "" {
		fmt.Fprintf(&b, "**Error:**\n\n```\n%s\n```\n\n", r.Error)
	}
	b.WriteString("### Adapters\n\n| adapter | implementation | version | batches | ms/batch | failures | protocol errors |\n|---|---|---|---|---|---|---|\n")
	for _, a := range r.Adapters {
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %.2f | %d | %d |\n", a.Name, a.Impl, a.Version, a.Batches, a.MeanBatchMs, a.Failures, a.ProtocolErrors)
	}
	for _, a := range r.Adapters {
		if a.Inexpressible > 0 {
			fmt.Fprintf(&b, "\n%s cannot express %s cases: its native value model cannot hold them, so they were not compared.\n", a.Name, a.InexpressibleText())
		}
	}
	fmt.Fprintf(&b, "\n### Distinct divergences: %d\n\n", len(r.Distinct))
	for _, g := range r.Distinct {
		input, label := g.Input(), "minimized input"
		if g.MinimizedInput == "" {
			label = "example (not minimized: " + g.notMinimizedText() + ") input"
		}
		if g.Twin != "" {
			label += "s, one a line (a collision: one digest for both)"
		}
		known := ""
		if g.KnownReason != "" {
			known = " — known: " + g.KnownReason
		}
		if g.MinimizeIncomplete {
			label += ", not 1-minimal: " + g.MinimizeNote
		}
		fmt.Fprintf(&b, "#### %s (%d findings)%s\n\n", codeSpan(g.Signature.String()), g.Count, known)
		if g.Unanimous {
			b.WriteString("Every implementation but the reference agrees on this; the reference stays the truth.\n\n")
		}
		g.markdownOrigins(&b)
		fmt.Fprintf(&b, "%s:\n\n```\n%s\n```\n\n```\n%s```\n\n", label, compare.Visible(clip.String(input, 2000)), clip.String(g.Diff, 4000))
	}
	r.profileMarkdown(&b)
	for _, sig := range r.Stale {
		fmt.Fprintf(&b, "- stale known divergence (no longer occurs): %s\n", codeSpan(sig))
	}
	b.WriteString("\n### Edge-class coverage\n\n| class | cases |\n|---|---|\n")
	for _, c := range r.Coverage {
		mark := ""
		if c.Cases == 0 {
			mark = " **never hit**"
		}
		fmt.Fprintf(&b, "| %s | %d%s |\n", c.Class, c.Cases, mark)
	}
	r.cellTable(&b)
	return []byte(b.String())
}

// markdownOrigins lists what a bucket was made of: the buckets merged
// into it, or the causes an overflow bucket folded.
func (g Group) markdownOrigins(b *strings.Builder) {
	if len(g.MergedFrom) > 0 {
		fmt.Fprintf(b, "Merged from %d buckets whose minimized examples show this cause:\n\n", len(g.MergedFrom))
		for _, sig := range g.MergedFrom {
			fmt.Fprintf(b, "- %s\n", codeSpan(sig))
		}
		b.WriteString("\n")
	}
	if len(g.Folded) > 0 {
		fmt.Fprintf(b, "Past the bucket limit, this bucket folded %s; the first %d:\n\n| cause | findings |\n|---|---|\n", g.FoldedText(), len(g.Folded))
		for _, f := range g.Folded {
			fmt.Fprintf(b, "| %s | %d |\n", codeSpan(compare.Visible(f.Cause)), f.Count)
		}
		b.WriteString("\n")
	}
}

// cellTable is the (class × context) coverage as a matrix: a row per class,
// a column per context, blank where the class cannot be in that context,
// and the cells never hit in bold.
func (r *Report) cellTable(b *strings.Builder) {
	if len(r.Cells) == 0 {
		return
	}
	var classes, contexts []string
	count := map[[2]string]uint64{}
	for _, c := range r.Cells {
		if !slices.Contains(classes, c.Class) {
			classes = append(classes, c.Class)
		}
		if !slices.Contains(contexts, c.Context) {
			contexts = append(contexts, c.Context)
		}
		count[[2]string{c.Class, c.Context}] = c.Cases
	}
	never := r.UnhitCells()
	fmt.Fprintf(b, "\n### Context coverage: %d of %d cells hit\n\n| class | %s |\n|---|%s\n",
		len(r.Cells)-len(never), len(r.Cells), strings.Join(contexts, " | "), strings.Repeat("---|", len(contexts)))
	for _, cl := range classes {
		fmt.Fprintf(b, "| %s |", cl)
		for _, ctx := range contexts {
			n, ok := count[[2]string{cl, ctx}]
			switch {
			case !ok:
				b.WriteString("  |")
			case n == 0:
				b.WriteString(" **0** |")
			default:
				fmt.Fprintf(b, " %d |", n)
			}
		}
		b.WriteString("\n")
	}
	if len(never) > 0 {
		fmt.Fprintf(b, "\nNever hit: %s\n", strings.Join(never, ", "))
	}
}

func (r *Report) newCount() int {
	n := 0
	for _, g := range r.Distinct {
		if g.KnownReason == "" {
			n++
		}
	}
	return n
}

func init() {
	Register(Format{Name: "markdown", Flag: "summary", Usage: "write a Markdown summary (for a CI job summary) to this `file`", Render: (*Report).Markdown})
}

// codeSpan is s as a Markdown code span, fenced with more backticks than s
// holds in a row (a cause may quote "`\"`").
func codeSpan(s string) string {
	run, longest := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
