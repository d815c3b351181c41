package wire

import (
	"errors"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCodesMatchTheProtocolPage holds the error codes and the inexpressible
// reasons to docs/adapter-protocol.md, parsed out of the page: the sentence
// that lists a result's codes, and the table of reasons.
func TestCodesMatchTheProtocolPage(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/adapter-protocol.md")
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no docs/adapter-protocol.md: the kit's module outside its repository")
	}
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	quoted := regexp.MustCompile("`([a-z_]+)`")

	start := strings.Index(text, "`code` is one of the spec's codes")
	end := strings.Index(text[max(start, 0):], "when the implementation itself failed")
	if start < 0 || end < 0 {
		t.Fatal("the protocol page no longer has the sentence listing a result's codes")
	}
	var codes []string
	for _, m := range quoted.FindAllStringSubmatch(text[start:start+end], -1)[1:] { // [0] is `code`
		codes = append(codes, m[1])
	}
	if !slices.Equal(codes, ErrorCodes) {
		t.Errorf("result codes: the page has %q, ErrorCodes %q", codes, ErrorCodes)
	}

	row := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| ")
	table := text[strings.Index(text, "| reason | the case holds |"):]
	table = table[:strings.Index(table, "\n\n")]
	var reasons []string
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		reasons = append(reasons, m[1])
	}
	if !slices.Equal(reasons, Reasons) {
		t.Errorf("inexpressible reasons: the page has %q, Reasons %q", reasons, Reasons)
	}
}
