package conform

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/inprocess"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"

	"github.com/vmihailenco/msgpack/v5"
	"lukechampine.com/blake3"

	"github.com/difffuzz/difffuzz/internal/clip"
)

func TestBatchRawMatchesBatch(t *testing.T) {
	raw := [][]byte{{0xc0}, {0x01}, []byte("\xa1a"), []byte("\x81\xa1k\x90")}
	values := []any{nil, int64(1), "a", value.Object{{Key: "k", Value: []any{}}}}
	enc := wire.NewEncoder()
	got, err := enc.BatchRaw(9, raw)
	if err != nil {
		t.Fatal(err)
	}
	got = bytes.Clone(got)
	want, err := enc.Batch(9, values)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("BatchRaw = %x, Batch = %x", got, want)
	}
	var m wire.Message
	if err := wire.NewDecoder().Decode(got[4:], &m); err != nil || m.ID != 9 || len(m.Cases) != len(values) {
		t.Fatalf("decoded %+v, %v", m, err)
	}
}

// TestSpecExamples checks the hard-coded table against the Go
// implementation, which follows the same spec.
func TestSpecExamples(t *testing.T) {
	for i, ex := range specExamples {
		v, err := value.Parse([]byte(ex.input))
		if err != nil {
			t.Fatalf("example %d: %v", i+1, err)
		}
		if m := mismatch(inprocess.Compute(v), ex.want); m != "" {
			t.Errorf("example %d %s: %s", i+1, clip.String(ex.input, 60), m)
		}
	}
}

func TestCodeCases(t *testing.T) {
	count := map[string]int{}
	for _, c := range codeCases {
		count[c.code]++
		r := bytes.NewReader([]byte(c.msgpack))
		if err := msgpack.NewDecoder(r).Skip(); err != nil || r.Len() != 0 {
			t.Errorf("%s %q: not exactly one msgpack value (%v, %d bytes left)", c.code, c.name, err, r.Len())
		}
	}
	for _, code := range errorCodes {
		if count[code] == 0 {
			t.Errorf("no case for %s", code)
		}
	}
	if len(count) != len(errorCodes) {
		t.Errorf("cases for %d codes, want %d", len(count), len(errorCodes))
	}
}

func TestMismatch(t *testing.T) {
	text := `{"args":{"a":1},"tool_name":"t"}`
	d := blake3.Sum256([]byte(text))
	ok := wire.Result{Canonical: []byte(text), Digest: d[:]}
	tests := []struct {
		name string
		got  wire.Result
		want want
		msg  string // "" for a match
	}{
		{"same text", ok, wantText(text), ""},
		{"same code", wire.Result{Error: "too_deep"}, wantCode("too_deep"), ""},
		{"other code", wire.Result{Error: "lone_surrogate", Message: "m"}, wantCode("too_deep"), "got error lone_surrogate (m), want error too_deep"},
		{"error for text", wire.Result{Error: "internal", Message: "boom"}, wantText(text), "got error internal (boom), want `{\"args\""},
		{"text for error", ok, wantCode("bad_envelope"), "got `{\"args\":{\"a\":1},\"tool_name\":\"t\"}`, want error bad_envelope"},
		{"other text", ok, wantText(`{"args":{"a":2},"tool_name":"t"}`), "canonical text differs at byte 13 (number): got `{\"args\":{\"a\":>>>1},\"tool_name\":\"t\"}`"},
		{"prefix", ok, wantText(text + "x"), "differs at byte 32"},
		{"bad digest", wire.Result{Canonical: ok.Canonical, Digest: make([]byte, 32)}, wantText(text), "digest 0000000000000000000000000000000000000000000000000000000000000000 is not BLAKE3"},
		{"digest alone, same text", wire.Result{Digest: d[:]}, wantText(text), ""},
		{"digest alone, other text", wire.Result{Digest: make([]byte, 32)}, wantText(text), "digest 0000000000000000000000000000000000000000000000000000000000000000 differs from BLAKE3 of the wanted text `{\"args\""},
		{"digest alone for error", wire.Result{Digest: d[:]}, wantCode("too_deep"), "got a digest and no text, want error too_deep"},
		{"non-ASCII output", wire.Result{Canonical: []byte("{\"\xc3\xa9\"}"), Digest: d[:]}, wantText(`{"\u00e9"}`), `got "{\">>>\u00e9\"}"`},
	}
	for _, tt := range tests {
		got := mismatch(tt.got, tt.want)
		if (tt.msg == "") != (got == "") || !strings.Contains(got, tt.msg) {
			t.Errorf("%s: mismatch = %q, want %q", tt.name, got, tt.msg)
		}
	}
}

func TestLoadFixtures(t *testing.T) {
	good := `{"category":"c","input":null,"msgpack":"wA==","error":"bad_envelope"}` + "\n"
	head := `{"contract": "difffuzz"}` + "\n"
	tests := []struct {
		name    string
		content string // "" for no file at all
		err     string // "" for success
	}{
		{"no files", "", "no *.jsonl files"},
		{"good", head + good + good, ""},
		{"empty file", "\n", "holds no cases"},
		{"header only", head, "holds no cases"},
		{"no header", good + good, `x.jsonl:1: want the header line {"contract": "difffuzz"} first`},
		{"another contract", `{"contract": "rfc8785"}` + "\n" + good + good, `x.jsonl:1: fixtures of contract "rfc8785", but these checks hold a worker to contract "difffuzz"`},
		{"no msgpack", head + `{"category":"c","error":"too_deep"}`, `x.jsonl:2: no "msgpack" field`},
		{"no signature", head + good + `{"category":"c","msgpack":"wA==","canonical":"{}"}`, `x.jsonl:3: want either "error", or "canonical" and "signature"`},
		{"not JSON", head + good + good + "{", "x.jsonl:4: unexpected end of JSON input"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		if tt.content != "" {
			if err := os.WriteFile(filepath.Join(dir, "x.jsonl"), []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		files, err := loadFixtures(dir)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.err == "" && (len(files) != 1 || len(files[0].cases) != 2 || files[0].cases[1].line != 3):
			t.Errorf("%s: loaded %+v", tt.name, files)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.err)
		}
	}
}

// A worker's batch_cpu_ns is optional; said, it cannot exceed what every
// core gives over the batch's round trip.
func TestBatchCost(t *testing.T) {
	cores := time.Duration(runtime.NumCPU())
	for _, tc := range []struct {
		cpu, wall time.Duration
		want      string // "" for an error
	}{
		{0, time.Second, "batch cost not said"},
		{3 * time.Millisecond, 5 * time.Millisecond, "batch cost 3ms of CPU"},
		{cores*time.Second + 5*time.Millisecond, time.Second, "batch cost"},
		{cores*time.Second + 11*time.Millisecond, time.Second, ""},
		{time.Hour, time.Millisecond, ""},
	} {
		got, err := batchCost(tc.cpu, tc.wall)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("batchCost(%v, %v) = %q, want an error", tc.cpu, tc.wall, got)
		case tc.want != "" && (err != nil || !strings.HasPrefix(got, tc.want)):
			t.Errorf("batchCost(%v, %v) = %q, %v; want %q...", tc.cpu, tc.wall, got, err, tc.want)
		}
	}
}

// A failure list written by FormatKnown reads back as its checks, in
// order, whatever the reasons hold (a # among them).
func TestFormatKnownReadsBack(t *testing.T) {
	fails := []Failure{
		{"fixtures/edge.jsonl", "canonical text differs at byte 3 (number): got `1.0`, want `1`"},
		{"error-codes/too_deep", "got `[[[...` want error too_deep # not a check name " + strings.Repeat("x", 100)},
	}
	data := FormatKnown("# header\n# more\n", fails)
	path := filepath.Join(t.TempDir(), "known-failures.txt")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadKnown(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"fixtures/edge.jsonl", "error-codes/too_deep"}; !slices.Equal(got, want) {
		t.Errorf("read back %q, want %q:\n%s", got, want, data)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if len(l) > 120 {
			t.Errorf("line of %d bytes: %s", len(l), l)
		}
	}
}
