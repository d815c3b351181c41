package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
)

// agrees is the label of a kept example that no longer diverges.
const agrees = "(agrees)"

// replayed reads difffuzz replay's output: for each corpus file that
// diverges, its signatures in the order printed ("DIVERGES   PATH  SIG"; a
// collision entry prints one line per input and one for the pair).
func replayed(r io.Reader) (map[string][]string, error) {
	out := map[string][]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "DIVERGES ")
		if !ok {
			continue
		}
		path, sigs, ok := strings.Cut(strings.TrimLeft(rest, " "), "  ")
		if !ok {
			continue
		}
		sigs = strings.TrimSuffix(sigs, "  (its twin)")
		out[filepath.Clean(path)] = append(out[filepath.Clean(path)], sigs)
	}
	return out, sc.Err()
}

// keptFiles maps each bucket's signature to the corpus files that hold
// its kept examples: the files whose entry names the signature, and the
// report's first and minimized files of the bucket.
func keptFiles(dir string, r *runReport) (map[string][]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, f := range files {
		e, err := corpus.Load(f)
		if err != nil {
			return nil, err
		}
		sig := e.Signatures.String()
		out[sig] = append(out[sig], filepath.Clean(f))
	}
	for _, g := range r.Distinct {
		for _, f := range []string{g.First, g.MinimizedPath} {
			if f == "" {
				continue
			}
			sig := g.Signature.String()
			if f = filepath.Clean(f); !slices.Contains(out[sig], f) {
				if _, err := os.Stat(f); err == nil {
					out[sig] = append(out[sig], f)
				}
			}
		}
	}
	return out, nil
}

// recheck fills each bucket's Rechecked from the replay of its kept files:
// each file's label, the distinct ones sorted. A collision bucket's file
// is read by its pair's line, any other by its input's first signature.
func recheck(bs []Bucket, kept map[string][]string, replay map[string][]string, impl string) {
	for i := range bs {
		b := &bs[i]
		var labels []string
		for _, f := range kept[b.Signature.String()] {
			labels = append(labels, fileLabel(replay[f], b.Signature.Kind == compare.KindCollision, impl))
		}
		b.Kept = len(labels)
		slices.Sort(labels)
		b.Rechecked = slices.Compact(labels)
	}
}

// fileLabel is the label one replayed file shows, given its printed
// signatures and whether the bucket it was kept for is a collision's (read
// by its pair's line, any other by the input's first signature).
func fileLabel(sigs []string, collision bool, impl string) string {
	if len(sigs) == 0 {
		return agrees
	}
	lines := make([]compare.Signatures, len(sigs))
	for i, text := range sigs {
		if err := lines[i].UnmarshalText([]byte(text)); err != nil || len(lines[i]) == 0 {
			return text // not a signature: shown as printed
		}
	}
	if collision {
		for _, l := range lines {
			if l[0].Kind == compare.KindCollision {
				return labelOf(l[0], impl)
			}
		}
	}
	return labelOf(lines[0][0], impl)
}
