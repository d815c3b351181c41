package run

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/report"
)

// Defaults of Config.StatusEvery: at a terminal the status line rewrites
// itself in place, so it can be fresh; elsewhere (a CI log, a file) each
// one is a line of its own, and one a second would bury the rest.
const (
	DefaultStatusEvery   = time.Second
	DefaultProgressEvery = 10 * time.Second
)

// statusWriter is the run's Stderr: it serializes writes, since the lanes
// log worker failures while the loop prints status lines and a line must
// never be cut by another; and at a terminal (width > 0) it keeps the
// status line on the screen's last row, rewritten in place with \r and cut
// to the width, and clears it before any other line, which the next status
// line then follows.
type statusWriter struct {
	mu    sync.Mutex
	w     io.Writer
	width int  // the terminal's columns; 0 when w is not a terminal
	shown bool // a status line is on the last row, without its newline
}

func newStatusWriter(w io.Writer, width int) *statusWriter {
	return &statusWriter{w: w, width: width}
}

// Write writes p whole, on a row of its own.
func (sw *statusWriter) Write(p []byte) (int, error) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	sw.clear()
	return sw.w.Write(p)
}

// clear erases the status line from the screen; mu is held.
func (sw *statusWriter) clear() {
	if sw.shown {
		io.WriteString(sw.w, "\r\x1b[K")
		sw.shown = false
	}
}

// status shows line, which has no newline: at a terminal in place of the
// last one (and left there, on a row of its own, when final), elsewhere as
// a line of its own.
func (sw *statusWriter) status(line string, final bool) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.width <= 0 {
		io.WriteString(sw.w, line+"\n")
		return
	}
	end, shown := "\x1b[K", true
	if final {
		end, shown = "\x1b[K\n", false
	}
	io.WriteString(sw.w, "\r"+cut(line, sw.width-1)+end)
	sw.shown = shown
}

// cut shortens s to at most n characters, so that a status line never
// wraps: \r goes back to the start of the last row only.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for range max(n-1, 0) {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}

// restartSummary is the status line's note of the restarts of each
// worker-backed adapter, by reason, over every lane; "" if none restarted.
func restartSummary(names []string, lanes []*panel.Panel) string {
	var parts []string
	for ai, name := range names {
		byReason := map[string]int{}
		for _, l := range lanes {
			if w, ok := l.Adapters()[ai].(*adapter.Worker); ok {
				byReason = addCounts(byReason, w.Restarts())
			}
		}
		if text := report.ReasonsText(byReason, ""); text != "" {
			parts = append(parts, fmt.Sprintf("%s %s", name, text))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "  restarts: " + strings.Join(parts, "; ")
}

// addCounts adds the counts of b to a, made if nil, and returns it.
func addCounts(a, b map[string]int) map[string]int {
	for k, n := range b {
		if a == nil {
			a = map[string]int{}
		}
		a[k] += n
	}
	return a
}
