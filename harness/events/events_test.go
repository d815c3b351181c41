package events

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRoundTrip(t *testing.T) {
	at := time.Date(2026, 12, 4, 15, 0, 0, 0, time.UTC)
	in := []Event{
		{Type: TypeStart, Start: &Start{Seed: 42, Adapters: []Adapter{{Name: "reference"}, {Name: "py", Language: "python", Model: "text"}}}},
		{Type: TypeProgress, Progress: &Progress{ElapsedSeconds: 1, Cases: 9000, Phase: "fuzzing", Restarts: map[string]map[string]uint64{"py": {"crash": 2}}}},
		{Type: TypeBucket, Bucket: &Bucket{Signature: "key_order: keys in UTF-16 order: py", Kind: "key_order", Cause: "keys in UTF-16 order", Deviants: []string{"py"}, Example: `{"\uE000":0}`}},
		{Type: TypeMinimized, Minimized: &Minimized{Bucket: "a", Signature: "a", Input: "[]", Rounds: 3, Minimal: true}},
		{Type: TypeSummary, Summary: &Summary{Exit: 1, Divergences: 7, Buckets: 1}},
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.now = func() time.Time { return at }
	for _, e := range in {
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(buf.String(), "\n"); n != len(in) {
		t.Fatalf("%d lines for %d events:\n%s", n, len(in), buf.String())
	}
	var out []Event
	if err := Read(&buf, func(e Event) error { out = append(out, e); return nil }); err != nil {
		t.Fatal(err)
	}
	for i := range in {
		in[i].Time = at
	}
	if d := cmp.Diff(in, out); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}

// A nil writer is a run without -events: every call is a no-op.
func TestNilWriter(t *testing.T) {
	var w *Writer
	if err := w.Write(Event{Type: TypeStart}); err != nil || w.Err() != nil {
		t.Fatalf("nil writer: %v, %v", err, w.Err())
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// The first write error is kept: a run reports it once, at its end.
func TestWriteErrorKept(t *testing.T) {
	w := NewWriter(failing{})
	if err := w.Write(Event{Type: TypeStart}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("write to a failing writer: %v", err)
	}
	if w.Err() == nil {
		t.Fatal("Err forgot the write error")
	}
}

// Lines from many goroutines never interleave.
func TestConcurrentLinesWhole(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				w.Write(Event{Type: TypeBucket, Bucket: &Bucket{Signature: strings.Repeat("x", 100*i)}})
			}
		}()
	}
	wg.Wait()
	n := 0
	if err := Read(&buf, func(Event) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != 400 {
		t.Errorf("read %d events, want 400", n)
	}
}

func TestReadRejects(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"not json", "{\"type\":\"start\"}\nhello\n", "line 2"},
		{"no type", "{\"time\":\"2026-12-04T15:00:00Z\"}\n", "line 1: no type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Read(strings.NewReader(tc.in), func(Event) error { return nil })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Read = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// A reader skips what it does not know: the stream only grows.
func TestReadIgnoresUnknown(t *testing.T) {
	in := `{"type":"future","time":"2026-12-04T15:00:00Z","new_field":1}` + "\n\n"
	var got []Type
	if err := Read(strings.NewReader(in), func(e Event) error { got = append(got, e.Type); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "future" {
		t.Errorf("got %v", got)
	}
}
