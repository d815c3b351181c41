package survey

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/internal/clip"
)

// WriteJSON writes the result as out/survey.json holds it.
func WriteJSON(w io.Writer, r *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("survey json: %w", err)
	}
	return nil
}

// WriteMarkdown writes docs/survey.md: the picture, how it was made, the
// libraries, the matrix as text, and each library's minimized divergences.
// svgName is the picture's path relative to the page.
func WriteMarkdown(w io.Writer, r *Result, svgName string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Canonical JSON libraries against the contract each claims\n\n")
	if svgName != "" {
		fmt.Fprintf(&b, "![library × edge class](%s)\n\n", svgName)
	}
	writeIntro(&b, r)
	writeLibraries(&b, r)
	writeMatrices(&b, r)
	writeReadings(&b, r)
	for _, lib := range r.Libraries {
		writeDivergences(&b, lib)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeIntro(b *strings.Builder, r *Result) {
	fmt.Fprintf(b, "Each library ran the same generated cases (seed %d, from index 0 on, until it had\n", r.Seed)
	fmt.Fprintf(b, "compared %d of them) through a worker on its\n", r.Cases)
	fmt.Fprintf(b, "language's kit, in its native value model, and was compared byte for byte with\n")
	fmt.Fprintf(b, "the reference, %s %s (%s), following the contract the library claims\n", r.Reference.Package, r.Reference.Version, r.Reference.Adapter)
	fmt.Fprintf(b, "(the built-ins, side by side, are in [canonical-json.md](canonical-json.md)): `rfc8785` for a\n")
	fmt.Fprintf(b, "JCS library, and for a library that claims no contract the nearest built-in, with why.\n")
	fmt.Fprintf(b, "The cases follow the contract too: every library of one contract is sent the same\n")
	fmt.Fprintf(b, "cases, and under `rfc8785` they are any JSON value at the top (not this project's\n")
	fmt.Fprintf(b, "`{\"tool_name\",\"args\"}` envelope), NaN and integers no double holds only as\n")
	fmt.Fprintf(b, "out-of-domain inputs, with ES6 number boundaries and UTF-16 order traps weighted.\n")
	fmt.Fprintf(b, "A library \"diverges\" on a case when its text (or its error) is not its contract's\n")
	fmt.Fprintf(b, "and not one the contract allows: what `rfc8785` leaves open (a library's own exception\n")
	fmt.Fprintf(b, "where the reference names a code, a nesting limit of its own or none, big integers read\n")
	fmt.Fprintf(b, "as doubles) agrees, and is listed apart, as the library's profile, under its name,\n")
	fmt.Fprintf(b, "and \"cannot express\" it when its value model cannot hold the case at all (a repeated\n")
	fmt.Fprintf(b, "key in a dict, an integer past 2^53 in a float, a lone surrogate in a string), so it\n")
	fmt.Fprintf(b, "was never called; the libraries' table gives each library's share with its model's\n")
	fmt.Fprintf(b, "reasons. Under `rfc8785` nearly all of it is `big_int`: the generator draws the\n")
	fmt.Fprintf(b, "integer classes (`int-2^53`, `int-2^64`, `int-big`) as integers a double holds exactly\n")
	fmt.Fprintf(b, "(2^60, 10^21), which a JCS library would read as that double, but the Go and\n")
	fmt.Fprintf(b, "TypeScript kits' native models refuse every integer past ±2^53, exact in a double or\n")
	fmt.Fprintf(b, "not, and the Rust kit's every one outside i64 and u64; the Python kits hold any integer.\n")
	fmt.Fprintf(b, "The rest is the out-of-domain inputs a model cannot hold (a repeated key, a lone\n")
	fmt.Fprintf(b, "surrogate, bytes, a non-string key, NaN in serde_json).\n")
	fmt.Fprintf(b, "A case carries every edge class it exercises; `none` is the cases\n")
	fmt.Fprintf(b, "that carry none. A cell's verdict comes from the class's own cases, those where it is\n")
	fmt.Fprintf(b, "the only edge class, so that another class's bug cannot come first in them: a\n")
	fmt.Fprintf(b, "`float-format` cell says whether the library formats floats. A cell marked * had no\n")
	fmt.Fprintf(b, "case of its own, and its verdict comes from every case that carries the class. Each\n")
	fmt.Fprintf(b, "library then lists its distinct root causes, each with a minimized example; a\n")
	fmt.Fprintf(b, "divergence is named by its cause as the fuzzing run names it ([triage.md](triage.md)).\n")
	fmt.Fprintf(b, "In the examples below, a character that would not show (a control\n")
	fmt.Fprintf(b, "character, DEL, U+2028, a byte order mark) that a library wrote raw is shown as ⟨U+XXXX⟩.\n\n")
	fmt.Fprintf(b, "This page was made by\n\n```sh\n%s\n```\n\n", r.Command)
	fmt.Fprintf(b, "and is rewritten by it; the same data is in `out/survey.json`. Each library's contract\n")
	fmt.Fprintf(b, "is its `contract` key in `survey/survey.toml`; `-contract NAME` judges every library\n")
	fmt.Fprintf(b, "by one contract instead (`-contract difffuzz`: all of them by this project's).\n\n")
}

func writeLibraries(b *strings.Builder, r *Result) {
	fmt.Fprintf(b, "## Libraries\n\n")
	fmt.Fprintf(b, "| library | contract | language | package | version | agrees | diverges | cannot express | distinct divergences |\n")
	fmt.Fprintf(b, "|---|---|---|---|---|---:|---:|---:|---|\n")
	for _, l := range r.Libraries {
		if l.Error != "" && l.Cases == 0 {
			fmt.Fprintf(b, "| %s | %s | | | | | | | not run: %s |\n", l.Name, contractCell(l), cell(l.Error))
			continue
		}
		var sigs []string
		for _, d := range l.Divergences {
			sigs = append(sigs, cell(causeOf(d.Signature)))
		}
		fmt.Fprintf(b, "| %s | %s | %s | `%s` | %s | %s | %s | %s | %s |\n", l.Name, contractCell(l), l.Language, l.Package, l.Version,
			percent(l.Agree, l.Cases), percent(l.Diverge, l.Cases), cannotExpress(l), strings.Join(sigs, ", "))
	}
	fmt.Fprintf(b, "\n")
}

// cannotExpress is a library's "cannot express" share with the reasons it
// is made of, the most frequent first, each a share of the cases sent:
// "46% (big_int 45%, duplicate_key <1%)".
func cannotExpress(l *Library) string {
	s := percent(l.Inexpressible, l.Cases)
	if len(l.Reasons) == 0 {
		return s
	}
	reasons := make([]string, 0, len(l.Reasons))
	for r := range l.Reasons {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		ni, nj := l.Reasons[reasons[i]], l.Reasons[reasons[j]]
		return ni > nj || ni == nj && reasons[i] < reasons[j]
	})
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = r + " " + percent(l.Reasons[r], l.Cases)
	}
	return s + " (" + strings.Join(parts, ", ") + ")"
}

// contractCell is a library's contract for the table, with why when it
// claims none.
func contractCell(l *Library) string {
	if l.ContractNote == "" {
		return "`" + l.Contract + "`"
	}
	return "`" + l.Contract + "` (" + cell(l.ContractNote) + ")"
}

// writeMatrices writes one matrix for each contract, of the libraries that
// claim it: a cell says how a library keeps its own contract.
func writeMatrices(b *strings.Builder, r *Result) {
	for _, c := range r.Contracts {
		var libs []*Library
		for _, l := range r.Libraries {
			if l.Contract == c {
				libs = append(libs, l)
			}
		}
		writeMatrix(b, r.Classes, c, libs)
	}
}

// writeMatrix is the picture as a table, for the libraries of one
// contract: ✓ agrees on every case, ✗ and the share that diverges, ∅ and
// the share that cannot be expressed.
func writeMatrix(b *strings.Builder, classes []string, contract string, libs []*Library) {
	fmt.Fprintf(b, "## The matrix: contract `%s`\n\n", contract)
	fmt.Fprintf(b, "The libraries judged by `%s`. ✓ every case agrees; ✗ *n*%% of the class's cases diverge\n", contract)
	fmt.Fprintf(b, "(the most frequent kind follows); ∅ *n*%% cannot be expressed in the library's value\n")
	fmt.Fprintf(b, "model; blank: no cases.\n\n")
	fmt.Fprintf(b, "| class |")
	for _, l := range libs {
		fmt.Fprintf(b, " %s |", l.Name)
	}
	fmt.Fprintf(b, "\n|---|%s\n", strings.Repeat("---|", len(libs)))
	for i, class := range classes {
		fmt.Fprintf(b, "| `%s` |", class)
		for _, l := range libs {
			fmt.Fprintf(b, " %s |", matrixCell(l, i))
		}
		fmt.Fprintf(b, "\n")
	}
	fmt.Fprintf(b, "\n")
}

func matrixCell(l *Library, i int) string {
	if i >= len(l.Cells) || l.Cells[i].Cases == 0 {
		return ""
	}
	c := l.Cells[i]
	n, mark := c.Verdict(), ""
	if c.Own.Cases == 0 {
		mark = "*"
	}
	var parts []string
	if n.Diverge > 0 {
		parts = append(parts, "✗ "+percent(n.Diverge, n.Cases)+" "+cell(causeOfText(topKey(n.Kinds))))
	}
	if n.Inexpressible > 0 {
		parts = append(parts, "∅ "+percent(n.Inexpressible, n.Cases))
	}
	if len(parts) == 0 {
		return "✓" + mark
	}
	return strings.Join(parts, " · ") + mark
}

// verdictText is a reading's verdict as the page says it.
var verdictText = map[Verdict]string{
	VerdictBreaks:   "**the library breaks it**",
	VerdictContract: "the text allows the library's answer, the built-in settles the point",
	VerdictHarness:  "the library does what the text asks, its worker or value model reports it otherwise",
}

// writeReadings lists, for each contract, every divergence of its
// libraries with the section a person checked it against, so that a
// library's real departures from its own contract read at a glance.
func writeReadings(b *strings.Builder, r *Result) {
	fmt.Fprintf(b, "## Divergences checked against the contract's text\n\n")
	fmt.Fprintf(b, "Each divergence below was minimized, then read by hand beside the text of the\n")
	fmt.Fprintf(b, "library's contract (`survey/readings.toml`; a reading whose divergence is gone is\n")
	fmt.Fprintf(b, "reported by the survey). *breaks*: a departure of the library's; *contract*: the text\n")
	fmt.Fprintf(b, "allows the library's answer and the built-in settles the point; *harness*: the library\n")
	fmt.Fprintf(b, "does what the text asks, and its worker or value model reports it otherwise.\n\n")
	for _, c := range r.Contracts {
		fmt.Fprintf(b, "### Contract `%s`\n\n", c)
		fmt.Fprintf(b, "| library | divergence | cases | checked against | verdict |\n|---|---|---:|---|---|\n")
		for _, l := range r.Libraries {
			if l.Contract != c {
				continue
			}
			for _, d := range l.Divergences {
				section, verdict := "not checked", ""
				if d.Reading != nil {
					section, verdict = d.Reading.Section, string(d.Reading.Verdict)
				}
				fmt.Fprintf(b, "| %s | %s | %d | %s | %s |\n", l.Name, cell(causeOf(d.Signature)), d.Count, cell(section), verdict)
			}
		}
		fmt.Fprintf(b, "\n")
	}
}

// writeDivergences lists one library's distinct divergences, each with its
// minimized example and both answers.
func writeDivergences(b *strings.Builder, l *Library) {
	fmt.Fprintf(b, "## %s\n\n", l.Name)
	fmt.Fprintf(b, "`%s` %s (%s, %s model), judged by the contract %s, %d cases sent, %d compared, in %.1fs.",
		l.Package, l.Version, l.Language, l.Model, contractCell(l), l.Cases, l.Agree+l.Diverge, l.Seconds)
	if l.Error != "" {
		fmt.Fprintf(b, " Stopped: %s.", l.Error)
	}
	fmt.Fprintf(b, "\n\n")
	if len(l.Divergences) == 0 {
		fmt.Fprintf(b, "No divergence.\n\n")
	}
	writeProfile(b, l)
	for _, d := range l.Divergences {
		fmt.Fprintf(b, "### %s: %d cases (%s)\n\n", cell(causeOf(d.Signature)), d.Count, percent(d.Count, l.Cases))
		fmt.Fprintf(b, "In cases of the classes %s.", codeList(d.Classes))
		if !d.Minimized {
			fmt.Fprintf(b, " The example is not 1-minimal (time ran out).")
		}
		if d.Note != "" {
			fmt.Fprintf(b, " %s.", d.Note)
		}
		if d.Reading != nil {
			fmt.Fprintf(b, "\n\nChecked by hand against %s (%s): %s.", d.Reading.Section, verdictText[d.Reading.Verdict], d.Reading.Note)
		}
		fmt.Fprintf(b, "\n\n```text\ninput      %s\nreference  %s\n%-10s %s\n```\n\n", shown(d.Input), shown(d.Reference), l.Name, shown(d.Library))
	}
}

// causeOf is a signature's kind and cause, without the adapter names, as
// "`string_escape`: non-ASCII written raw (want \uXXXX)".
func causeOf(s compare.Signature) string {
	return "`" + string(s.Kind) + "`: " + compare.Visible(s.Cause)
}

// causeOfText is causeOf of a signature's text form, a key of Counts.Kinds
// (a map's key must be comparable, and a signature holds a slice).
func causeOfText(text string) string {
	var s compare.Signature
	if err := s.UnmarshalText([]byte(text)); err != nil {
		return text
	}
	return causeOf(s)
}

// kindOf is a signature's kind, without the adapter names.
func kindOf(s compare.Signature) string {
	return string(s.Kind)
}

// topKey is the key with the largest count, the first in order on a tie.
func topKey(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	best := ""
	for _, k := range keys {
		if best == "" || m[k] > m[best] {
			best = k
		}
	}
	return best
}

func codeList(xs []string) string {
	if len(xs) == 0 {
		return "`none`"
	}
	return "`" + strings.Join(xs, "`, `") + "`"
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", "\\|") }

// shown keeps an example readable on the page: at most 600 bytes, and a
// character that would not show (a control character, DEL, U+2028, a BOM)
// written as ⟨U+XXXX⟩, since a library may write it raw.
func shown(s string) string {
	s = clip.String(s, 600)
	var b strings.Builder
	for _, r := range s {
		if unicode.IsPrint(r) || r == ' ' {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		}
	}
	return b.String()
}
