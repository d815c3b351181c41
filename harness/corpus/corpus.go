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

	canonjson "difffuzz/adapters/go"
	"lukechampine.com/blake3"
)

// FormatVersion is written into every entry as "difffuzz_corpus".
const FormatVersion = 1

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
	Input         any    // the case, in the canonjson value model
	Kind          string // "divergence", "crash", "hang", or "" for a seed case that must agree
	Signature     string // the divergence signature it was grouped by
	Seed          uint64 // the run's seed and the case's index, when generated
	Index         uint64
	Generated     bool   // Seed and Index are meaningful
	MinimizedFrom string // the file name of the entry this one was shrunk from
	Outcomes      []Outcome
}

// Name is the entry's file name: a content hash of its input's text, so that
// the same input found twice is one file.
func Name(input any) string {
	sum := blake3.Sum256(canonjson.AppendText(nil, input))
	return hex.EncodeToString(sum[:16]) + ".json"
}

// Write stores e in dir (made if missing) atomically, and returns its path.
// An entry already there under the same name is kept: it holds the same
// input, and keeping it is what makes concurrent writers lose nothing.
func Write(dir string, e *Entry) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("corpus: %w", err)
	}
	path := filepath.Join(dir, Name(e.Input))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := WriteFileAtomic(path, e.Marshal()); err != nil {
		return "", fmt.Errorf("corpus: %w", err)
	}
	return path, nil
}

// WriteFileAtomic writes data to a temporary file beside path, syncs it and
// renames it into place, so that a crash or a full disk never leaves a torn
// file under path.
func WriteFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
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
	if info.Size() > canonjson.MaxTextSize {
		return nil, fmt.Errorf("%s: %d bytes, over the limit of %d", path, info.Size(), canonjson.MaxTextSize)
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
