package oneshot

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/internal/testworker"
)

func TestChunkEnd(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, size := range []int{10, 10, 10, 50, 10, 10} {
		p := filepath.Join(dir, fmt.Sprintf("%d.json", i))
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	files = append(files, filepath.Join(dir, "gone.json")) // counts as empty
	for _, tc := range []struct {
		start int
		chunk int64
		want  int
	}{
		{0, 30, 3},  // three of 10 fit, the fourth does not
		{0, 29, 2},  //
		{3, 30, 4},  // a file over the chunk is a chunk of its own
		{4, 30, 7},  // the missing file rides along
		{0, 1e6, 7}, // everything
	} {
		if got := chunkEnd(files, tc.start, tc.chunk); got != tc.want {
			t.Errorf("chunkEnd(from %d, %d bytes) = %d, want %d", tc.start, tc.chunk, got, tc.want)
		}
	}
}

// A corpus of more entries than a chunk holds replays whole, each entry
// counted once, and a malformed file among them is named while the rest
// still replay.
func TestReplayInChunks(t *testing.T) {
	dir := t.TempDir()
	const n = 2*replayChunkFiles + 100
	for i := range n {
		// The entry's own bytes, not corpus.Write: it syncs each file to
		// disk, which for two thousand files is most of the test's time.
		e := &corpus.Entry{Input: call(fmt.Sprint(i))}
		if err := os.WriteFile(corpus.EntryPath(dir, e), e.Marshal(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bad := filepath.Join(dir, "zz-bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Replay(context.Background(), Config{Adapters: specs(t, "ok"), Stdout: &out, Stderr: &errb}, []string{dir})
	if code != triage.ExitSetup {
		t.Errorf("exit %d, want %d for the malformed file", code, triage.ExitSetup)
	}
	if want := fmt.Sprintf("replay: %d passed, 0 failed\n", n); !strings.HasSuffix(out.String(), want) {
		t.Errorf("stdout ends %q, want %q", tail(out.String()), want)
	}
	if !strings.Contains(errb.String(), "1 malformed file(s)") || !strings.Contains(errb.String(), bad) {
		t.Errorf("stderr does not name the malformed file:\n%s", errb.String())
	}
}

// A collision entry replays both its inputs: it fails while an
// implementation still gives them one digest, and passes once none does.
func TestReplayCollision(t *testing.T) {
	mutant := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/mutant")
	dir := t.TempDir()
	if _, err := corpus.Write(dir, &corpus.Entry{Kind: "collision", Signatures: compare.Signatures{compare.MustParseSignature("collision: a composed and a decomposed é: mutant")},
		Input: call("\u00e9"), Twin: call("e\u0301")}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mutant string
		want   int
		says   []string
	}{
		{"nfc-composed", triage.ExitDivergence, []string{"DIVERGES", "collision: ", ": m\n", "m gives both the digest", "replay: 0 passed, 1 failed"}},
		{"neg-zero", triage.ExitOK, []string{"agrees", "replay: 1 passed, 0 failed"}},
	} {
		var out, errb bytes.Buffer
		specs := []adapter.Spec{{Name: "go", InProcess: true}, {Name: "m", Command: []string{mutant, tc.mutant}}}
		code := Replay(context.Background(), Config{Adapters: specs, Stdout: &out, Stderr: &errb}, []string{dir})
		if code != tc.want {
			t.Errorf("%s: exit %d, want %d\n%s%s", tc.mutant, code, tc.want, out.String(), errb.String())
		}
		for _, s := range tc.says {
			if !strings.Contains(out.String(), s) {
				t.Errorf("%s: output lacks %q:\n%s", tc.mutant, s, out.String())
			}
		}
	}
}

// call is a tool call whose one argument is s.
func call(s string) map[string]any {
	return map[string]any{"tool_name": "t", "args": map[string]any{"a": s}}
}

func tail(s string) string {
	if len(s) > 200 {
		return s[len(s)-200:]
	}
	return s
}
