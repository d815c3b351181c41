package oneshot

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/triage"
	"github.com/difffuzz/difffuzz/internal/testworker"
	"github.com/difffuzz/difffuzz/value"
)

// An entry whose input shows its finding only after an earlier call on
// one process (the zoo's length cache: a string of one length, then
// another) replays in order on a fresh process and says that alone the
// input agrees; minimize shrinks it to the two strings of one length; and
// an entry of an implementation without the bug agrees.
func TestSequenceEntries(t *testing.T) {
	mutant := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/mutant")
	parse := func(text string) any {
		v, err := value.Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	dir := t.TempDir()
	e := &corpus.Entry{Kind: corpus.KindNondeterministic, Signatures: compare.Signatures{panel.DependsSignature([]string{"sdk"})},
		Before: []any{parse(`{"tool_name":"","args":{"long key":1,"":"\u007faa"}}`), parse(`{"tool_name":"","args":{}}`)},
		Input:  parse(`{"tool_name":"aaa","args":{}}`)}
	path, err := corpus.Write(dir, e)
	if err != nil {
		t.Fatal(err)
	}
	cfg := func(name string, out *bytes.Buffer) Config {
		return Config{Adapters: []adapter.Spec{{Name: "go", InProcess: true}, {Name: "sdk", Command: []string{mutant, name}}},
			CorpusDir: filepath.Join(dir, "min"), Stdout: out, Stderr: out}
	}
	var out bytes.Buffer
	if code := Replay(context.Background(), cfg("length-cache", &out), []string{path}); code != triage.ExitDivergence ||
		!strings.Contains(out.String(), "after 2 earlier calls (alone on a fresh process it agrees") {
		t.Fatalf("replay: exit %d\n%s", code, out.String())
	}
	out.Reset()
	if code := Replay(context.Background(), cfg("ok", &out), []string{path}); code != triage.ExitOK {
		t.Fatalf("replay on the control: exit %d\n%s", code, out.String())
	}
	out.Reset()
	if code := MinimizeFile(context.Background(), cfg("length-cache", &out), path); code != triage.ExitDivergence {
		t.Fatalf("minimize: exit %d\n%s", code, out.String())
	}
	files, _ := corpus.Files([]string{filepath.Join(dir, "min")})
	if len(files) != 1 {
		t.Fatalf("minimize wrote %v\n%s", files, out.String())
	}
	m, err := corpus.Load(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Before) != 1 || !m.Signatures[0].Equal(panel.DependsSignature([]string{"sdk"})) {
		t.Errorf("minimized to %d calls before, %s\n%s", len(m.Before), m.Signatures, out.String())
	}
}

// check runs its lines in order on one process, and says of a line that
// diverges after the lines before it but agrees alone on a fresh process
// that it needs them.
func TestCheckSaysWhenAloneAgrees(t *testing.T) {
	mutant := testworker.Binary(t, "github.com/difffuzz/difffuzz/cmd/mutant")
	lines, err := ReadLines("in", strings.NewReader(`{"tool_name":"","args":{"":"\u007faa"}}`+"\n"+`{"tool_name":"aaa","args":{}}`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, json := range []bool{false, true} {
		var out bytes.Buffer
		cfg := Config{Adapters: []adapter.Spec{{Name: "go", InProcess: true}, {Name: "sdk", Command: []string{mutant, "length-cache"}}},
			JSON: json, Stdout: &out, Stderr: &out}
		if code := Check(context.Background(), cfg, lines); code != triage.ExitDivergence {
			t.Fatalf("check: exit %d\n%s", code, out.String())
		}
		want := "alone on a fresh process it agrees"
		if json {
			want = `"line":2,"agree":false,"needs_earlier":true`
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("check -json=%v says\n%s\nwant %q", json, out.String(), want)
		}
	}
}
