package testworker

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The text is found whole, across writes, and not before it is complete.
func TestMarkAcrossWrites(t *testing.T) {
	for _, tt := range []struct {
		name   string
		writes []string
		want   bool
	}{
		{"one write", []string{"a line\nfakeworker: hanging on the case\n"}, true},
		{"split", []string{"fakeworker: hang", "ing on the", " case\n"}, true},
		{"byte by byte", []string{"h", "a", "n", "g", "i", "n", "g"}, true},
		{"after noise", []string{"x", "xxxxxxxxxxxxxxxxxxxxxxxxx", "xhanging"}, true},
		{"a prefix", []string{"hangin"}, false},
		{"interrupted", []string{"hang", "\n", "ing"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMark("hanging")
			for _, w := range tt.writes {
				if n, err := io.WriteString(m, w); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			select {
			case <-m.Seen():
				if !tt.want {
					t.Error("seen, want not")
				}
			default:
				if tt.want {
					t.Error("not seen")
				}
			}
		})
	}
}

// Said reads whole lines only, and counts those that say what.
func TestSaid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "says")
	if err := os.WriteFile(path, []byte("12 serving\n13 hanging\n14 serving\n15 serv"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Said(t, path, "serving", 2); !slices.Equal(got, []int{12, 14}) {
		t.Errorf("Said = %v, want [12 14]", got)
	}
	if got := said(path, "serv"); len(got) != 0 {
		t.Errorf("said a line cut short: %v", got)
	}
}
