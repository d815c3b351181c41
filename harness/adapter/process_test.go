package adapter

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// Parts far larger than a pipe holds arrive whole and in order, the writer
// waiting for the reader as a plain write would.
func TestWritePartsFillsThePipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	head, body := []byte("head"), bytes.Repeat([]byte("0123456789"), 300_000) // 3 MB: several pipes full
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	w.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if err := writeParts(w, head, body); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if b := <-got; !bytes.Equal(b, append(head, body...)) {
		t.Errorf("read %d bytes, not the %d written in order", len(b), len(head)+len(body))
	}
}

// With no reader, a full pipe makes writeParts fail at its deadline with
// os.ErrDeadlineExceeded, which a worker's round trip takes for a hang.
func TestWritePartsDeadline(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	w.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
	err = writeParts(w, []byte("x"), make([]byte, 4<<20))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("error %v, want os.ErrDeadlineExceeded", err)
	}
}
