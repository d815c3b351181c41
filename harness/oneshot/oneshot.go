// Package oneshot runs given inputs through the adapters once: check (JSON
// lines from a file or stdin), replay (saved corpus entries) and minimize
// (one finding, shrunk and saved beside it). Each is one lane, judged with
// text, never the fuzzing loop.
package oneshot

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/minimize"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/value"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// Config configures check, replay and minimize: the adapters and where the
// output goes.
type Config struct {
	Adapters  []adapter.Spec
	JSON      bool   // check: one JSON object per input line
	CorpusDir string // minimize: where the result goes; "" means beside the input
	Verbose   bool
	// MaxMemory is the driver's memory budget in bytes (memory.go); 0
	// means memlimit.Default, negative no budget.
	MaxMemory int64
	Stdout    io.Writer
	Stderr    io.Writer
}

// Input is one case of check's input and the line it came from.
type Input struct {
	Line  int
	Value any
}

// ReadLines parses JSON lines of extended JSON, one case a line; blank lines
// are skipped. Every malformed line is reported at its one position,
// name:line:column, and an input with no case at all is an error too.
func ReadLines(name string, r io.Reader) ([]Input, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), value.MaxTextSize)
	var vals []Input
	var errs []error
	for line := 1; sc.Scan(); line++ {
		text := sc.Bytes()
		if len(trimSpace(text)) == 0 {
			continue
		}
		v, err := value.Parse(text)
		if err != nil {
			errs = append(errs, lineError(name, line, err))
			continue
		}
		vals = append(vals, Input{line, v})
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", name, err))
	}
	if len(errs) > 0 {
		return nil, joinLines(errs)
	}
	if len(vals) == 0 {
		return nil, fmt.Errorf("%s: no case: the input is empty (each line is one case in extended JSON)", name)
	}
	return vals, nil
}

// lineError places a parse error at name:line:column, and says what a line
// must hold: a pretty-printed value spread over lines ends early.
func lineError(name string, line int, err error) error {
	var se *value.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s:%d:%d: %s (each line is one case: one value of extended JSON on one line)", name, line, se.Col, se.Msg)
	}
	return fmt.Errorf("%s:%d: %w", name, line, err)
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

type lineErrors []error

func (e lineErrors) Error() string {
	s := ""
	for i, err := range e {
		if i > 0 {
			s += "\n"
		}
		s += err.Error()
	}
	return s
}

func joinLines(errs []error) error { return lineErrors(errs) }

// judge opens a lane and judges inputs on it; the caller closes the lane.
// A lane that will not start, or that fails, is said on cfg.Stderr and
// gives a nil lane.
func judge(ctx context.Context, cfg Config, inputs []any) (*panel.Panel, []panel.Judged) {
	l, err := panel.Open(ctx, cfg.Adapters, cfg.Stderr)
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz: %v\n", err)
		return nil, nil
	}
	js, err := l.Judge(ctx, inputs)
	if err != nil {
		l.Close()
		if !overBudget(ctx, cfg) {
			fmt.Fprintf(cfg.Stderr, "difffuzz: %v\n", err)
		}
		return nil, nil
	}
	return l, js
}

// Check runs every input through every adapter and prints each outcome and
// whether they agree. It returns the exit status.
func Check(ctx context.Context, cfg Config, lines []Input) int {
	ctx, stop := withBudget(ctx, cfg)
	defer stop()
	inputs := make([]any, len(lines))
	for i, in := range lines {
		inputs[i] = in.Value
	}
	s, js := judge(ctx, cfg, inputs)
	if s == nil {
		return triage.ExitSetup
	}
	defer s.Close()
	exit := triage.ExitOK
	for i, j := range js {
		needsEarlier := false
		if !j.Verdict.Agree {
			exit = triage.ExitDivergence
			needsEarlier = aloneAgrees(ctx, s, i, inputs[i])
		}
		if cfg.JSON {
			printCheckJSON(cfg.Stdout, s.Names(), lines[i].Line, j, needsEarlier)
			continue
		}
		state := "agree" + allowedNote(s.Comparator().Contract().Name, s.Names(), j.Verdict)
		if !j.Verdict.Agree {
			// Labelled as a run labels a bucket: a cause of a family by
			// the implementation's profile (Lane.Family).
			state = "DIVERGE " + compare.Signatures(s.Families(ctx, j.Signatures, inputs[i])).String()
		}
		fmt.Fprintf(cfg.Stdout, "line %d: %s\n  %s\n", lines[i].Line, state, clip.String(string(value.AppendText(nil, inputs[i])), 300))
		if needsEarlier {
			fmt.Fprintf(cfg.Stdout, "  alone on a fresh process it agrees: it needs the lines before it, on one process (docs/triage.md, \"Depends on an earlier call\")\n")
		}
		if !j.Verdict.Agree {
			// Render shows each output, then how they differ.
			fmt.Fprint(cfg.Stdout, s.Comparator().Render(j.Verdict, j.Outs))
			continue
		}
		for ai, o := range j.Outs {
			fmt.Fprintf(cfg.Stdout, "  %-10s %s\n", s.Names()[ai], outcomeLine(o))
		}
	}
	return exit
}

func outcomeLine(o compare.Outcome) string {
	if o.Canonical != nil {
		return fmt.Sprintf("%s  blake3:%s", clip.String(string(o.Canonical), 300), hex.EncodeToString(o.Digest))
	}
	return compare.Describe(o)
}

func printCheckJSON(w io.Writer, names []string, line int, j panel.Judged, needsEarlier bool) {
	type res struct {
		Canonical *string `json:"canonical,omitempty"`
		Digest    string  `json:"digest,omitempty"`
		Error     string  `json:"error,omitempty"`
		// Inexpressible: the adapter's native model cannot hold the case.
		Inexpressible string `json:"inexpressible,omitempty"`
	}
	out := struct {
		Line  int  `json:"line"`
		Agree bool `json:"agree"`
		// NeedsEarlier: the line diverges after the lines before it, and
		// agrees alone on a fresh process.
		NeedsEarlier bool           `json:"needs_earlier,omitempty"`
		Results      map[string]res `json:"results"`
		// Allowed are the differences the contract leaves open, each
		// with the adapters that showed it: why the case agrees.
		Allowed map[string][]string `json:"allowed,omitempty"`
	}{Line: line, Agree: j.Verdict.Agree, NeedsEarlier: needsEarlier, Results: map[string]res{}}
	for _, a := range j.Verdict.Allowed {
		if out.Allowed == nil {
			out.Allowed = map[string][]string{}
		}
		for _, ai := range j.Verdict.Groups[a.Group] {
			out.Allowed[string(a.Trait)] = append(out.Allowed[string(a.Trait)], names[ai])
		}
	}
	for ai, o := range j.Outs {
		r := res{Error: o.Error, Inexpressible: o.Inexpressible}
		if o.Failure != "" {
			r.Error = string(o.Failure)
		}
		if o.Canonical != nil {
			c := string(o.Canonical)
			r.Canonical, r.Digest = &c, hex.EncodeToString(o.Digest)
		}
		out.Results[names[ai]] = r
	}
	b, _ := json.Marshal(out)
	fmt.Fprintf(w, "%s\n", b)
}

// MinimizeFile shrinks the divergence of one corpus file or bare input and
// writes the result to the corpus beside it.
func MinimizeFile(ctx context.Context, cfg Config, path string) int {
	e, err := corpus.Load(path)
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz: %v\n", err)
		return triage.ExitSetup
	}
	switch {
	case e.Twin != nil:
		return minimizePair(ctx, cfg, path, e)
	case e.Before != nil:
		return minimizeSequence(ctx, cfg, path, e)
	case e.Kind == corpus.KindNondeterministic:
		fmt.Fprintf(cfg.Stderr, "difffuzz: minimize: %s is one input given two answers (%s): nothing to shrink it by, since "+
			"the minimizer asks each candidate once; difffuzz replay asks it twice\n", path, e.Signatures)
		return triage.ExitSetup
	}
	s, js := judge(ctx, cfg, []any{e.Input})
	if s == nil {
		return triage.ExitSetup
	}
	defer s.Close()
	if js[0].Verdict.Agree {
		fmt.Fprintf(cfg.Stdout, "%s: the adapters agree on this input; nothing to minimize\n", path)
		return triage.ExitOK
	}
	sig := js[0].Signatures[0]
	if len(js[0].Signatures) > 1 {
		fmt.Fprintf(cfg.Stdout, "%d bugs show here (%s); minimizing the first\n", len(js[0].Signatures), js[0].Signatures)
	}
	fmt.Fprintf(cfg.Stdout, "before (%s):\n  %s\n", sig, clip.String(string(value.AppendText(nil, e.Input)), 2000))
	s.RoundTrips = 0
	mctx, stop := withBudget(ctx, cfg)
	defer stop()
	s.MaxCandidateBytes = minimize.BatchBytesFor(budgetOf(cfg))
	began := time.Now()
	m, err := s.Minimize(mctx, e.Input, sig)
	if err != nil {
		if !overBudget(mctx, cfg) {
			fmt.Fprintf(cfg.Stderr, "difffuzz: minimize: %v\n", err)
		}
		return triage.ExitSetup
	}
	// The result is labelled by what it shows, as a run labels a bucket
	// (docs/triage.md): the cause kept, in the implementations that show
	// it on the minimized input.
	label, ok := m.Label(sig)
	if !ok {
		fmt.Fprintf(cfg.Stderr, "difffuzz: minimize: not reproducible: the minimized input no longer shows %q\n", sig)
		return triage.ExitSetup
	}
	label = s.Family(ctx, label, m.Input)
	fmt.Fprintf(cfg.Stdout, "after (%s; %d rounds, %d round trips per adapter, %.1fs):\n  %s\n%s", label, m.Rounds, s.RoundTrips, time.Since(began).Seconds(),
		value.AppendText(nil, m.Input), s.Comparator().Render(m.Verdict, m.Outs))
	if cfg.Verbose {
		writePasses(cfg.Stdout, m.Passes)
	}
	return writeMinimized(cfg, path, s.Entry(m.Input, m.Verdict, []compare.Signature{label}, m.Outs))
}

// writePasses is -v's table of what each of the minimizer's passes did, so
// that a pass that never pays, or one that pays most, shows.
func writePasses(w io.Writer, passes []minimize.Pass) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "pass\ttried\thits\tshrinks\tbytes removed\tseconds\t")
	for _, p := range passes {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.2f\t\n", p.Name, p.Tried, p.Hits, p.Shrinks, p.Removed, p.Seconds)
	}
	tw.Flush()
}

// writeMinimized saves the minimized entry out of the finding in path, in
// -corpus or beside it, and says where; it diverges, so the exit is 1.
func writeMinimized(cfg Config, path string, out *corpus.Entry) int {
	dir := cfg.CorpusDir
	if dir == "" {
		dir = filepath.Dir(path)
	}
	out.MinimizedFrom = filepath.Base(path)
	p, err := corpus.Write(dir, out)
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz: %v\n", err)
		return triage.ExitSetup
	}
	fmt.Fprintf(cfg.Stdout, "wrote %s\n", p)
	return triage.ExitDivergence
}

// allowedNote says why an agreeing case agrees though its outputs differ:
// the differences the contract leaves open (compare.Verdict.Allowed), each
// with the adapters that showed it; "" when there are none.
func allowedNote(contractName string, names []string, v compare.Verdict) string {
	var parts []string
	for _, a := range v.Allowed {
		var who []string
		for _, ai := range v.Groups[a.Group] {
			who = append(who, names[ai])
		}
		parts = append(parts, a.String()+": "+strings.Join(who, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (allowed by contract " + contractName + ": " + strings.Join(parts, "; ") + ")"
}
