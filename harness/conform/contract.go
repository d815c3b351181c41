package conform

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/inprocess"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// underContract is how a run holds a worker to a contract other than this
// project's (Config.Contract): every case's answer is judged as a fuzzing
// run judges it (compare.Comparator.Judge), against the in-process Go
// implementation of that contract, with what the contract leaves open
// allowed, instead of against this project's answers (the spec's tables,
// the fixtures' recorded texts and codes). A correct RFC 8785 library
// then passes with no failure list: its own exceptions and its own
// nesting limit are its profile, which the PASS lines note.
type underContract struct {
	c       contract.Contract
	ref     *inprocess.Go
	judge   *compare.Comparator
	allowed map[string]int // the running check's allowed traits, by what they say
}

// newUnderContract is nil for this project's contract, whose checks keep
// their own answers; a contract failing its Check is a setup error.
func newUnderContract(c contract.Contract) (*underContract, error) {
	if c.Name == "" || c == contract.Default {
		return nil, nil
	}
	g, err := inprocess.NewFor("reference", c)
	if err != nil {
		return nil, fmt.Errorf("contract %s: %w", c.Name, err)
	}
	u := &underContract{c: c, ref: g, judge: compare.NewFor([]string{"reference", "worker"}, c), allowed: map[string]int{}}
	u.judge.WithVariants(adapter.Variants(c))
	return u, nil
}

// mismatch judges got for the case v and says how it differs, "" when
// the contract accepts it.
func (u *underContract) mismatch(got wire.Result, v any) string {
	out := make([]wire.Result, 1)
	if err := u.ref.Run(context.Background(), []any{v}, out); err != nil {
		return fmt.Sprintf("the reference of contract %s failed: %v", u.c.Name, err)
	}
	ref := out[0]
	verdict := u.judge.Judge(v, []compare.Outcome{compare.OutcomeOf(ref), compare.OutcomeOf(got)})
	if verdict.Agree {
		for _, a := range verdict.Allowed {
			u.allowed[string(a.Trait)]++
		}
		return ""
	}
	if m := mismatch(got, want{canonical: ref.Canonical, code: ref.Error}); m != "" {
		return m + " (contract " + u.c.Name + ")"
	}
	return fmt.Sprintf("%s under contract %s", u.judge.Signatures(verdict), u.c.Name)
}

// codesAlone judges the answer to a case the value model cannot hold
// (bytes that are not UTF-8, say), which every contract refuses: any
// refusal when error codes are open, else the case's own code (checked by
// the caller's want).
func (u *underContract) codesAlone(got wire.Result, w want) string {
	if got.Error != "" && u.c.Allows.ErrorCodes == contract.ErrorCodesAny {
		return ""
	}
	return mismatch(got, w)
}

// note is what the running check allowed, for its PASS line, and starts
// the next check afresh: "allowed by rfc8785: own_exceptions 12".
func (u *underContract) note() string {
	if u == nil || len(u.allowed) == 0 {
		return ""
	}
	var parts []string
	for t, n := range u.allowed {
		parts = append(parts, fmt.Sprintf("%s %d", t, n))
	}
	sort.Strings(parts)
	clear(u.allowed)
	return "allowed by " + u.c.Name + ": " + strings.Join(parts, ", ")
}
