package adapter

import (
	"strings"
	"testing"
)

func TestAsText(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" when not text
	}{
		{"debu", "debu"},
		{"debug: canonicalizing\n\x00\x00\x00\x10\x85", "debug: canonicalizing"},
		{"  INFO\tstarting  \r\nmore", "INFO\tstarting"},
		{"caf\xc3\xa9 ok", "café ok"},
		{"caf\xc3", "caf"}, // a character cut off by the peek
		{"\x00\x00\x00\x05", ""},
		{"\x85\xa4type", ""},
		{"\xff\xfe text", ""},
		{"\n\nlater", ""},
		{"   ", ""},
		{strings.Repeat("x", 150), strings.Repeat("x", maxText) + "…"},
	}
	for _, tt := range tests {
		got, ok := asText([]byte(tt.in))
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("asText(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

// A tail shows stdout's lines first, marked, then stderr as it came, so
// that its last line is stderr's whatever order the pipes gave; each
// stream keeps its last max bytes.
func TestTail(t *testing.T) {
	type write struct {
		stream int
		s      string
	}
	tests := []struct {
		name   string
		max    int
		writes []write
		want   string
	}{
		{"stdout first", 100, []write{{errStream, "Traceback\n"}, {outStream, "debug: can"}, {outStream, "onicalizing\n"}, {errStream, "ValueError: x\n"}},
			"stdout: debug: canonicalizing\nTraceback\nValueError: x\n"},
		{"stderr alone", 100, []write{{errStream, "a\nb"}}, "a\nb"},
		{"stdout alone, unfinished", 100, []write{{outStream, "a\nb"}}, "stdout: a\nstdout: b\n"},
		{"bounded", 8, []write{{errStream, "0123456789\nabc\n"}, {outStream, "xyz\n"}}, "stdout: xyz\n789\nabc\n"},
	}
	for _, tt := range tests {
		tl := newTail(tt.max, nil)
		for _, w := range tt.writes {
			tl.stream(w.stream).Write([]byte(w.s))
		}
		if got := tl.String(); got != tt.want {
			t.Errorf("%s: tail %q, want %q", tt.name, got, tt.want)
		}
	}
}
