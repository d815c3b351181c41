package minimize

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/value"
)

// TestSurrogatesStayLone checks that cutting a string never joins a high
// and a low lone surrogate into what a UTF-16 reader takes for a pair.
func TestSurrogatesStayLone(t *testing.T) {
	hi, lo := "\xed\xa0\x80", "\xed\xb0\x80"
	in := canonjson.Object{{Key: "tool_name", Value: ""}, {Key: "args", Value: canonjson.Object{{Key: "", Value: hi + "x" + lo}}}}
	var tr tree
	tr.build(in, true)
	tr.candidates()
	for _, c := range tr.sorted {
		got := tr.apply(&c)
		if walk(got, func(x any) bool { s, ok := x.(string); return ok && strings.Contains(s, hi+lo) }) {
			t.Fatalf("candidate joins the surrogates: %s", value.AppendText(nil, got))
		}
	}
}

// A bug that needs a character far into a long string (past a count of
// code points, or of UTF-8 bytes) keeps its position while the characters
// before it are written plainly: the escapes shrink to letters.
func TestFillKeepsPositions(t *testing.T) {
	// 72 KB of text: an ASCII letter, then 6,000 astral characters, each a
	// 12-byte escape pair in the text and 4 bytes of UTF-8.
	astral := "x" + strings.Repeat("\U0001F600", 6000)
	tests := []struct {
		name  string
		fails func(s string) bool
		want  int // the minimized text's length: the smallest that fails
	}{
		{"past 5000 code points", func(s string) bool {
			r := []rune(s)
			return len(r) > 5000 && r[5000] > 0x7f
		}, 29 + 2 + 5000 + len(`\u0080`)}, // without fill steps: over 60,000 (no per-character steps past 1,024)
		{"a character across byte 4096", func(s string) bool {
			if len(s) <= 4096 {
				return false
			}
			for i := 4090; i < 4096; i++ {
				if s[i] >= 0xC0 && i+utf8.RuneLen([]rune(s[i:])[0]) > 4096 {
					return true
				}
			}
			return false
			// Not 4095 letters and U+0080, which is 4 bytes smaller: the
			// astral character that crosses byte 4096 has no smaller kin of
			// its UTF-8 length, and a 2-byte one in its place no longer
			// crosses.
		}, 29 + 2 + 4093 + len(`\ud83d\ude00`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := canonjson.Object{{Key: "tool_name", Value: ""}, {Key: "args", Value: canonjson.Object{{Key: "", Value: astral}}}}
			holds := func(v any) bool {
				o, ok := v.(canonjson.Object)
				if !ok || len(o) != 2 {
					return false
				}
				args, ok := o[1].Value.(canonjson.Object)
				if !ok || len(args) != 1 {
					return false
				}
				s, ok := args[0].Value.(string)
				return ok && tt.fails(s)
			}
			got, st, err := Minimize(context.Background(), in, predicate(t, holds, true, DefaultMaxBatch), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(value.AppendText(nil, got)); n != tt.want || !holds(got) {
				txt := value.AppendText(nil, got)
				t.Errorf("%d -> %d bytes in %d rounds, want %d: ...%s", st.StartSize, n, st.Rounds, tt.want, txt[max(0, len(txt)-60):])
			}
		})
	}
}
