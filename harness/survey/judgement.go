package survey

import (
	"strings"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/lane"
)

// judgement is one case's outcomes (the reference's first), their
// verdict and its signatures.
type judgement struct {
	outs    []compare.Outcome
	verdict compare.Verdict
	sigs    []compare.Signature
}

// judged is the lane's judgement of a case as the survey counts it.
func judged(j lane.Judged) judgement {
	return judgement{outs: j.Outs, verdict: j.Verdict, sigs: j.Signatures}
}

// lastLine is the last non-empty line of s, for one-line messages.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
