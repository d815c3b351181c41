package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	canonjson "difffuzz/adapters/go"
	"difffuzz/harness/adapter"
	"difffuzz/harness/compare"
	"difffuzz/harness/minimize"
	"difffuzz/harness/report"
)

// session is one lane used for one-shot work: check, replay, minimize.
type session struct {
	lane  *lane
	names []string
	cmp   *compare.Comparator
	// RoundTrips counts batches sent to each adapter.
	RoundTrips int
}

// judged is one case's outcomes and verdict.
type judged struct {
	outs       []compare.Outcome
	verdict    compare.Verdict
	signatures []string
	answered   bool // false: some adapter broke the protocol on it
}

func openSession(ctx context.Context, specs []AdapterSpec, log io.Writer) (*session, error) {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	l, err := startLane(ctx, specs, 3, log)
	if err != nil {
		return nil, setupError(err)
	}
	return &session{lane: l, names: names, cmp: compare.New(names)}, nil
}

func sessionOf(l *lane, names []string) *session {
	return &session{lane: l, names: names, cmp: compare.New(names)}
}

func (s *session) close() { s.lane.close() }

// maxBatchText bounds the text size of a one-shot batch, so that large
// inputs (a bug report's 10 MB case) go alone and no frame nears the cap.
const maxBatchText = 4 << 20

// judge runs cases through every adapter, up to 256 (and maxBatchText
// bytes) a batch.
func (s *session) judge(ctx context.Context, cases []any) ([]judged, error) {
	out := make([]judged, 0, len(cases))
	for len(cases) > 0 {
		n := batchLen(cases)
		outs, ok := grow(nil, nil, n, len(s.names))
		if err := s.lane.run(ctx, &adapter.Batch{Cases: cases[:n]}, outs, ok); err != nil {
			return nil, err
		}
		s.RoundTrips++
		for i := range n {
			j := judged{outs: outs[i], answered: ok[i]}
			if ok[i] {
				j.verdict = s.cmp.Compare(outs[i])
				j.signatures = s.cmp.Signatures(j.verdict)
			}
			out = append(out, j)
		}
		cases = cases[n:]
	}
	return out, nil
}

// batchLen is how many of cases go in the next batch.
func batchLen(cases []any) int {
	size := 0
	for i, c := range cases {
		size += len(canonjson.AppendText(nil, c))
		if i == 256 || i > 0 && size > maxBatchText {
			return i
		}
	}
	return len(cases)
}

// minimized is a shrunk divergence with its outcomes.
type minimized struct {
	Input   any
	Outs    []compare.Outcome
	Verdict compare.Verdict
	Rounds  int
}

// minimize shrinks input while it keeps diverging with signature sig: the
// same adapters on each side and the same kind of first difference.
func (s *session) minimize(ctx context.Context, input any, sig string) (*minimized, error) {
	fails := func(ctx context.Context, cands []any) ([]bool, error) {
		js, err := s.judge(ctx, cands)
		if err != nil {
			return nil, err
		}
		res := make([]bool, len(js))
		for i, j := range js {
			res[i] = j.answered && slices.Contains(j.signatures, sig)
		}
		return res, nil
	}
	v, st, err := minimize.Minimize(ctx, input, fails, minimize.Options{})
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		if errors.Is(err, minimize.ErrNotReproducible) {
			return nil, fmt.Errorf("not reproducible: the input no longer shows %q", sig)
		}
		return nil, err
	}
	js, err := s.judge(context.WithoutCancel(ctx), []any{v})
	if err != nil {
		return nil, err
	}
	return &minimized{Input: v, Outs: js[0].outs, Verdict: js[0].verdict, Rounds: st.Rounds}, nil
}

func minimizeCase(ctx context.Context, l *lane, names []string, input any, sig string) (*minimized, error) {
	return sessionOf(l, names).minimize(ctx, input, sig)
}

// setupError renders a worker that would not start with its stderr.
func setupError(err error) error {
	if f, ok := adapter.AsFailure(err); ok {
		return fmt.Errorf("%v\n%s", f, report.IndentStderr(f.Stderr))
	}
	return err
}
