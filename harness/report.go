package harness

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"difffuzz/harness/corpus"
)

// Report is the outcome of a run, written as JSON with -report and printed
// as a summary.
type Report struct {
	Seed        uint64          `json:"seed"`
	Shard       uint64          `json:"shard"`
	Shards      uint64          `json:"shards"`
	Command     string          `json:"command,omitempty"`
	Started     time.Time       `json:"started"`
	Seconds     float64         `json:"seconds"`
	Cases       uint64          `json:"cases"`
	Compared    uint64          `json:"compared"`
	Rate        float64         `json:"cases_per_second"`
	Adapters    []AdapterReport `json:"adapters"`
	Divergences uint64          `json:"divergences"`
	Distinct    []Group         `json:"distinct"`
	Coverage    []ClassCount    `json:"coverage"`
	Interrupted bool            `json:"interrupted"`
	Error       string          `json:"error,omitempty"`
	Exit        int             `json:"exit"`
}

// AdapterReport is one adapter's figures over all lanes.
type AdapterReport struct {
	Name           string  `json:"name"`
	Impl           string  `json:"impl"`
	Version        string  `json:"version"`
	Batches        uint64  `json:"batches"`
	MeanBatchMs    float64 `json:"mean_batch_ms"`
	Failures       uint64  `json:"failures"`
	ProtocolErrors uint64  `json:"protocol_errors"`
	Starts         int     `json:"starts"`
}

// ClassCount is how many cases exercised one edge class.
type ClassCount struct {
	Class string `json:"class"`
	Cases uint64 `json:"cases"`
}

func adapterReports(names []string, lanes []*lane) []AdapterReport {
	var out []AdapterReport
	for ai, name := range names {
		ar := AdapterReport{Name: name}
		var busy time.Duration
		for _, l := range lanes {
			st := l.stats[ai]
			h := l.adapters[ai].Hello()
			ar.Impl, ar.Version = h.Name, h.Version
			ar.Batches += st.Batches
			ar.Failures += st.Failures
			ar.ProtocolErrors += st.ProtocolErrs
			busy += st.Busy
			if w, ok := l.adapters[ai].(interface{ StartCount() int }); ok {
				ar.Starts += w.StartCount()
			}
		}
		if ar.Batches > 0 {
			ar.MeanBatchMs = float64(busy.Microseconds()) / 1000 / float64(ar.Batches)
		}
		out = append(out, ar)
	}
	return out
}

func (r *Report) write(path string) error {
	if path == "" {
		return nil
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := corpus.WriteFileAtomic(path, append(data, '\n')); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// Summary prints the closing summary for people.
func (r *Report) Summary(w io.Writer) {
	fmt.Fprintf(w, "difffuzz: %d cases in %.1fs (%.0f cases/s), %d compared, seed %d, shard %d/%d\n",
		r.Cases, r.Seconds, r.Rate, r.Compared, r.Seed, r.Shard, r.Shards)
	for _, a := range r.Adapters {
		fmt.Fprintf(w, "  %-10s %s %s: %d batches, %.2f ms/batch, %d failures, %d protocol errors, %d starts\n",
			a.Name, a.Impl, a.Version, a.Batches, a.MeanBatchMs, a.Failures, a.ProtocolErrors, a.Starts)
	}
	var unhit []string
	for _, c := range r.Coverage {
		if c.Cases == 0 {
			unhit = append(unhit, c.Class)
		}
	}
	if r.Cases > 0 && len(unhit) > 0 {
		fmt.Fprintf(w, "  edge classes never hit: %s\n", strings.Join(unhit, ", "))
	}
	for i, g := range r.Distinct {
		fmt.Fprintf(w, "bug %d: %s (%d findings, first %s)\n", i+1, g.Signature, g.Count, g.First)
		if g.Minimized != "" {
			fmt.Fprintf(w, "  minimized (%d rounds): %s  [%s]\n", g.MinimizeRounds, clip(g.Minimized, 300), g.MinimizedPath)
		} else {
			fmt.Fprintf(w, "  example: %s\n", clip(g.Example, 300))
			if g.MinimizeNote != "" {
				fmt.Fprintf(w, "  not minimized: %s\n", g.MinimizeNote)
			}
		}
		fmt.Fprint(w, g.Diff)
	}
	if r.Interrupted {
		fmt.Fprintln(w, "difffuzz: interrupted; every finding so far is on disk")
	}
	if r.Error != "" {
		fmt.Fprintf(w, "difffuzz: error: %s\n", r.Error)
	}
	fmt.Fprintf(w, "difffuzz: %d divergences, %d distinct; exit %d\n", r.Divergences, len(r.Distinct), r.Exit)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("... (%d bytes)", len(s))
}

func indentStderr(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "  (no stderr)"
	}
	lines := strings.Split(s, "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return "  stderr: " + strings.Join(lines, "\n  stderr: ")
}

func baseName(p string) string { return filepath.Base(p) }
