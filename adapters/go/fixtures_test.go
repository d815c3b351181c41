package canonjson

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

var fixturesDir = flag.String("fixtures", filepath.Join("..", "..", "tests", "fixtures", "canonical-json-fuzz"),
	"directory of the shared *.jsonl fixtures")

// fixtureLine is one line of a fixture file (see tests/fixtures): either
// canonical+signature or error is present.
type fixtureLine struct {
	Category  string  `json:"category"`
	Input     *string `json:"input"` // null for cases only the wire can carry
	Msgpack   []byte  `json:"msgpack"`
	Canonical *string `json:"canonical"`
	Signature *string `json:"signature"`
	Error     *string `json:"error"`
}

// TestFixtures checks this implementation against every line of the shared
// fixtures. It fails, rather than skips, when there are none: a missing
// fixture set must not look like a pass.
func TestFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(*fixturesDir, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no fixture files (*.jsonl) in %s: generate them with `make fixtures`", *fixturesDir)
	}
	total := 0
	for _, file := range files {
		total += checkFixtureFile(t, file)
	}
	if total == 0 {
		t.Fatalf("the fixture files in %s hold no cases", *fixturesDir)
	}
	t.Logf("%d fixture cases in %d files", total, len(files))
}

// TestFixtureLoader runs the same loader on this package's golden file, so
// that the loader itself is exercised even where the shared fixtures are
// stale, and checks that it reports mistakes the way the brief asks.
func TestFixtureLoader(t *testing.T) {
	if n := checkFixtureFile(t, filepath.Join("testdata", "worked_examples.jsonl")); n != len(workedExamples) {
		t.Fatalf("loaded %d cases, want %d", n, len(workedExamples))
	}
	bad := fixtureHeader + "\n" + `{"category":"floats","input":"{\"tool_name\":\"t\",\"args\":{\"f\":1e21}}","canonical":"{\"args\":{\"f\":1e21},\"tool_name\":\"t\"}","signature":"00"}` + "\n" +
		`{"category":"dups","input":"{\"tool_name\":\"t\",\"args\":{\"a\":1,\"a\":2}}","error":"lone_surrogate"}` + "\n"
	fails := checkFixtureReader("mem.jsonl", strings.NewReader(bad), func(string) {}).failures
	want := []string{
		`mem.jsonl:2 [floats]: from input: canonical text differs at byte 15: got ...{"args":{"f":1e+21},"tool_name":"t"... want ...{"args":{"f":1e21},"tool_name":"t"}...`,
		`mem.jsonl:3 [dups]: from input: got canonical error duplicate_key, want lone_surrogate`,
	}
	if strings.Join(fails, "\n") != strings.Join(want, "\n") {
		t.Fatalf("loader failures:\n%s\nwant:\n%s", strings.Join(fails, "\n"), strings.Join(want, "\n"))
	}
	for _, tc := range []struct{ head, fatal string }{
		{`{"contract": "rfc8785"}`, `mem.jsonl:1: fixtures of contract "rfc8785", but these tests hold the package's Default to contract "difffuzz"`},
		{`{"category":"x","input":"1","error":"bad_envelope"}`, `mem.jsonl:1: want the header line {"contract": "difffuzz"} first (fixtures written before contracts? make fixtures regenerates them)`},
	} {
		var fatal string
		checkFixtureReader("mem.jsonl", strings.NewReader(tc.head+"\n"), func(msg string) { fatal = msg })
		if fatal != tc.fatal {
			t.Errorf("header %s: fatal %q, want %q", tc.head, fatal, tc.fatal)
		}
	}
}

func checkFixtureFile(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res := checkFixtureReader(filepath.Base(path), f, func(msg string) { t.Fatal(msg) })
	for i, msg := range res.failures {
		if i == 30 {
			t.Errorf("... and %d more failures in %s", len(res.failures)-30, path)
			break
		}
		t.Error(msg)
	}
	if len(res.failures) > 0 {
		t.Errorf("%s: %d of %d cases failed; by category: %s", path, len(res.failures), res.cases, res.byCategory())
	}
	return res.cases
}

type fixtureResult struct {
	cases      int
	failures   []string
	categories map[string]int // failures per category
}

func (r fixtureResult) byCategory() string {
	var parts []string
	for c, n := range r.categories {
		parts = append(parts, c+"="+strconv.Itoa(n))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// fixtureContract is the contract the fixtures must be written for: the
// package's default encoding follows it (Default).
var fixtureContract = Default.Contract().Name

// fixtureHeader is the line that opens every fixture file, naming the
// contract its answers follow.
var fixtureHeader = `{"contract": "` + fixtureContract + `"}`

// checkFixtureHeader fails unless line is the header {"contract": NAME} and
// NAME is the contract these tests hold the package to.
func checkFixtureHeader(line []byte) string {
	var h struct {
		Contract *string `json:"contract"`
	}
	if err := json.Unmarshal(line, &h); err != nil || h.Contract == nil {
		return "want the header line " + fixtureHeader + " first (fixtures written before contracts? make fixtures regenerates them)"
	}
	if *h.Contract != fixtureContract {
		return "fixtures of contract " + strconv.Quote(*h.Contract) + ", but these tests hold the package's Default to contract " + strconv.Quote(fixtureContract)
	}
	return ""
}

// checkFixtureReader checks every line of one fixture file, after its
// contract header; fatal is called for a file that cannot be read as
// fixtures at all, or of another contract.
func checkFixtureReader(name string, r io.Reader, fatal func(string)) fixtureResult {
	res := fixtureResult{categories: map[string]int{}}
	br := bufio.NewReader(r)
	header := false
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 && !header {
			header = true
			if msg := checkFixtureHeader(line); msg != "" {
				fatal(name + ":" + strconv.Itoa(lineNo) + ": " + msg)
				return res
			}
		} else if len(bytes.TrimSpace(line)) > 0 {
			res.cases++
			where := name + ":" + strconv.Itoa(lineNo)
			var fx fixtureLine
			if jerr := json.Unmarshal(line, &fx); jerr != nil || (fx.Input == nil && fx.Msgpack == nil) ||
				(fx.Error == nil) == (fx.Canonical == nil || fx.Signature == nil) {
				fatal(where + ": not a fixture line (want category, input or msgpack, and canonical+signature or error): " + errString(jerr))
				return res
			}
			if msg := checkFixture(fx); msg != "" {
				res.failures = append(res.failures, where+" ["+fx.Category+"]: "+msg)
				res.categories[fx.Category]++
			}
		}
		if errors.Is(err, io.EOF) {
			return res
		}
		if err != nil {
			fatal(name + ": " + err.Error())
			return res
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "missing fields"
	}
	return err.Error()
}

// checkFixture returns "" when the case passes, else what went wrong. It
// checks the value read from the input text and the value decoded from the
// wire bytes, each on its own.
func checkFixture(fx fixtureLine) string {
	if fx.Input != nil {
		v, err := value.Parse([]byte(*fx.Input))
		if err != nil {
			return "input does not parse: " + err.Error()
		}
		if msg := checkFixtureValue(fx, v); msg != "" {
			return "from input: " + msg
		}
	}
	if fx.Msgpack != nil {
		v, err := decodeWire(fx.Msgpack)
		if err != nil {
			return "msgpack does not decode: " + err.Error()
		}
		if msg := checkFixtureValue(fx, v); msg != "" {
			return "from msgpack: " + msg
		}
	}
	return ""
}

func checkFixtureValue(fx fixtureLine, v any) string {
	got, cerr := Canonical(v)
	sig, serr := Signature(v)
	if fx.Error != nil {
		var e *Error
		switch {
		case cerr == nil:
			return "got canonical text " + window(string(got), 0, 120) + ", want error " + *fx.Error
		case !errors.As(cerr, &e):
			return "error of type " + typeName(cerr)
		case string(e.Code) != *fx.Error:
			return "got canonical error " + string(e.Code) + ", want " + *fx.Error
		case serr == nil || !strings.Contains(serr.Error(), ": "+*fx.Error+": "):
			return "Signature disagrees with Canonical: " + errString(serr)
		}
		return ""
	}
	if cerr != nil {
		return "got error " + cerr.Error() + ", want canonical text"
	}
	if want := *fx.Canonical; string(got) != want {
		return "canonical text differs at " + diffAt(string(got), want)
	}
	if serr != nil || sig != *fx.Signature {
		return "signature " + sig + ", want " + *fx.Signature
	}
	return ""
}

// diffAt names the first differing byte offset, with 20 bytes of context.
func diffAt(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-20)
	return "byte " + strconv.Itoa(i) + ": got ..." + window(got, lo, i+20) + "... want ..." + window(want, lo, i+20) + "..."
}
