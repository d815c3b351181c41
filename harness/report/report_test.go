package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/internal/cpumeter"
)

func sample() *Report {
	return &Report{
		Seed: 7, Shards: 1, Command: "difffuzz run -seed 7", Started: time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC),
		Seconds: 60, Cases: 1000, Compared: 1000, Rate: 16.7,
		Adapters: []AdapterReport{{Name: "python"}, {Name: "go"}, {Name: "ts"}},
		Distinct: []Group{
			{Signature: compare.MustParseSignature("key_order: keys in UTF-16 order: ts"), Kind: "key_order", Count: 3, Minimized: true, MinimizedInput: `{"tool_name":"","args":{"\uff61":0,"\ud83d\ude00":0}}`, Diff: "  diff <&>\n"},
			{Signature: compare.MustParseSignature("number: a number of 1e21 or more printed in full (want exponent form): go"), Kind: "number", Count: 1, Example: `{"tool_name":"","args":{"":1e21}}`},
		},
		Divergences: 4,
		Coverage:    []ClassCount{{"astral", 10}, {"too-deep", 0}},
		Exit:        1,
	}
}

// junitSchema is the part of the JUnit XML schema (the Ant/Jenkins one that
// CI systems read) that a report can break: which elements may appear where,
// and the attributes each must carry.
var junitSchema = map[string]struct {
	children []string
	required []string
}{
	"testsuites": {[]string{"testsuite"}, nil},
	"testsuite":  {[]string{"properties", "testcase", "system-out", "system-err"}, []string{"name", "tests", "failures", "errors", "time"}},
	"properties": {[]string{"property"}, nil},
	"property":   {nil, []string{"name", "value"}},
	"testcase":   {[]string{"failure", "error", "skipped", "system-out", "system-err"}, []string{"name", "classname", "time"}},
	"failure":    {nil, []string{"message", "type"}},
	"error":      {nil, []string{"message", "type"}},
	"skipped":    {nil, nil},
}

func validateJUnit(t *testing.T, data []byte) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []string
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed XML: %v", err)
			}
			break
		}
		switch el := tok.(type) {
		case xml.StartElement:
			name := el.Name.Local
			rule, known := junitSchema[name]
			if !known {
				t.Errorf("element <%s> is not in the JUnit schema", name)
			}
			if len(stack) == 0 && name != "testsuites" {
				t.Errorf("root is <%s>, want <testsuites>", name)
			}
			if len(stack) > 0 {
				parent := stack[len(stack)-1]
				if !contains(junitSchema[parent].children, name) {
					t.Errorf("<%s> may not contain <%s>", parent, name)
				}
			}
			for _, attr := range rule.required {
				if !hasAttr(el, attr) {
					t.Errorf("<%s> lacks the required attribute %q", name, attr)
				}
			}
			stack = append(stack, name)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func hasAttr(el xml.StartElement, name string) bool {
	for _, a := range el.Attr {
		if a.Name.Local == name {
			return true
		}
	}
	return false
}

func TestJUnitValidatesAndSaysWhatFailed(t *testing.T) {
	r := sample()
	markKnown(r, map[string]string{"number: a number of 1e21 or more printed in full (want exponent form): go": "tracked upstream"}, "digest: digest is not BLAKE3 of its own text: rust")
	data := r.JUnit()
	validateJUnit(t, data)
	var suites junitSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatal(err)
	}
	s := suites.Suites[0]
	// 3 pairs + 2 divergences + 1 stale entry.
	if s.Tests != 6 || s.Failures != 4 || s.Skipped != 1 {
		t.Errorf("tests %d failures %d skipped %d, want 6, 4, 1", s.Tests, s.Failures, s.Skipped)
	}
	text := string(data)
	for _, want := range []string{`name="key_order: keys in UTF-16 order: ts"`, `\uff61`, "diff &lt;&amp;&gt;", `name="python agrees with go"`, "stale known divergence: digest: digest is not BLAKE3 of its own text: rust", "known: tracked upstream"} {
		if !strings.Contains(text, want) {
			t.Errorf("JUnit lacks %q", want)
		}
	}
}

// markKnown marks r as a known list would: the reasons of the known
// signatures, and the stale ones.
func markKnown(r *Report, reasons map[string]string, stale ...string) {
	for i := range r.Distinct {
		if reason, ok := reasons[r.Distinct[i].Signature.String()]; ok {
			r.Distinct[i].KnownReason = reason
			r.Known = append(r.Known, r.Distinct[i].Signature.String())
		}
	}
	r.Stale = stale
}

func TestMarkdownAndSummary(t *testing.T) {
	r := sample()
	md := string(r.Markdown())
	for _, want := range []string{"## difffuzz: 2 new or stale divergences", "| 1000 | 1000 | 60.0s |", "#### `key_order: keys in UTF-16 order: ts` (3 findings)", "| too-deep | 0 **never hit** |", "Repeat with `difffuzz run -seed 7`"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	var b bytes.Buffer
	r.Summary(&b)
	for _, want := range []string{"edge classes never hit: too-deep", "bug 1: key_order: keys in UTF-16 order: ts (3 findings", "repeat with: difffuzz run -seed 7"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}

// A signature that quotes a backtick still makes one code span.
func TestCodeSpan(t *testing.T) {
	for in, want := range map[string]string{
		"key_order: keys in UTF-16 order: ts":            "`key_order: keys in UTF-16 order: ts`",
		"key_escape: a `\"` in a key left unescaped: go": "`` key_escape: a `\"` in a key left unescaped: go ``",
		"x ``y``": "``` x ``y`` ```",
	} {
		if got := codeSpan(in); got != want {
			t.Errorf("codeSpan(%q) = %q, want %q", in, got, want)
		}
	}
}

// What a bucket was made of and whether it was minimized is said in every
// format: the buckets merged into it, the causes an overflow bucket
// folded (with how many), and why an example was left as it came.
func TestOriginsAndNotMinimized(t *testing.T) {
	r := sample()
	r.Distinct[0].MergedFrom = []string{"collision: a key: go", "collision: a value: go"}
	r.Distinct[1].NotMinimized = NotMinimizedBudget
	r.Distinct = append(r.Distinct, Group{Signature: compare.MustParseSignature("internal: " + compare.OverflowCause + ": ts"), Kind: "internal", Cause: compare.OverflowCause,
		Count: 9, Example: "{}", NotMinimized: NotMinimizedInterrupted, FoldedCauses: 3,
		Folded: []FoldedCause{{"internal: no handler for abc", 5}, {"internal: no handler for xyz", 3}, {"internal: no handler for q", 1}}})
	var sum bytes.Buffer
	r.Summary(&sum)
	md, junit := string(r.Markdown()), string(r.JUnit())
	for _, tt := range []struct{ format, text, want string }{
		{"summary", sum.String(), "  merged from 2: their minimized examples show this one cause: collision: a key: go; collision: a value: go\n"},
		{"summary", sum.String(), "  not minimized: budget spent\n"},
		{"summary", sum.String(), "  not minimized: interrupted\n"},
		{"summary", sum.String(), "  folded 3 causes: internal: no handler for abc (5); internal: no handler for xyz (3); internal: no handler for q (1)\n"},
		{"markdown", md, "Merged from 2 buckets whose minimized examples show this cause:\n\n- `collision: a key: go`\n"},
		{"markdown", md, "example (not minimized: budget spent) input"},
		{"markdown", md, "this bucket folded 3 causes; the first 3:"},
		{"markdown", md, "| `internal: no handler for xyz` | 3 |"},
		{"junit", junit, "merged from 2: collision: a key: go; collision: a value: go"},
		{"junit", junit, "not minimized: interrupted"},
		{"junit", junit, "folded 3 causes: internal: no handler for abc (5)"},
	} {
		if !strings.Contains(tt.text, tt.want) {
			t.Errorf("%s lacks %q:\n%s", tt.format, tt.want, tt.text)
		}
	}
	validateJUnit(t, []byte(junit))
	if g := (Group{FoldedCauses: MaxFoldedCounted, FoldedMore: true}); g.FoldedText() != "more than 10000 causes" {
		t.Errorf("FoldedText past the bound = %q", g.FoldedText())
	}
	// A minimized bucket says so in JSON, with no reason; another, why not.
	var back Report
	if err := json.Unmarshal(r.JSON(), &back); err != nil {
		t.Fatal(err)
	}
	if g := back.Distinct[0]; !g.Minimized || g.NotMinimized != "" || len(g.MergedFrom) != 2 {
		t.Errorf("minimized bucket in JSON: %+v", g)
	}
	if g := back.Distinct[2]; g.Minimized || g.NotMinimized != NotMinimizedInterrupted || g.FoldedCauses != 3 || len(g.Folded) != 3 {
		t.Errorf("overflow bucket in JSON: %+v", g)
	}
	if !strings.Contains(string(r.JSON()), `"minimized": false`) {
		t.Errorf("the JSON report does not say \"minimized\": false of a bucket left as it came")
	}
}

// A report's steady span is written flat, its windows beside its own
// figures, as before the meter (internal/cpumeter) was a package of its own.
func TestSteadyJSON(t *testing.T) {
	s := Steady{Span: cpumeter.Span{Cases: 4, Seconds: 2, DriverCPUSeconds: 1, AdapterCPUSeconds: []float64{0}, BatchCPUSeconds: []float64{0.5}},
		Windows: []cpumeter.Span{{Cases: 2, Seconds: 1, DriverCPUSeconds: 0.5, AdapterCPUSeconds: []float64{0}, BatchCPUSeconds: []float64{0.25}}}}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"cases":4,"seconds":2,"driver_cpu_seconds":1,"adapter_cpu_seconds":[0],"batch_cpu_seconds":[0.5],` +
		`"windows":[{"cases":2,"seconds":1,"driver_cpu_seconds":0.5,"adapter_cpu_seconds":[0],"batch_cpu_seconds":[0.25]}]}`
	if string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}
}
