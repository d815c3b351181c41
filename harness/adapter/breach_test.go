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

// A worker's streams are interleaved by whole lines, an unfinished line
// shown last, and only the last max bytes kept.
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
		{"lines whole", 100, []write{{outStream, "debug: can"}, {errStream, "Traceback\n"}, {outStream, "onicalizing\n"}, {errStream, "ValueError: x\n"}},
			"Traceback\ndebug: canonicalizing\nValueError: x\n"},
		{"unfinished last", 100, []write{{errStream, "a\nb"}, {outStream, "c\n"}}, "a\nc\nb\n"},
		{"bounded", 8, []write{{errStream, "0123456789\nabc\n"}}, "789\nabc\n"},
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
