// Package corpus keeps findings on disk: one file a case, named by the
// BLAKE3 of the case's text, so that reruns and shards merge by copying.
// A file is extended JSON (docs/canonical-json.md §6) that a person can read
// and edit: the input itself, and each adapter's outcome beside it.
package corpus

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/internal/atomicfile"
	"github.com/difffuzz/difffuzz/value"

	"lukechampine.com/blake3"
)

// FormatVersion is written into every entry as "difffuzz_corpus", unless
// the entry holds calls to run before its input (Before): then it is
// SequenceVersion, which a difffuzz that would replay the input alone
// refuses to read. This one reads both.
const FormatVersion = 1

// SequenceVersion is the format of an entry with Before.
const SequenceVersion = 2

// formatKey marks a file as a corpus entry rather than a bare input.
const formatKey = "difffuzz_corpus"

// Outcome is one adapter's answer recorded in an entry.
type Outcome struct {
	Adapter   string // the adapter's name in the run
	Impl      string // the implementation's name from its hello
	Version   string // the implementation's version from its hello
	Canonical string
	Digest    string // hex
	Error     string // a spec error code, or "internal"
	Failure   string // "crash" or "hang"
	// Inexpressible is the reason the adapter's native model could not
	// hold the case (it was not compared).
	Inexpressible string
	Stderr        string // the worker's stderr tail, for failures
}

// Entry is one case on disk.
type Entry struct {
	Input any    // the case, in the value model (package value)
	Kind  string // "divergence", "crash", "hang", or "" for a seed case that must agree
	// Signatures are the bugs the case was grouped by, none for a seed
	// case; the file holds their text form (compare.Signatures.MarshalText).
	Signatures compare.Signatures
	// OldSignature marks a file written by a difffuzz before buckets had
	// causes: its signature (compare.ErrOldSignature) names no bucket now,
	// so Signatures is nil; a replay shows the case's bugs afresh.
	OldSignature bool
	// Contract is the contract the entry was judged by, when it is not
	// this project's (docs/canonical-json.md §7): a replay under another
	// contract would judge it by rules it was not found under.
	Contract string
	// ContractFile is the path of the file of Contract, when it is not a
	// built-in: a replay refusing the entry for its contract names it.
	ContractFile  string
	Seed          uint64 // the run's seed and the case's index, when generated
	Index         uint64
	Generated     bool   // Seed and Index are meaningful
	MinimizedFrom string // the file name of the entry this one was shrunk from
	Outcomes      []Outcome
	// Twin is the other case of a collision (Kind "collision"): an input
	// that an implementation gives Input's digest while the reference
	// tells the two apart; nil for any other entry. TwinIndex is its case
	// index when Generated, TwinOutcomes each adapter's outcome on it.
	Twin         any
	TwinIndex    uint64
	TwinOutcomes []Outcome
	// Earlier are, for a nondeterministic entry (Kind "nondeterministic"),
	// the first answers of the adapters that gave Input two: Outcomes hold
	// their second, so the file keeps both. nil for any other entry.
	Earlier []Outcome
	// Before are the calls to run, in order, on a fresh worker process
	// before Input, for a finding that Input alone does not show (its
	// signature "nondeterministic: depends on an earlier call"): replay
	// and minimize run them first. nil for any other entry.
	Before []any
}

// KindNondeterministic is the kind of an entry whose input one adapter
// answered two ways (compare.KindNondeterministic).
const KindNondeterministic = string(compare.KindNondeterministic)

// Name is the entry's file name: a content hash of its input's text, so that
// the same input found twice is one file.
func Name(input any) string {
	sum := blake3.Sum256(value.AppendText(nil, input))
	return hex.EncodeToString(sum[:16]) + ".json"
}

// Path is where Write stores an entry of input in dir.
func Path(dir string, input any) string { return filepath.Join(dir, Name(input)) }

// EntryPath is where Write stores e in dir: by its input, and for a
// collision by both its inputs, so that a pair never takes the file of
// its first case's own divergence.
//
// A nondeterministic entry is named by its kind too, so that it never
// takes the file of its input's divergence, nor that one its.
func EntryPath(dir string, e *Entry) string {
	if e.Kind == KindNondeterministic {
		text := []byte(KindNondeterministic + "\n")
		for _, b := range e.Before {
			text = append(value.AppendText(text, b), '\n')
		}
		sum := blake3.Sum256(value.AppendText(text, e.Input))
		return filepath.Join(dir, hex.EncodeToString(sum[:16])+".json")
	}
	if e.Twin == nil {
		return Path(dir, e.Input)
	}
	text := append(value.AppendText(nil, e.Input), '\n')
	sum := blake3.Sum256(value.AppendText(text, e.Twin))
	return filepath.Join(dir, hex.EncodeToString(sum[:16])+".json")
}

// Write stores e in dir (made if missing) atomically, and returns its path.
// An entry already there under the same name is kept: it holds the same
// input, and keeping it is what makes concurrent writers lose nothing. The
// one exception keeps a run's files the same whichever lane answers first:
// when both are generated by the same seed, the lower case index wins.
func Write(dir string, e *Entry) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("corpus: %w", err)
	}
	path := EntryPath(dir, e)
	if _, err := os.Stat(path); err == nil && !supersedes(e, path) {
		return path, nil
	}
	if err := atomicfile.Write(path, e.Marshal()); err != nil {
		return "", fmt.Errorf("corpus: %w", err)
	}
	return path, nil
}

// Files lists the corpus files under paths (files are taken as given,
// folders are walked for *.json), sorted, skipping temporary files.
func Files(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("corpus: %w", err)
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".json") && !strings.HasPrefix(d.Name(), ".") {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("corpus: %w", err)
		}
	}
	sort.Strings(out)
	return out, nil
}

// MalformedError collects the files that could not be read, so that one bad
// file does not hide the others.
type MalformedError struct {
	Errs map[string]error
}

func (e *MalformedError) Error() string {
	names := make([]string, 0, len(e.Errs))
	for n := range e.Errs {
		names = append(names, n)
	}
	sort.Strings(names)
	var sb strings.Builder
	fmt.Fprintf(&sb, "corpus: %d malformed file(s):", len(names))
	for _, n := range names {
		fmt.Fprintf(&sb, "\n  %v", e.Errs[n])
	}
	return sb.String()
}

// LoadAll reads every file; it returns the entries it could read and, if any
// could not, a *MalformedError.
func LoadAll(files []string) ([]*Entry, []string, error) {
	var entries []*Entry
	var names []string
	bad := map[string]error{}
	for _, f := range files {
		e, err := Load(f)
		if err != nil {
			bad[f] = err
			continue
		}
		entries = append(entries, e)
		names = append(names, f)
	}
	if len(bad) > 0 {
		return entries, names, &MalformedError{bad}
	}
	return entries, names, nil
}

// Load reads one file: a corpus entry, or a bare input in extended JSON.
func Load(path string) (*Entry, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.Size() > value.MaxTextSize {
		return nil, fmt.Errorf("%s: %d bytes, over the limit of %d", path, info.Size(), value.MaxTextSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	e, err := Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return e, nil
}

var errNoInput = errors.New(`corpus entry has no "input"`)

// supersedes reports whether e should replace the entry at path: the same
// seed's finding of the same input at a lower case index.
func supersedes(e *Entry, path string) bool {
	if !e.Generated || e.MinimizedFrom != "" {
		return false
	}
	old, err := Load(path)
	return err == nil && old.Generated && old.MinimizedFrom == "" && old.Seed == e.Seed && old.Index > e.Index
}
