package run

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// At a terminal the status line rewrites itself in place, cut to the
// width, and steps aside for other lines; elsewhere every status line is a
// plain line, with no \r or escape for a log to choke on.
func TestStatusWriter(t *testing.T) {
	tests := []struct {
		name  string
		width int
		want  string
	}{
		{"pipe", 0, "s1 is long enough\ns2\ndifffuzz: a log line\ns3\n"},
		{"terminal", 80, "\rs1 is long enough\x1b[K\rs2\x1b[K\r\x1b[Kdifffuzz: a log line\n\rs3\x1b[K\n"},
		{"narrow terminal", 10, "\rs1 is lo…\x1b[K\rs2\x1b[K\r\x1b[Kdifffuzz: a log line\n\rs3\x1b[K\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			sw := newStatusWriter(&b, tt.width)
			sw.status("s1 is long enough", false)
			sw.status("s2", false)
			fmt.Fprintln(sw, "difffuzz: a log line")
			sw.status("s3", true)
			if got := b.String(); got != tt.want {
				t.Errorf("wrote %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCut(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"äöüß", 3, "äö…"},
		{"abc", 1, "…"},
	}
	for _, tt := range tests {
		if got := cut(tt.s, tt.n); got != tt.want {
			t.Errorf("cut(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

// The status line's interval: fresh at a terminal, a line every ten
// seconds elsewhere, unless given.
func TestStatusEveryDefaults(t *testing.T) {
	tests := []struct {
		every time.Duration
		width int
		want  time.Duration
	}{
		{0, 0, DefaultProgressEvery},
		{0, 120, DefaultStatusEvery},
		{3 * time.Second, 0, 3 * time.Second},
	}
	for _, tt := range tests {
		c := Config{StatusEvery: tt.every, StatusWidth: tt.width}
		c.setDefaults()
		if c.StatusEvery != tt.want {
			t.Errorf("StatusEvery %v at width %d: %v, want %v", tt.every, tt.width, c.StatusEvery, tt.want)
		}
		if !strings.Contains(fmt.Sprintf("%T", c.Stderr), "statusWriter") {
			t.Errorf("Stderr is a %T, not the status writer", c.Stderr)
		}
	}
}
