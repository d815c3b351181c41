package survey

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/inprocess"
	"github.com/difffuzz/difffuzz/kits/go/wire"

	"lukechampine.com/blake3"
)

// rawBMP is a fake library in process: the Go implementation, but with
// every BMP escape written raw, as RFC 8785 libraries write them.
type rawBMP struct{ *inprocess.Go }

var bmpEscape = regexp.MustCompile(`\\u([0-9a-f]{4})`)

func (f rawBMP) Name() string { return "raw-bmp" }

func (f rawBMP) RunBatch(ctx context.Context, b *adapter.Batch, out []wire.Result) error {
	if err := f.Go.RunBatch(ctx, &adapter.Batch{Cases: b.Cases}, out); err != nil {
		return err
	}
	for i := range out {
		if out[i].Canonical != nil {
			out[i].Canonical = bmpEscape.ReplaceAllFunc(out[i].Canonical, rawRune)
			d := blake3.Sum256(out[i].Canonical)
			out[i].Digest = d[:]
		}
	}
	return nil
}

// rawRune writes an escape raw, unless it is a control character, a
// surrogate or a quote, which stay escaped.
func rawRune(esc []byte) []byte {
	n, _ := strconv.ParseUint(string(esc[2:]), 16, 32)
	if n < 0x80 || n >= 0xd800 && n <= 0xdfff {
		return esc
	}
	return []byte(string(rune(n)))
}

func TestRunFindsAndMinimizes(t *testing.T) {
	var log bytes.Buffer
	cfg := Config{
		Reference: Spec{Spec: adapter.Spec{Name: "go", InProcess: true}},
		Libraries: []Spec{{Spec: adapter.Spec{Name: "same", InProcess: true}}, {Spec: adapter.Spec{Name: "raw-bmp"}, Adapter: rawBMP{inprocess.New("raw-bmp")}}},
		Cases:     600, Seed: 3, Command: "difffuzz survey -seed 3 -cases 600", Stderr: &log,
	}
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	same, raw := r.Libraries[0], r.Libraries[1]
	if same.Agree != 600 || len(same.Divergences) != 0 {
		t.Errorf("the reference against itself: %d agree, divergences %+v", same.Agree, same.Divergences)
	}
	if len(raw.Divergences) != 1 || raw.Divergences[0].Signature.String() != `string_escape: non-ASCII written raw (want \uXXXX): lib` {
		t.Fatalf("raw-bmp: divergences %+v, want one string_escape", raw.Divergences)
	}
	d := raw.Divergences[0]
	if !d.Minimized || len(d.Input) > 60 || !strings.Contains(d.Reference, `\u`) || strings.Contains(d.Library, `\u`) {
		t.Errorf("raw-bmp: example %+v, want a small 1-minimal one with both texts", d)
	}
	if c := cellOf(t, r, raw, "bmp"); c.State() != StateDiverges {
		t.Errorf("bmp cell of raw-bmp: %s, want diverges", c.State())
	}
	if c := cellOf(t, r, raw, "none"); c.Cases > 0 && c.State() != StateAgrees {
		t.Errorf("none cell of raw-bmp: %s (%+v), want agrees", c.State(), c)
	}
	checkPages(t, r)
}

// checkPages renders r three ways and checks each holds what it must.
func checkPages(t *testing.T, r *Result) {
	var md, svg, js bytes.Buffer
	if err := WriteMarkdown(&md, r, "survey.svg"); err != nil {
		t.Fatal(err)
	}
	WriteSVG(&svg, r)
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"![library × edge class](survey.svg)", "difffuzz survey -seed 3 -cases 600", "## raw-bmp", "### `string_escape`", "| `bmp` |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("survey.md lacks %q", want)
		}
	}
	if !strings.HasPrefix(svg.String(), "<?xml") || !strings.Contains(svg.String(), ">raw-bmp · difffuzz</text>") || !strings.Contains(svg.String(), stateColour[StateDiverges]) {
		t.Errorf("survey.svg lacks the header, a library's name or a diverging cell:\n%.400s", svg.String())
	}
	var back Result
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Libraries) != 2 || back.Libraries[1].Divergences[0].Input == "" {
		t.Errorf("survey.json does not read back: %v", err)
	}
}

func TestCellState(t *testing.T) {
	tests := []struct {
		cell Cell
		want State
	}{
		{Cell{}, StateEmpty},
		{Cell{Cases: 3, Agree: 3}, StateAgrees},
		{Cell{Cases: 3, Agree: 2, Inexpressible: 1}, StatePartial},
		{Cell{Cases: 3, Inexpressible: 3}, StateNoExpress},
		{Cell{Cases: 3, Agree: 1, Diverge: 1, Inexpressible: 1}, StateDiverges},
	}
	for _, tt := range tests {
		if got := tt.cell.State(); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.cell, got, tt.want)
		}
	}
	if got := percent(1, 1000); got != "<1%" {
		t.Errorf("percent(1, 1000) = %s", got)
	}
	if got := shown("a\x7fb\u2028"); got != "a⟨U+007F⟩b⟨U+2028⟩" {
		t.Errorf("clip = %q", got)
	}
}

// TestJudgedByClaimedContract surveys the in-process RFC 8785
// implementation twice: claiming rfc8785 it agrees on every case, since the
// reference follows the contract each library claims; claimed by nothing,
// it is judged by this project's contract, and its raw non-ASCII and UTF-16
// key order are divergences. The page has a matrix for each contract.
func TestJudgedByClaimedContract(t *testing.T) {
	jcs := adapter.Spec{Name: "jcs", InProcess: true, Contract: contract.RFC8785}
	cfg := Config{
		Reference: Spec{Spec: adapter.Spec{Name: "go", InProcess: true}},
		Libraries: []Spec{
			{Spec: jcs},
			{Spec: adapter.Spec{Name: "jcs-as-default"}, Adapter: mustInProcess(t, "jcs-as-default", contract.RFC8785), ContractNote: "claims none"},
		},
		Cases: 1500, Seed: 3, MinimizeTime: -1, Command: "difffuzz survey -seed 3 -cases 1500",
	}
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"rfc8785", "difffuzz"}; !slices.Equal(r.Contracts, want) {
		t.Errorf("contracts %q, want %q", r.Contracts, want)
	}
	claimed, other := r.Libraries[0], r.Libraries[1]
	if claimed.Contract != "rfc8785" || claimed.Agree != 1500 || len(claimed.Divergences) != 0 {
		t.Errorf("jcs judged by %s: %d agree, divergences %v; want rfc8785, all agree", claimed.Contract, claimed.Agree, claimed.Divergences)
	}
	if other.Contract != "difffuzz" || divergenceOf(other, "string_escape") == nil || divergenceOf(other, "key_order") == nil {
		t.Errorf("jcs judged by %s: divergences %v; want difffuzz, string_escape and key_order among them", other.Contract, other.Divergences)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r, ""); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| library | contract |", "| jcs | `rfc8785` |", "| jcs-as-default | `difffuzz` (claims none) |",
		"## The matrix: contract `rfc8785`\n", "## The matrix: contract `difffuzz`\n",
		"| class | jcs |\n", "| class | jcs-as-default |\n",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("survey.md lacks %q", want)
		}
	}
}

func mustInProcess(t *testing.T, name string, c contract.Contract) adapter.Adapter {
	t.Helper()
	a, err := inprocess.NewFor(name, c)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestReadings checks that a reading is shown with the divergence it names,
// that one whose divergence is gone is returned as stale (and one of a
// library not surveyed is neither), and that a readings file with an
// unknown key or verdict is refused with its line or reading.
func TestReadings(t *testing.T) {
	sig := compare.Signature{Kind: compare.KindKeyOrder, Cause: "keys out of order", Deviants: []string{libName}}
	r := &Result{Contracts: []string{"rfc8785"}, Libraries: []*Library{{Name: "lib", Contract: "rfc8785", Divergences: []*Divergence{{Signature: sig, Count: 3}}}}}
	readings := []Reading{
		{Library: "lib", Signature: sig.String(), Section: "RFC 8785 §3.2.3", Verdict: VerdictBreaks, Note: "sorted by code points"},
		{Library: "lib", Signature: "number: gone: lib", Section: "RFC 8785 §3.2.2.3", Verdict: VerdictBreaks, Note: "no longer found"},
		{Library: "other", Signature: sig.String(), Section: "RFC 8785 §3.2.3", Verdict: VerdictBreaks, Note: "not surveyed"},
	}
	stale := r.Read(readings)
	if len(stale) != 1 || stale[0].Signature != "number: gone: lib" {
		t.Errorf("stale readings %+v, want the one of the vanished divergence", stale)
	}
	if got := r.Libraries[0].Divergences[0].Reading; got == nil || got.Note != "sorted by code points" {
		t.Fatalf("the divergence's reading is %+v", got)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r, ""); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Checked by hand against RFC 8785 §3.2.3 (**the library breaks it**): sorted by code points.",
		"### Contract `rfc8785`", "| lib | `key_order`: keys out of order | 3 | RFC 8785 §3.2.3 | breaks |",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("survey.md lacks %q:\n%s", want, md.String())
		}
	}
	for file, want := range map[string]string{
		"testdata/readings-bad-verdict.toml": `verdict "wrong"`,
		"testdata/readings-unknown-key.toml": `7:1: unknown key "reading.sectoin"`,
	} {
		if _, err := LoadReadings(file); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LoadReadings(%s): %v, want an error with %q", file, err, want)
		}
	}
	if rs, err := LoadReadings("../../survey/readings.toml"); err != nil || len(rs) == 0 {
		t.Errorf("survey/readings.toml: %d readings, %v", len(rs), err)
	}
}

// TestCannotExpress checks the libraries' table's "cannot express" cell:
// the share, then each reason's share of the cases sent, the most frequent
// first (by name on a tie), and the share alone when nothing was refused.
func TestCannotExpress(t *testing.T) {
	tests := []struct {
		lib  Library
		want string
	}{
		{Library{Cases: 10, Agree: 10}, "0%"},
		{Library{Cases: 1000, Inexpressible: 461, Reasons: map[string]int{"big_int": 450, "duplicate_key": 5, "non_string_key": 5, "lone_surrogate": 1}},
			"46% (big_int 45%, duplicate_key <1%, non_string_key <1%, lone_surrogate <1%)"},
	}
	for _, tt := range tests {
		if got := cannotExpress(&tt.lib); got != tt.want {
			t.Errorf("cannotExpress(%+v) = %q, want %q", tt.lib, got, tt.want)
		}
	}
}
