package triage

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/internal/atomicfile"
)

// Known is the checked-in list of accepted divergences, in the spirit of the
// protobuf conformance failure lists: a run fails on a divergence that is not
// listed, and on a listed one that no longer occurs, so the list cannot go
// stale silently.
//
// The file has one entry a line, "SIGNATURE # REASON"; blank lines and lines
// starting with # are comments. Every entry needs a reason.
type Known struct {
	Reasons map[string]string // signature -> reason
	order   []string
	// legacy holds the reasons of old-form entries ("KIND: A B"), which
	// Update carries to the new entries of the same kind and adapters.
	legacy map[string]string
}

// LoadKnown reads a known list; a missing file is an empty list, so that a
// first run with -update-known can create it.
func LoadKnown(path string) (*Known, error) {
	k := &Known{Reasons: map[string]string{}, legacy: map[string]string{}}
	var oldLines []int
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return k, nil
	}
	if err != nil {
		return nil, fmt.Errorf("known divergences: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		sig, reason := cutReason(text)
		var s compare.Signature
		perr := s.UnmarshalText([]byte(sig))
		switch {
		case errors.Is(perr, compare.ErrOldSignature):
			k.legacy[sig] = reason
			oldLines = append(oldLines, line)
			continue
		case perr != nil:
			return nil, fmt.Errorf("%s:%d: %q is not a divergence signature (KIND: CAUSE: ADAPTER, ...)", path, line, sig)
		case reason == "":
			return nil, fmt.Errorf("%s:%d: entry %q has no reason (write: SIGNATURE # REASON)", path, line, sig)
		case k.Reasons[sig] != "":
			return nil, fmt.Errorf("%s:%d: %q is listed twice", path, line, sig)
		}
		k.Reasons[sig] = reason
		k.order = append(k.order, sig)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("known divergences: %w", err)
	}
	if len(oldLines) > 0 {
		return k, &OldFormError{Path: path, Lines: oldLines}
	}
	return k, nil
}

// OldFormError is a known list with entries in the form of difffuzz before
// buckets had causes. LoadKnown returns it with the list, whose old entries
// Update can still take reasons from.
type OldFormError struct {
	Path  string
	Lines []int
}

func (e *OldFormError) Error() string {
	return fmt.Sprintf("%s: line %d (and %d more) names a bug the old way, \"KIND: ADAPTER...\", without its cause; "+
		"rewrite the list with difffuzz run -known %s -update-known (old reasons are carried to the entries of the same kind and adapters), "+
		"then check every entry's reason", e.Path, e.Lines[0], len(e.Lines)-1, e.Path)
}

// cutReason splits "SIGNATURE # REASON" at its first " # " (a signature's
// cause never holds one).
func cutReason(text string) (sig, reason string) {
	sig, reason, _ = strings.Cut(text+" ", " # ")
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(sig), " #")), strings.TrimSpace(reason)
}

// legacyReason is the reason an old-form entry gave the bug of sig's kind
// and adapters, marked as carried over, or "".
func (k *Known) legacyReason(sig string) string {
	var s compare.Signature
	if err := s.UnmarshalText([]byte(sig)); err != nil {
		return ""
	}
	old := string(s.Kind) + ": " + strings.Join(s.Deviants, " ")
	if r := k.legacy[old]; r != "" {
		return r + " (carried over from \"" + old + "\": check it)"
	}
	return ""
}

// Mark marks the report's divergences as known or new and lists the stale
// entries when checkStale is set (a shard sees only part of the space, so
// only the merge can say an entry is stale). Status then decides the exit.
func (k *Known) Mark(r *report.Report, checkStale bool) {
	seen := map[string]bool{}
	r.Known, r.Stale = nil, nil
	for i := range r.Distinct {
		g := &r.Distinct[i]
		sig := g.Signature.String()
		seen[sig] = true
		if reason, ok := k.Reasons[sig]; ok {
			g.KnownReason = reason
			r.Known = append(r.Known, sig)
		}
	}
	if checkStale {
		for _, sig := range k.order {
			if !seen[sig] {
				r.Stale = append(r.Stale, sig)
			}
		}
	}
}

// Update rewrites the list to the report's divergences: reasons of entries
// still seen are kept, new ones get a placeholder to edit, stale ones go.
func (k *Known) Update(path string, r *report.Report) error {
	var b strings.Builder
	b.WriteString("# Known divergences: a run fails on any divergence not listed here, and on any\n")
	b.WriteString("# entry that no longer occurs. One a line: SIGNATURE # REASON.\n")
	b.WriteString("# Rewrite with: difffuzz run -update-known (then give every new entry a reason).\n")
	var sigs []string
	for _, g := range r.Distinct {
		sigs = append(sigs, g.Signature.String())
	}
	sort.Strings(sigs)
	for _, sig := range sigs {
		reason := k.Reasons[sig]
		if reason == "" {
			reason = k.legacyReason(sig)
		}
		if reason == "" {
			reason = fmt.Sprintf("TODO: explain or fix (seed %d)", r.Seed)
		}
		fmt.Fprintf(&b, "%s # %s\n", sig, reason)
	}
	return atomicfile.Write(path, []byte(b.String()))
}
