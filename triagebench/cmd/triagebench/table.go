package main

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/difffuzz/difffuzz/internal/atomicfile"
)

// Table is the results as Markdown: one row an implementation, the total,
// then each target with PASS or FAIL, and the closing verdict line.
func Table(impls []Impl, scores []Score) string {
	var b strings.Builder
	b.WriteString("| implementation | language | origin | models | cases | causes found | buckets | buckets per cause | labels right | mixed | overflow | minimized | minimization s |\n")
	b.WriteString("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for i, s := range scores {
		im := impls[i]
		b.WriteString(row("`"+s.Name+"`", im.Language, im.Origin, strings.Join(im.Models(), ", "), s))
	}
	b.WriteString(row("**total**", "", "", "", total(scores)))
	b.WriteString("\n| target | result | |\n|---|---|---|\n")
	vs := verdicts(scores)
	for _, v := range vs {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", v.Target, v.Got, passFail(v.Pass))
	}
	fmt.Fprintf(&b, "\n%s\n", Summary(scores))
	return b.String()
}

func row(name, lang, origin, models string, s Score) string {
	if s.Err != "" {
		return fmt.Sprintf("| %s | %s | %s | %s | **error** (%s) | | | | | | | | |\n", name, lang, origin, models, strings.NewReplacer("|", `\|`, "\n", " ").Replace(s.Err))
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %d | %d/%d | %d | %s | %s | %d | %d | %d/%d | %s |\n",
		name, lang, origin, models, s.Cases, s.Found, s.Causes, s.Buckets, ratio(s.PerCause()),
		percent(s.Right, s.Buckets), s.Mixed, s.Overflow, s.Minimized, s.Buckets, seconds(s))
}

// Summary is the closing line.
func Summary(scores []Score) string {
	t := total(scores)
	return fmt.Sprintf("triage-bench: %s: %d implementations, %d/%d true causes found, %d buckets, %s buckets per cause, %s labels right",
		passFail(passed(verdicts(scores))), len(scores), t.Found, t.Causes, t.Buckets, ratio(t.PerCause()), percent(t.Right, t.Buckets))
}

// Details lists, per implementation, the true causes no bucket was
// labeled with, the buckets labeled with no true cause (or several), and
// the mixed buckets with what their examples show: what to read first
// when a number is off.
func Details(scores []Score) string {
	var b strings.Builder
	for _, s := range scores {
		if s.Err == "" && len(s.Missed) == 0 && len(s.Unlabeled) == 0 && len(s.MixedLabels) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s:\n", s.Name)
		if s.Err != "" {
			fmt.Fprintf(&b, "  error: %s\n", s.Err)
		}
		for _, id := range s.Missed {
			fmt.Fprintf(&b, "  not found: %s\n", id)
		}
		for _, l := range s.Unlabeled {
			fmt.Fprintf(&b, "  no single true cause: %s\n", l)
		}
		for _, l := range s.MixedLabels {
			fmt.Fprintf(&b, "  mixed: %s\n", l)
		}
	}
	return b.String()
}

func passFail(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

func ratio(x float64) string {
	if math.IsInf(x, 1) {
		return "∞"
	}
	return fmt.Sprintf("%.2f", x)
}

func percent(n, of int) string {
	if of == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", n, of, 100*float64(n)/float64(of))
}

func count(n int) string { return fmt.Sprint(n) }

// seconds is the minimization time the reports give, and how many
// minimized buckets they give none for.
func seconds(s Score) string {
	switch {
	case s.Untimed == 0:
		return fmt.Sprintf("%.1f", s.MinimizeSeconds)
	case s.Untimed == s.Minimized:
		return "n/a"
	}
	return fmt.Sprintf("%.1f + %d n/a", s.MinimizeSeconds, s.Untimed)
}

// markers are the lines between which -md writes, in a page that may hold
// several result sets (such as "before" and "latest"), told apart by label.
func markers(label string) (begin, end string) {
	return "<!-- triage-bench " + label + " begin -->", "<!-- triage-bench " + label + " end -->"
}

// splice is page with what lies between the label's markers replaced by
// body; the markers must be there, once each, in order.
func splice(page, label, body string) (string, error) {
	begin, end := markers(label)
	i, j := strings.Index(page, begin), strings.Index(page, end)
	if i < 0 || j < i || strings.Count(page, begin) != 1 || strings.Count(page, end) != 1 {
		return "", fmt.Errorf("want the lines %q and %q once each, in that order", begin, end)
	}
	return page[:i+len(begin)] + "\n" + body + page[j:], nil
}

// writeMarkdown writes body between the label's markers of the page at path.
func writeMarkdown(path, label, body string) error {
	page, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := splice(string(page), label, body)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return atomicfile.Write(path, []byte(out))
}
