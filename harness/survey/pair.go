package survey

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// pair is the reference and one library, judged case by case.
type pair struct {
	ref, lib adapter.Adapter
	cmp      *compare.Comparator
	restarts int // consecutive protocol failures of the library
}

// judgement is one case's outcomes (reference first) and their verdict.
type judgement struct {
	outs    []compare.Outcome
	verdict compare.Verdict
	sigs    []string // the signatures' text forms
}

// Signature names, as the fuzzing run does ("key_order: lib"), so that a
// divergence reads alike in a survey and in a run.
const libName = "lib"

func newPair(ref, lib adapter.Adapter) *pair {
	return &pair{ref: ref, lib: lib, cmp: compare.New([]string{"reference", libName})}
}

// maxProtocolFailures is how many protocol failures in a row make the
// survey give up on a library: it is broken, not this input.
const maxProtocolFailures = 3

// judge runs cases through both adapters, with text, and compares them.
// A batch the library fails as a crash or a hang is run again case by case,
// so that the case that did it gets the failure and the others their answer.
func (p *pair) judge(ctx context.Context, cases []any) ([]judgement, error) {
	refOut := make([]wire.Result, len(cases))
	if err := p.ref.RunBatch(ctx, &adapter.Batch{Cases: cases}, refOut); err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	libOut, err := p.libOutcomes(ctx, cases)
	if err != nil {
		return nil, err
	}
	js := make([]judgement, len(cases))
	for i := range cases {
		outs := []compare.Outcome{outcomeOf(refOut[i]), libOut[i]}
		v := p.cmp.Compare(outs)
		js[i] = judgement{outs: outs, verdict: v, sigs: texts(p.cmp.Signatures(v))}
	}
	return js, nil
}

// libOutcomes is the library's answer to every case.
func (p *pair) libOutcomes(ctx context.Context, cases []any) ([]compare.Outcome, error) {
	res := make([]wire.Result, len(cases))
	err := p.lib.RunBatch(ctx, &adapter.Batch{Cases: cases}, res)
	if err == nil {
		p.restarts = 0
		out := make([]compare.Outcome, len(cases))
		for i, r := range res {
			out[i] = outcomeOf(r)
		}
		return out, nil
	}
	if err := p.fatal(err); err != nil {
		return nil, err
	}
	if len(cases) == 1 {
		return []compare.Outcome{failureOutcome(err)}, nil
	}
	out := make([]compare.Outcome, len(cases))
	for i, c := range cases {
		one, err := p.libOutcomes(ctx, []any{c})
		if err != nil {
			return nil, err
		}
		out[i] = one[0]
	}
	return out, nil
}

// fatal returns err if it ends the library's survey: ctx's end, a worker
// that will not start again, or one that breaks the protocol again and again.
func (p *pair) fatal(err error) error {
	f, ok := adapter.AsFailure(err)
	switch {
	case !ok || errors.Is(err, context.Canceled):
		return err
	case f.Kind == adapter.Setup:
		return err
	case f.Kind == adapter.Protocol || f.Kind == adapter.Killed:
		p.restarts++
		if p.restarts >= maxProtocolFailures {
			return fmt.Errorf("giving up after %d failures in a row: %w", p.restarts, err)
		}
	}
	return nil
}

// failureOutcome is a one-case batch's failure as that case's outcome.
func failureOutcome(err error) compare.Outcome {
	f, _ := adapter.AsFailure(err)
	kind := compare.FailCrash
	if f != nil && f.Kind == adapter.Hang {
		kind = compare.FailHang
	}
	detail := err.Error()
	if f != nil && f.Stderr != "" {
		detail += ": " + lastLine(f.Stderr)
	}
	return compare.Outcome{Failure: kind, Detail: detail}
}

// outcomeOf turns a worker's result into an outcome to compare.
func outcomeOf(r wire.Result) compare.Outcome {
	switch {
	case r.Inexpressible != "":
		return compare.Outcome{Inexpressible: r.Inexpressible, Detail: r.Message}
	case r.Error != "":
		return compare.Outcome{Error: r.Error, Detail: r.Message}
	}
	return compare.Outcome{Canonical: r.Canonical, Digest: r.Digest}
}

// lastLine is the last non-empty line of s, for one-line messages.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// texts are the signatures' text forms, the survey's keys.
func texts(sigs []compare.Signature) []string {
	out := make([]string, len(sigs))
	for i, s := range sigs {
		out[i] = s.String()
	}
	return out
}
