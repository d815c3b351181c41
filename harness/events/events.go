// Package events is difffuzz run's machine-readable stream (-events FILE|-):
// one JSON object a line, each with its type and time, so that programs
// (the mutant hunt, the soak, the project's own tests, the GitHub Action)
// follow a run without reading the lines meant for people, whose words may
// change. The types are the run's milestones: start, progress (every second),
// a new bucket, a bucket minimized, a collision, and the summary last.
//
// A line is written whole, at once, and flushed, so that a reader that
// follows the file as it grows never sees half an event. Readers ignore
// fields and types they do not know: the stream only grows.
package events

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// Type is what an event says happened.
type Type string

// The event types, in the order a run writes them first.
const (
	TypeStart     Type = "start"     // the run began: Start
	TypeProgress  Type = "progress"  // a status line's figures: Progress
	TypeBucket    Type = "bucket"    // a new bucket, or more implementations in one: Bucket
	TypeCollision Type = "collision" // a new collision bucket: Bucket, with Twin
	TypeMinimized Type = "minimized" // a bucket's example minimized: Minimized
	TypeSummary   Type = "summary"   // the run ended, last: Summary
)

// Event is one line of the stream. Type says which one of the pointers is
// set.
type Event struct {
	Type Type      `json:"type"`
	Time time.Time `json:"time"`

	Start     *Start     `json:"start,omitempty"`
	Progress  *Progress  `json:"progress,omitempty"`
	Bucket    *Bucket    `json:"bucket,omitempty"`
	Minimized *Minimized `json:"minimized,omitempty"`
	Summary   *Summary   `json:"summary,omitempty"`
}

// Start is the run's set-up, as it repeats: its seed and its adapters.
type Start struct {
	Seed     uint64    `json:"seed"`
	Adapters []Adapter `json:"adapters"` // the reference first
	// Duration and Cases are the run's limits; 0 means none.
	DurationSeconds float64 `json:"duration_seconds,omitempty"`
	Cases           uint64  `json:"cases,omitempty"`
}

// Adapter is one implementation under test, as its worker said hello.
type Adapter struct {
	Name     string `json:"name"`
	Language string `json:"language,omitempty"`
	Impl     string `json:"impl,omitempty"`
	Version  string `json:"version,omitempty"`
	Model    string `json:"model,omitempty"`
}

// Progress is what the status line shows, in numbers.
type Progress struct {
	ElapsedSeconds float64 `json:"elapsed_seconds"`
	Cases          uint64  `json:"cases"`
	CasesPerSecond float64 `json:"cases_per_second"`
	Divergences    uint64  `json:"divergences"`
	Buckets        int     `json:"buckets"`
	// Phase is "fuzzing" or "minimizing"; while minimizing, Minimizing is
	// the bucket being worked on (1-based) of Minimize.
	Phase      string `json:"phase"`
	Minimizing int    `json:"minimizing,omitempty"`
	Minimize   int    `json:"minimize,omitempty"`
	// Restarts counts each adapter's worker restarts by reason.
	Restarts map[string]map[string]uint64 `json:"restarts,omitempty"`
}

// Bucket is one root cause as first seen (or seen in one more
// implementation): its signature's text form and parts, and where its first
// example was saved.
type Bucket struct {
	Signature string   `json:"signature"`
	Kind      string   `json:"kind"`
	Cause     string   `json:"cause"`
	Deviants  []string `json:"deviants"`
	Example   string   `json:"example"` // the input, in extended JSON (clipped)
	Twin      string   `json:"twin,omitempty"`
	Path      string   `json:"path,omitempty"` // its corpus file
	// More is true when the bucket existed and more implementations now
	// show it.
	More bool `json:"more,omitempty"`
}

// Minimized is a bucket's example after the minimizer, and the signature the
// minimized example shows (the bucket's label from then on).
type Minimized struct {
	Bucket    string  `json:"bucket"`    // the signature the bucket had
	Signature string  `json:"signature"` // the one its minimized example shows
	Input     string  `json:"input"`
	Twin      string  `json:"twin,omitempty"`
	Path      string  `json:"path,omitempty"`
	Rounds    int     `json:"rounds"`
	Minimal   bool    `json:"minimal"`
	Seconds   float64 `json:"seconds"`
	// Note says why a bucket was left unminimized (the budget ran out, the
	// run was interrupted, it did not reproduce); "" when it was minimized.
	Note string `json:"note,omitempty"`
}

// Summary is how the run ended.
type Summary struct {
	Exit        int     `json:"exit"`
	Cases       uint64  `json:"cases"`
	Seconds     float64 `json:"seconds"`
	Divergences uint64  `json:"divergences"`
	Buckets     int     `json:"buckets"`
	Interrupted bool    `json:"interrupted"`
	Report      string  `json:"report,omitempty"` // the JSON report's path
}

// Writer writes events as JSON lines. Its methods are safe for concurrent
// use; a nil *Writer writes nothing, so that a run without -events calls it
// all the same.
type Writer struct {
	mu  sync.Mutex
	w   *bufio.Writer
	err error
	now func() time.Time
}

// NewWriter writes events to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriter(w), now: time.Now}
}

// Write writes e (stamping its time if unset) as one line, flushed. The
// first error is kept and returned by every later call, and by Err.
func (w *Writer) Write(e Event) error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if e.Time.IsZero() {
		e.Time = w.now().UTC()
	}
	line, err := json.Marshal(e)
	if err != nil {
		w.err = fmt.Errorf("events: %w", err)
		return w.err
	}
	line = append(line, '\n')
	if _, err := w.w.Write(line); err != nil {
		w.err = fmt.Errorf("events: %w", err)
		return w.err
	}
	if err := w.w.Flush(); err != nil {
		w.err = fmt.Errorf("events: %w", err)
	}
	return w.err
}

// Err is the first error a write met, if any.
func (w *Writer) Err() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// MaxLine bounds one event's line for a reader: an example is clipped by the
// run, so a longer line is not an event.
const MaxLine = 4 << 20

// Read calls fn for each event of r, in order, until r ends, fn returns an
// error, or a line is not an event (an error naming its line number).
func Read(r io.Reader, fn func(Event) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return fmt.Errorf("events: line %d: %w", n, err)
		}
		if e.Type == "" {
			return fmt.Errorf("events: line %d: no type", n)
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("events: %w", err)
	}
	return nil
}
