package conform

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// runner holds a run's workers and counts. A check that breaks a worker
// drops it; the next check that needs one starts a fresh process.
type runner struct {
	cfg    Config
	timing timing
	sum    Summary
	w      *adapter.Worker // typed round trips; restarts itself after a failure
	raw    *proc           // raw-case round trips; nil until needed
	under  *underContract  // nil under this project's contract

	details strings.Builder // the running check's details, for Stderr
}

func newRunner(cfg Config) *runner {
	if cfg.Stdout == nil {
		cfg.Stdout = io.Discard
	}
	if cfg.Stderr == nil {
		cfg.Stderr = io.Discard
	}
	if cfg.Cases == 0 {
		cfg.Cases = DefaultCases
	}
	if cfg.Seed == 0 {
		cfg.Seed = DefaultSeed
	}
	return &runner{cfg: cfg, timing: newTiming(cfg.Worker)}
}

// close stops every worker the run still holds.
func (r *runner) close() {
	if r.w != nil {
		r.w.Close()
	}
	r.dropRaw()
}

// report runs c and prints its line, then its details. A check cut short
// by ctx is neither passed nor failed, and prints nothing.
func (r *runner) report(ctx context.Context, c check) {
	note, err := c.run(ctx)
	if ctx.Err() != nil {
		r.details.Reset()
		return
	}
	defer r.flushDetails()
	if allowed := r.under.note(); allowed != "" {
		note = strings.TrimPrefix(note+"; "+allowed, "; ")
	}
	known := slices.Contains(r.cfg.Known, c.name)
	if err != nil {
		r.sum.Failures = append(r.sum.Failures, Failure{Check: c.name, Reason: oneLine(err.Error())})
	}
	switch {
	case err != nil && known:
		r.sum.Known++
		fmt.Fprintf(r.cfg.Stdout, "FAIL %s (known): %s\n", c.name, oneLine(err.Error()))
	case err != nil:
		r.sum.Failed++
		fmt.Fprintf(r.cfg.Stdout, "FAIL %s: %s\n", c.name, oneLine(err.Error()))
	case known:
		r.sum.Failed++
		fmt.Fprintf(r.cfg.Stdout, "FAIL %s: passes now, but the failure list says it fails: remove it from the list\n", c.name)
	default:
		r.sum.Passed++
		if note != "" {
			note = " (" + note + ")"
		}
		fmt.Fprintf(r.cfg.Stdout, "PASS %s%s\n", c.name, note)
	}
}

// flushDetails writes the details a check collected to Stderr, after its
// line.
func (r *runner) flushDetails() {
	io.WriteString(r.cfg.Stderr, r.details.String())
	r.details.Reset()
}

func (r *runner) printSummary() {
	known := ""
	if len(r.cfg.Known) > 0 {
		known = fmt.Sprintf(", %d known", r.sum.Known)
	}
	fmt.Fprintf(r.cfg.Stdout, "%d passed, %d failed%s\n", r.sum.Passed, r.sum.Failed, known)
}

// detail adds a line of detail for the running check.
func (r *runner) detail(check, format string, a ...any) {
	fmt.Fprintf(&r.details, "  %s: %s\n", check, oneLine(fmt.Sprintf(format, a...)))
}

// stderrTail adds the last lines a worker printed (its stderr, and its
// stdout when that is not the protocol's stream) to the running check's
// details.
func (r *runner) stderrTail(check, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	lines := strings.Split(text, "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	fmt.Fprintf(&r.details, "  %s: worker output:\n", check)
	for _, l := range lines {
		fmt.Fprintf(&r.details, "    | %s\n", l)
	}
}

// handshake starts the typed worker and checks its hello.
func (r *runner) handshake(ctx context.Context) (string, error) {
	w, err := adapter.Start(ctx, r.cfg.Worker)
	if err != nil {
		if f, ok := adapter.AsFailure(err); ok {
			r.stderrTail("handshake", f.Stderr)
			return "", f.Err
		}
		return "", err
	}
	r.w = w
	h := w.Hello()
	var missing []string
	for _, f := range [][2]string{{"language", h.Language}, {"name", h.Name}, {"version", h.Version}} {
		if f[1] == "" {
			missing = append(missing, f[0])
		}
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("hello has an empty %s", strings.Join(missing, ", "))
	}
	if h.Model != "" && !slices.Contains(wire.Models, h.Model) {
		return "", fmt.Errorf("hello declares the model %q, not one of %v", h.Model, wire.Models)
	}
	where := "on stdin and stdout"
	if w.OnFDs() {
		where = fmt.Sprintf("on descriptors %s", wire.FDsOffer)
	}
	return fmt.Sprintf("protocol %d %s, language %s, name %s, version %s, model %s", h.Protocol, where, h.Language, h.Name, h.Version, modelName(h.Model)), nil
}

// runTyped is one batch of values through the typed worker. A transport
// failure comes back as an error that says what broke.
func (r *runner) runTyped(ctx context.Context, check string, cases []any) ([]wire.Result, error) {
	out := make([]wire.Result, len(cases))
	if err := r.w.Run(ctx, cases, out); err != nil {
		if f, ok := adapter.AsFailure(err); ok {
			r.stderrTail(check, f.Stderr)
			return nil, fmt.Errorf("%s: %w", f.Kind, f.Err)
		}
		return nil, err
	}
	return out, nil
}

// rawProc returns the run's raw-case worker, starting one if needed.
func (r *runner) rawProc() (*proc, error) {
	if r.raw != nil {
		return r.raw, nil
	}
	p, err := startProc(r.cfg.Worker, r.timing)
	if err != nil {
		return nil, err
	}
	r.raw = p
	return p, nil
}

// dropRaw stops the raw-case worker, after a failure or at the end.
func (r *runner) dropRaw() {
	if r.raw != nil {
		r.raw.stop()
		r.raw = nil
	}
}

// rawBatch sends raw cases through the raw-case worker. On a transport
// failure it prints the worker's stderr and drops the worker.
func (r *runner) rawBatch(check string, cases [][]byte) ([]wire.Result, error) {
	p, err := r.rawProc()
	if err != nil {
		return nil, err
	}
	res, err := p.batch(cases)
	if err != nil {
		r.dropRaw()
		r.stderrTail(check, p.Stderr())
	}
	return res, err
}

// timing is the deadline of an answer: batch + n*perCase.
type timing struct {
	batch, perCase, start time.Duration
}

func newTiming(c adapter.Spec) timing {
	t := timing{batch: c.BatchTimeout, perCase: c.CaseTimeout, start: c.StartTimeout}
	if t.batch <= 0 {
		t.batch = adapter.DefaultBatchTimeout
	}
	if t.perCase <= 0 {
		t.perCase = adapter.DefaultCaseTimeout
	}
	if t.start <= 0 {
		t.start = adapter.DefaultStartTimeout
	}
	return t
}

// count is "1 line", "2 lines".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// oneLine keeps a reason on its check's line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " | ", "\n", " | ", "\r", " | ").Replace(strings.TrimSpace(s))
}

// failures collects a check's failures: the first makes the FAIL line, the
// next few go to Stderr, the rest are only counted.
type failures struct {
	first string
	n     int
}

func (f *failures) add(r *runner, check, format string, a ...any) {
	f.n++
	switch {
	case f.n == 1:
		f.first = fmt.Sprintf(format, a...)
	case f.n <= maxDetails+1:
		r.detail(check, format, a...)
	}
}

// err is the check's verdict: nil when nothing failed.
func (f *failures) err(total int, what string) error {
	switch f.n {
	case 0:
		return nil
	case 1:
		return errors.New(f.first)
	}
	return fmt.Errorf("%s (%d of %d %s wrong)", f.first, f.n, total, what)
}
