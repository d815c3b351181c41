package report

import (
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// The JUnit XML that CI systems read (the Ant/Jenkins schema): testsuites,
// testsuite, testcase with failure, error or skipped.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
	Skipped   *junitSkipped `xml:"skipped"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// JUnit renders the report for CI: each distinct divergence a failing test
// case with its minimized input and diff (skipped when the known list
// accepts it), each stale known entry a failure, and each pair of adapters a
// test case that passes when no new divergence separates them.
func (r *Report) JUnit() []byte {
	s := junitSuite{Name: "difffuzz", Time: fmt.Sprintf("%.3f", r.Seconds), Timestamp: r.Started.UTC().Format("2006-01-02T15:04:05")}
	for _, kv := range [][2]string{{"seed", fmt.Sprint(r.Seed)}, {"shard", fmt.Sprintf("%d/%d", r.Shard, r.Shards)},
		{"cases", fmt.Sprint(r.Cases)}, {"command", r.Command}} {
		s.Properties = append(s.Properties, junitProperty{kv[0], kv[1]})
	}
	if len(r.Cells) > 0 {
		never := r.UnhitCells()
		s.Properties = append(s.Properties, junitProperty{"context cells hit", fmt.Sprintf("%d of %d", len(r.Cells)-len(never), len(r.Cells))},
			junitProperty{"context cells never hit", strings.Join(never, ", ")})
	}
	for _, a := range r.Adapters {
		if a.Inexpressible > 0 {
			s.Properties = append(s.Properties, junitProperty{"inexpressible " + a.Name, a.InexpressibleText()})
		}
	}
	s.Cases = append(s.Cases, r.pairCases()...)
	for _, g := range r.Distinct {
		s.Cases = append(s.Cases, divergenceCase(g))
	}
	for _, sig := range r.Stale {
		s.Cases = append(s.Cases, junitCase{Name: "stale known divergence: " + sig, Classname: "difffuzz.known", Time: "0",
			Failure: &junitProblem{Message: "listed as known but no longer occurs", Type: "stale", Text: "remove it from the known list: " + sig}})
	}
	if r.Error != "" {
		s.Cases = append(s.Cases, junitCase{Name: "run", Classname: "difffuzz.run", Time: "0", Error: &junitProblem{Message: firstLine(r.Error), Type: "setup", Text: r.Error}})
	}
	for _, c := range s.Cases {
		s.Tests++
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Error != nil:
			s.Errors++
		case c.Skipped != nil:
			s.Skipped++
		}
	}
	all := junitSuites{Name: "difffuzz", Tests: s.Tests, Failures: s.Failures, Errors: s.Errors, Time: s.Time, Suites: []junitSuite{s}}
	out, _ := xml.MarshalIndent(all, "", "  ")
	return append([]byte(xml.Header), append(out, '\n')...)
}

func divergenceCase(g Group) junitCase {
	c := junitCase{Name: g.Signature.String(), Classname: "difffuzz.divergence", Time: "0"}
	if g.KnownReason != "" {
		c.Skipped = &junitSkipped{Message: "known: " + g.KnownReason}
		return c
	}
	var text strings.Builder
	fmt.Fprintf(&text, "input: %s\nfirst finding: %s\n", clip.String(g.Input(), 4000), g.First)
	if why := g.notMinimizedText(); !g.Minimized && why != "" {
		fmt.Fprintf(&text, "not minimized: %s\n", why)
	}
	if len(g.MergedFrom) > 0 {
		fmt.Fprintf(&text, "merged from %d: %s\n", len(g.MergedFrom), strings.Join(g.MergedFrom, "; "))
	}
	if len(g.Folded) > 0 {
		fmt.Fprintf(&text, "folded %s: %s\n", g.FoldedText(), foldedList(g.Folded, len(g.Folded)))
	}
	text.WriteString(g.Diff)
	c.Failure = &junitProblem{Message: fmt.Sprintf("%s (%d findings)", g.Signature, g.Count), Type: g.Kind, Text: text.String()}
	return c
}

// pairCases is a test case per adapter pair: it fails when some new
// divergence puts one of the two among the deviants and not the other.
func (r *Report) pairCases() []junitCase {
	var cases []junitCase
	for i, a := range r.Adapters {
		for _, b := range r.Adapters[i+1:] {
			c := junitCase{Name: a.Name + " agrees with " + b.Name, Classname: "difffuzz.agreement", Time: "0"}
			var split []string
			for _, g := range r.Distinct {
				if g.KnownReason == "" && g.Signature.Deviates(a.Name) != g.Signature.Deviates(b.Name) {
					split = append(split, g.Signature.String())
				}
			}
			if len(split) > 0 {
				c.Failure = &junitProblem{Message: fmt.Sprintf("%d divergences between %s and %s", len(split), a.Name, b.Name), Type: "divergence", Text: strings.Join(split, "\n")}
			}
			cases = append(cases, c)
		}
	}
	return cases
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func init() {
	Register(Format{Name: "junit", Flag: "junit", Usage: "write a JUnit XML report to this `file`", Render: (*Report).JUnit})
}
