package survey

import (
	"strings"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/lane"
)

// judgement is one case's outcomes (the reference's first) and their
// verdict, with the signatures' text forms, the survey's keys.
type judgement struct {
	outs    []compare.Outcome
	verdict compare.Verdict
	sigs    []string
}

// judged is the lane's judgement of a case as the survey counts it.
func judged(j lane.Judged) judgement {
	sigs := make([]string, len(j.Signatures))
	for i, s := range j.Signatures {
		sigs[i] = s.String()
	}
	return judgement{outs: j.Outs, verdict: j.Verdict, sigs: sigs}
}

// lastLine is the last non-empty line of s, for one-line messages.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
