package adapter

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

func TestSkip(t *testing.T) {
	tests := []struct {
		parts []string
		n     int
		want  string // the rest, parts joined by |
	}{
		{[]string{"ab", "cd"}, 0, "ab|cd"},
		{[]string{"ab", "cd"}, 1, "b|cd"},
		{[]string{"ab", "cd"}, 2, "cd"},
		{[]string{"ab", "cd"}, 3, "d"},
		{[]string{"ab", "cd"}, 4, ""},
		{[]string{"", "ab", "", "cd"}, 2, "cd"},
		{[]string{"ab", "", ""}, 2, ""},
	}
	for _, tt := range tests {
		var parts [][]byte
		for _, p := range tt.parts {
			parts = append(parts, []byte(p))
		}
		var got []string
		for _, p := range skip(parts, tt.n) {
			got = append(got, string(p))
		}
		if g := strings.Join(got, "|"); g != tt.want {
			t.Errorf("skip(%q, %d) = %q, want %q", tt.parts, tt.n, g, tt.want)
		}
	}
}

// Into a pipe, writeParts hands over the parts' pages, not copies: a change
// to a part before it is read shows in what is read, which is why a batch's
// storage waits for its answers (Batch.Release). Into a file, which cannot
// take pages, it copies them.
func TestWritePartsByReference(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	head, body := []byte("head:"), bytes.Repeat([]byte("a"), 8192)
	if err := writeParts(w, head, nil, body); err != nil {
		t.Fatal(err)
	}
	copy(body, "changed")
	got := make([]byte, len(head)+len(body))
	if _, err := io.ReadFull(r, got); err != nil {
		t.Fatal(err)
	}
	if want := append([]byte("head:"), body...); !bytes.Equal(got, want) {
		t.Errorf("read %.20q..., want %.20q...: the pipe holds a copy", got, want)
	}

	f, err := os.Create(t.TempDir() + "/frame")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := writeParts(f, []byte("head:"), []byte("body")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(f.Name()); err != nil || string(b) != "head:body" {
		t.Errorf("file holds %q (%v), want %q", b, err, "head:body")
	}
}
