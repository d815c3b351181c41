package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/internal/procstat"
)

// Curve is what a soak writes to out/soak.json.
type Curve struct {
	Command string   `json:"command"`
	Every   float64  `json:"every_seconds"`
	Seconds float64  `json:"seconds,omitempty"` // the run's length, once it ended
	Samples []Sample `json:"samples"`
}

// Sample is the resident sets at one moment, in bytes.
type Sample struct {
	Minute  float64  `json:"minute"`
	Driver  int64    `json:"driver_rss"`
	Workers []Worker `json:"workers"`
}

// Worker is one worker process's resident set; Adapter is told from its
// command line (python, ts, rust, or the program's name).
type Worker struct {
	Adapter string `json:"adapter"`
	Pid     int    `json:"pid"`
	RSS     int64  `json:"rss"`
}

// sample reads the driver's and its children's resident sets now.
func sample(driver int, since time.Duration) Sample {
	s := Sample{Minute: since.Minutes(), Driver: procstat.RSS(driver)}
	for _, pid := range procstat.Children(driver) {
		s.Workers = append(s.Workers, Worker{Adapter: adapterOf(procstat.Cmdline(pid)), Pid: pid, RSS: procstat.RSS(pid)})
	}
	return s
}

// adapterOf names the adapter a worker's command line runs.
func adapterOf(cmdline string) string {
	switch {
	case strings.Contains(cmdline, "python"):
		return "python"
	case strings.Contains(cmdline, "node"):
		return "ts"
	case strings.Contains(cmdline, "target/release/worker"):
		return "rust"
	}
	prog, _, _ := strings.Cut(cmdline, " ")
	return filepath.Base(prog)
}

// adapters is the sorted names of the adapters in any sample.
func (c *Curve) adapters() []string {
	var names []string
	for _, s := range c.Samples {
		for _, w := range s.Workers {
			if !slices.Contains(names, w.Adapter) {
				names = append(names, w.Adapter)
			}
		}
	}
	sort.Strings(names)
	return names
}

// maxRSS is the largest resident set of a worker of adapter in s, 0 if none.
func (s Sample) maxRSS(adapter string) int64 {
	var m int64
	for _, w := range s.Workers {
		if w.Adapter == adapter {
			m = max(m, w.RSS)
		}
	}
	return m
}

// write saves the curve as JSON; "" writes nothing.
func (c *Curve) write(path string) error {
	if path == "" {
		return nil
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	return nil
}

// PrintTable writes the curve as a Markdown table in MiB: the minute, the
// driver, and each adapter's largest worker (one a lane).
func PrintTable(w io.Writer, c *Curve) {
	names := c.adapters()
	fmt.Fprintf(w, "| minute | driver |")
	for _, n := range names {
		fmt.Fprintf(w, " %s |", n)
	}
	fmt.Fprintf(w, "\n|---|---|%s\n", strings.Repeat("---|", len(names)))
	for _, s := range c.Samples {
		fmt.Fprintf(w, "| %.0f | %d |", s.Minute, s.Driver>>20)
		for _, n := range names {
			fmt.Fprintf(w, " %d |", s.maxRSS(n)>>20)
		}
		fmt.Fprintln(w)
	}
}
