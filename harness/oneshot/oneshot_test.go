package oneshot

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/adapter"
	_ "github.com/difffuzz/difffuzz/harness/inprocess" // the in-process adapter
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/internal/clip"
	"github.com/difffuzz/difffuzz/internal/testworker"
)

func TestReadLinesHostileInput(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"truncated", "{\"tool_name\": \"t\", \"args\": {\n", "in.jsonl:1:29: unexpected end of input (each line is one case"},
		{"garbage on line 3", "{\"tool_name\":\"t\",\"args\":{}}\n\n{\"a\": nope}\n", "in.jsonl:3:7: "},
		{"empty", "\n  \n", "in.jsonl: no case: the input is empty"},
		{"too deep", strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n", "in.jsonl:1:"},
		{"lone quote", "\"\n", "in.jsonl:1:"},
	}
	for _, tt := range tests {
		_, err := ReadLines("in.jsonl", strings.NewReader(tt.input))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to start with %q", tt.name, err, tt.want)
		}
	}
	vals, err := ReadLines("ok.jsonl", strings.NewReader("\n{\"tool_name\":\"t\",\"args\":{\"a\":NaN}}\n  \n[1]\n"))
	if err != nil || len(vals) != 2 {
		t.Errorf("good lines: %d values, %v", len(vals), err)
	}
}

func TestCheckLargeInputsGoInTheirOwnBatches(t *testing.T) {
	big := `{"tool_name":"t","args":{"s":"` + strings.Repeat("\u00e9", 3<<20) + `"}}`
	vals, err := ReadLines("big", strings.NewReader(big+"\n"+big+"\n"+big+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Check(context.Background(), Config{Adapters: specs(t, "ok"), Stdout: &out, Stderr: &errb}, vals)
	if code != triage.ExitOK || strings.Count(out.String(), ": agree") != 3 {
		t.Errorf("exit %d\n%s\n%s", code, clip.String(out.String(), 2000), errb.String())
	}
}

// Each adapter's output is shown once a line, agreeing or diverging (a
// divergence's rendering shows them with how they differ).
func TestCheckShowsEachOutputOnce(t *testing.T) {
	vals, err := ReadLines("in", strings.NewReader(`{"tool_name":"t","args":{"a":1}}`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		mode string
		want int
	}{{"ok", triage.ExitOK}, {"differ", triage.ExitDivergence}} {
		var out, errb bytes.Buffer
		code := Check(context.Background(), Config{Adapters: specs(t, tt.mode), Stdout: &out, Stderr: &errb}, vals)
		if code != tt.want {
			t.Errorf("%s: exit %d, want %d\n%s%s", tt.mode, code, tt.want, out.String(), errb.String())
		}
		for _, name := range []string{"go", "fake"} {
			if n := strings.Count(out.String(), fmt.Sprintf("\n  %-10s ", name)); n != 1 {
				t.Errorf("%s: %d output lines of %s, want 1:\n%s", tt.mode, n, name, out.String())
			}
		}
	}
}

func specs(t *testing.T, mode string) []adapter.Spec {
	return []adapter.Spec{{Name: "go", InProcess: true}, {Name: "fake", Command: testworker.Command(t, mode)}}
}
