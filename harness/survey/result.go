package survey

import (
	"sort"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/harness/panel"
)

// Result is a whole survey, as out/survey.json holds it and the pages show it.
type Result struct {
	Command   string   `json:"command"`
	Seed      uint64   `json:"seed"`
	Cases     int      `json:"cases"`
	Reference Who      `json:"reference"`
	Classes   []string `json:"classes"` // the matrix's columns, in order
	// Contracts are the contracts the libraries claim, one matrix each, in
	// the order of their first library.
	Contracts []string   `json:"contracts"`
	Libraries []*Library `json:"libraries"`
}

// Who is an implementation as its hello names it.
type Who struct {
	Adapter  string `json:"adapter"`
	Package  string `json:"package"`
	Version  string `json:"version"`
	Language string `json:"language"`
	Model    string `json:"model"`
}

// Library is one library's row of the matrix and its divergences.
type Library struct {
	Name string `json:"name"` // the adapter's name in survey.toml
	Who
	// Contract is the contract the library claims, and was judged by: the
	// reference followed it. ContractNote says why, when the library claims
	// none and Contract is the nearest built-in.
	Contract     string `json:"contract"`
	ContractNote string `json:"contract_note,omitempty"`
	// Error is why the library could not be surveyed (or not to the end);
	// its counts are then partial or empty.
	Error         string `json:"error,omitempty"`
	Cases         int    `json:"cases"`
	Agree         int    `json:"agree"`
	Diverge       int    `json:"diverge"`
	Inexpressible int    `json:"inexpressible"`
	// Reasons counts the inexpressible cases by the reason the library's
	// value model gave (big_int, duplicate_key, ...): what its "cannot
	// express" share is made of.
	Reasons     map[string]int `json:"reasons,omitempty"`
	Seconds     float64        `json:"seconds"`
	Cells       []*Cell        `json:"cells"` // one per Result.Classes, in order
	Divergences []*Divergence  `json:"divergences"`
	// Profile is what the library does that its contract allows (its own
	// exceptions, a nesting limit of its own): counted as agreeing, shown
	// apart from the divergences (profile.go).
	Profile []*Trait `json:"profile,omitempty"`
}

// Cell counts the cases of one edge class that one library was given.
type Cell struct {
	Class         string `json:"class"`
	Cases         int    `json:"cases"`
	Agree         int    `json:"agree"`
	Diverge       int    `json:"diverge"`
	Inexpressible int    `json:"inexpressible"`
	// Kinds counts the diverging cases by signature.
	Kinds map[string]int `json:"kinds,omitempty"`
	// Reasons counts the inexpressible cases by reason.
	Reasons map[string]int `json:"reasons,omitempty"`
	// Own counts the class's own cases, those where it is the only edge
	// class: a bug of another class cannot come first in them, so they
	// alone say whether the library handles this class. The cell's verdict
	// comes from them when there are any.
	Own Counts `json:"own"`
}

// Counts are a cell's cases by outcome, and the diverging ones by
// signature.
type Counts struct {
	Cases         int            `json:"cases"`
	Agree         int            `json:"agree"`
	Diverge       int            `json:"diverge"`
	Inexpressible int            `json:"inexpressible"`
	Kinds         map[string]int `json:"kinds,omitempty"`
}

// add counts one case.
func (c *Counts) add(j panel.Judged) {
	c.Cases++
	switch {
	case j.Outs[1].Absent():
		c.Inexpressible++
	case !j.Verdict.Agree:
		c.Diverge++
		for _, s := range j.Signatures {
			c.Kinds = inc(c.Kinds, s.String())
		}
	default:
		c.Agree++
	}
}

// Divergence is one distinct way a library differs from the reference: a
// signature, how often it came first, and one minimized example.
type Divergence struct {
	Signature compare.Signature `json:"signature"`
	Count     int               `json:"count"`
	Classes   []string          `json:"classes"` // classes of the cases that showed it
	// Input is the minimized example in extended JSON; Original is the
	// first case that showed the divergence, before minimizing.
	Input     string `json:"input"`
	Original  string `json:"original"`
	Reference string `json:"reference"` // the reference's answer to Input
	Library   string `json:"library"`   // the library's answer to Input
	Minimized bool   `json:"minimized"` // 1-minimal; false if time ran out or it was not tried
	Rounds    int    `json:"rounds"`
	Note      string `json:"note,omitempty"`
	// Reading is a person's check of the divergence against the text of
	// the library's contract, if there is one (Result.Read).
	Reading *Reading `json:"reading,omitempty"`

	first    any // the first example, as a value
	classSet gen.Classes
}

// State is a cell's verdict for the picture and the page.
type State string

// The states of a cell, from the best to the worst.
const (
	StateEmpty     State = "no cases"
	StateAgrees    State = "agrees"
	StatePartial   State = "agrees or cannot express"
	StateNoExpress State = "cannot express"
	StateDiverges  State = "diverges"
)

// State is the cell's verdict from its own cases when it has any (see
// Own), else from all its cases: diverges if any case did.
func (c *Cell) State() State {
	n := c.Verdict()
	switch {
	case n.Cases == 0:
		return StateEmpty
	case n.Diverge > 0:
		return StateDiverges
	case n.Inexpressible == n.Cases:
		return StateNoExpress
	case n.Inexpressible > 0:
		return StatePartial
	}
	return StateAgrees
}

// Verdict is the counts the cell's verdict comes from: its own cases, or
// all of them when it has none of its own.
func (c *Cell) Verdict() Counts {
	if c.Own.Cases > 0 {
		return c.Own
	}
	return Counts{Cases: c.Cases, Agree: c.Agree, Diverge: c.Diverge, Inexpressible: c.Inexpressible, Kinds: c.Kinds}
}

// classNames are the matrix's columns: every edge class, then "none" for
// cases that carry no class.
func classNames() []string {
	var out []string
	for _, c := range gen.List() {
		out = append(out, c.String())
	}
	return append(out, gen.Classes(0).String())
}

func describe(name string, a adapter.Adapter) Who {
	h := a.Hello()
	model := h.Model
	if model == "" {
		model = "exact"
	}
	return Who{Adapter: name, Package: h.Name, Version: h.Version, Language: h.Language, Model: model}
}

func newLibrary(lib Spec, a adapter.Adapter) *Library {
	lr := &Library{Name: lib.Name, Who: describe(lib.Name, a), Contract: contractOf(lib).Name, ContractNote: lib.ContractNote}
	for _, c := range classNames() {
		lr.Cells = append(lr.Cells, &Cell{Class: c})
	}
	return lr
}

// add counts one case under every class it carries.
func (lr *Library) add(classes gen.Classes, input any, j panel.Judged) {
	lr.Cases++
	lib := j.Outs[1]
	switch {
	case lib.Absent():
		lr.Inexpressible++
		lr.Reasons = inc(lr.Reasons, lib.Inexpressible)
	case !j.Verdict.Agree:
		lr.Diverge++
		lr.divergence(classes, input, j)
	default:
		lr.Agree++
		lr.allowed(input, j)
	}
	for _, cell := range lr.cellsOf(classes) {
		cell.Cases++
		switch {
		case lib.Absent():
			cell.Inexpressible++
			cell.Reasons = inc(cell.Reasons, lib.Inexpressible)
		case !j.Verdict.Agree:
			cell.Diverge++
			for _, s := range j.Signatures {
				cell.Kinds = inc(cell.Kinds, s.String())
			}
		default:
			cell.Agree++
		}
		if classes&(classes-1) == 0 { // at most one class: the cell's own case
			cell.Own.add(j)
		}
	}
}

// cellsOf is the cells of the classes a case carries ("none" if it has none).
func (lr *Library) cellsOf(classes gen.Classes) []*Cell {
	if classes == 0 {
		return lr.Cells[len(lr.Cells)-1:]
	}
	var out []*Cell
	for i, c := range gen.List() {
		if classes.Has(c) {
			out = append(out, lr.Cells[i])
		}
	}
	return out
}

// divergence records a diverging case under each of its signatures, keeping
// the first example of each.
func (lr *Library) divergence(classes gen.Classes, input any, j panel.Judged) {
	for _, s := range j.Signatures {
		d := lr.find(s)
		if d == nil {
			d = &Divergence{Signature: s, first: input}
			lr.Divergences = append(lr.Divergences, d)
		}
		d.Count++
		d.classSet |= classes
	}
}

func (lr *Library) find(sig compare.Signature) *Divergence {
	for _, d := range lr.Divergences {
		if d.Signature.Equal(sig) {
			return d
		}
	}
	return nil
}

// sortDivergences puts the most frequent first and fills in their classes.
func (lr *Library) sortDivergences() {
	sort.SliceStable(lr.Divergences, func(i, j int) bool { return lr.Divergences[i].Count > lr.Divergences[j].Count })
	for _, d := range lr.Divergences {
		d.Classes = nil
		for _, c := range gen.List() {
			if d.classSet.Has(c) {
				d.Classes = append(d.Classes, c.String())
			}
		}
	}
}

func inc(m map[string]int, k string) map[string]int {
	if m == nil {
		m = map[string]int{}
	}
	m[k]++
	return m
}

// answer renders an outcome for the page: the canonical text, or what
// happened instead.
func answer(o compare.Outcome) string {
	switch {
	case o.Absent():
		return "cannot express: " + o.Inexpressible
	case o.Failure != "":
		return string(o.Failure) + ": " + oneLine(o.Detail)
	case o.Error != "":
		s := "error " + o.Error
		if o.Error == "internal" && o.Detail != "" {
			s += ": " + oneLine(o.Detail)
		}
		return s
	}
	return string(o.Canonical)
}

// oneLine keeps the first line of a message, at most 200 bytes.
func oneLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			s = s[:i]
			break
		}
	}
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
