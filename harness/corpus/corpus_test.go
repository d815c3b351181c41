package corpus

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/value"

	"github.com/google/go-cmp/cmp"
)

func input(v any) any {
	return value.Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: value.Object{{Key: "a", Value: v}, {Key: "a", Value: "\xed\xa0\x80"}}}}
}

func TestWriteLoadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	e := &Entry{Input: input(math.NaN()), Kind: "divergence", Signatures: compare.Signatures{compare.MustParseSignature("number: not the shortest digits that round-trip: python, ts")}, Seed: 42, Index: 7, Generated: true,
		Outcomes: []Outcome{{Adapter: "python", Impl: "canonjson-python", Version: "0.1.0", Canonical: `{"x":NaN}`, Digest: "ab"}, {Adapter: "ts", Error: "lone_surrogate"}}}
	path, err := Write(dir, e)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != Name(e.Input) || !strings.HasSuffix(path, ".json") {
		t.Errorf("path %s, want content-addressed name %s", path, Name(e.Input))
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !value.Equal(got.Input, e.Input) || got.Kind != e.Kind || got.Signatures.String() != e.Signatures.String() || got.Seed != 42 || got.Index != 7 || !got.Generated {
		t.Errorf("loaded %+v, wrote %+v", got, e)
	}
	if len(got.Outcomes) != 2 || got.Outcomes[0] != e.Outcomes[0] || got.Outcomes[1] != e.Outcomes[1] {
		t.Errorf("outcomes %+v, wrote %+v", got.Outcomes, e.Outcomes)
	}
	// Writing the same input again keeps one file.
	if _, err := Write(dir, &Entry{Input: e.Input}); err != nil {
		t.Fatal(err)
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 1 {
		t.Errorf("%d files, want 1", len(files))
	}
}

func TestLoadBareInputAndErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	e, err := Load(write("bare.json", `{"tool_name":"t","args":{"a":1e21}}`))
	if err != nil || e.Kind != "" || value.AppendText(nil, e.Input) == nil {
		t.Fatalf("bare input: %v %+v", err, e)
	}
	tests := []struct{ name, text, want string }{
		{"truncated.json", `{"tool_name":"t","args":{`, "bad.json"},
		{"garbage.json", "{\n  \"a\": x}", "line 2"},
		{"version.json", `{"difffuzz_corpus": 9, "input": null}`, "corpus format 9"},
		{"noinput.json", `{"difffuzz_corpus": 1}`, "no \"input\""},
	}
	for _, tt := range tests {
		p := write(tt.name, tt.text)
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), tt.name) {
			t.Errorf("%s: err = %v, want it to name the file", tt.name, err)
		}
		if tt.want != "bad.json" && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
	files, _ := Files([]string{dir})
	entries, _, err := LoadAll(files)
	var me *MalformedError
	if len(entries) != 1 || err == nil || !asMalformed(err, &me) || len(me.Errs) != 4 {
		t.Errorf("LoadAll: %d entries, err %v; want 1 entry and 4 malformed files", len(entries), err)
	}
}

func asMalformed(err error, me **MalformedError) bool {
	m, ok := err.(*MalformedError)
	*me = m
	return ok
}

func TestConcurrentWritersLoseNothing(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if _, err := Write(dir, &Entry{Input: input(int64(i))}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	files, _ := os.ReadDir(dir)
	if len(files) != 50 {
		t.Errorf("%d files, want 50 (and no temporaries)", len(files))
	}
}

func TestUnwritableFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		// root ignores permissions; a file in the way of the folder still fails.
		dir := filepath.Join(t.TempDir(), "file")
		os.WriteFile(dir, nil, 0o644)
		if _, err := Write(dir, &Entry{Input: input(1)}); err == nil {
			t.Fatal("write into a path that is a file: no error")
		}
		return
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o555)
	if _, err := Write(dir, &Entry{Input: input(1)}); err == nil {
		t.Fatal("write into a read-only folder: no error")
	}
}

// Two findings of one input keep the lower case index of the same seed,
// whichever is written first; another seed's, or a bare input, is kept.
func TestWriteKeepsTheLowestIndex(t *testing.T) {
	dir := t.TempDir()
	input := value.Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: value.Object{}}}
	write := func(seed, index uint64) {
		t.Helper()
		if _, err := Write(dir, &Entry{Input: input, Kind: "divergence", Seed: seed, Index: index, Generated: true}); err != nil {
			t.Fatal(err)
		}
	}
	index := func() uint64 {
		e, err := Load(filepath.Join(dir, Name(input)))
		if err != nil {
			t.Fatal(err)
		}
		return e.Index
	}
	write(1, 677)
	write(1, 391)
	if got := index(); got != 391 {
		t.Errorf("index %d, want the lower 391", got)
	}
	write(1, 900)
	write(2, 5)
	if got := index(); got != 391 {
		t.Errorf("index %d after a higher index and another seed, want 391 kept", got)
	}
}

// An input extended JSON cannot write (a non-string key, bin data) is kept
// losslessly, and read back as it was.
func TestOutOfModelInputRoundTrip(t *testing.T) {
	in := value.Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: value.RawObject{
		{Key: int64(1), Value: []byte{0xff}}, {Key: "a", Value: int64(2)}}}}
	if Representable(in) {
		t.Fatal("a non-string key counted as representable")
	}
	dir := t.TempDir()
	path, err := Write(dir, &Entry{Input: in, Kind: "divergence", Signatures: compare.Signatures{compare.MustParseSignature("rejection: a bin value rejected: ts")}})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"input": null`) || !strings.Contains(string(data), `"input_text": "{\"tool_name\":\"t\",\"args\":{1:`) {
		t.Errorf("entry text:\n%s", data)
	}
	e, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, e.Input); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
}

// A collision's entry keeps both inputs, and its file is apart from that of
// its first input's own divergence.
func TestCollisionEntryRoundTrip(t *testing.T) {
	a := value.Object{{Key: "a\":1,\"b", Value: int64(2)}}
	b := value.Object{{Key: "a", Value: int64(1)}, {Key: "b", Value: int64(2)}}
	e := &Entry{Input: a, Kind: "collision", Signatures: compare.Signatures{compare.MustParseSignature("collision: a key holding a quote: go")}, Seed: 1, Index: 4, Generated: true,
		Outcomes: []Outcome{{Adapter: "go", Canonical: `{"a\":1,\"b":2}`}}, Twin: b, TwinIndex: 5,
		TwinOutcomes: []Outcome{{Adapter: "go", Canonical: `{"a":1,"b":2}`}}}
	dir := t.TempDir()
	path, err := Write(dir, e)
	if err != nil {
		t.Fatal(err)
	}
	if path == Path(dir, a) {
		t.Errorf("the collision takes its first input's file %s", path)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !value.Equal(got.Twin, b) || got.TwinIndex != 5 || len(got.TwinOutcomes) != 1 || got.TwinOutcomes[0].Canonical != `{"a":1,"b":2}` {
		t.Errorf("twin read back as %v (index %d, outcomes %v)", got.Twin, got.TwinIndex, got.TwinOutcomes)
	}
}

// A collision's twin that extended JSON cannot write (bin data) is kept
// losslessly, as its input is, and the file reads back.
func TestTwinNotRepresentable(t *testing.T) {
	a := value.Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: value.Object{{Key: "b", Value: []byte{1, 2}}}}}
	b := value.Object{{Key: "tool_name", Value: "t"}, {Key: "args", Value: value.Object{{Key: "b", Value: "x"}}}}
	e := &Entry{Input: b, Kind: "collision", Signatures: compare.Signatures{compare.MustParseSignature("collision: a key holding a quote: go")}, Twin: a}
	got, err := Unmarshal(e.Marshal())
	if err != nil {
		t.Fatalf("%v\n%s", err, e.Marshal())
	}
	if !value.Equal(got.Twin, a) || !value.Equal(got.Input, b) {
		t.Errorf("read back %s and %s", value.AppendText(nil, got.Input), value.AppendText(nil, got.Twin))
	}
}
