package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docs/your-sdk.md names every option of every kit's serve, every key of
// difffuzz.toml and every flag of difffuzz init, read from the code: an
// option added to a kit cannot go undocumented.
func TestYourSDKNamesEveryOption(t *testing.T) {
	doc := string(readRepo(t, "docs/your-sdk.md"))
	tests := []struct {
		section string // the doc's section, from this heading to the next of its level
		file    string
		block   string // the code's block: from this text...
		end     string // ...to this one
		name    string // an option's name in the block, as group 1
	}{
		{"### Python: ", "kits/python/src/difffuzz_kit/_serve.py", "def serve(", ") -> int:", `(?m)^\s+(\w+):`},
		{"### TypeScript: ", "kits/ts/src/serve.ts", "export interface WorkerInfo {", "\n}", `(?m)^  (\w+)\??:`},
		{"### TypeScript: ", "kits/ts/src/serve.ts", "export interface NativeWorker", "\n}", `(?m)^  (\w+)\??:`},
		{"### TypeScript: ", "kits/ts/src/exact.ts", "export interface ExactOptions {", "\n}", `(?m)^  (\w+)\??:`},
		{"### Rust: ", "kits/rust/src/lib.rs", "pub struct Hello {", "\n}", `(?m)^    pub (\w+):`},
		{"### Rust: ", "kits/rust/src/lib.rs", "impl Hello {", "\n}", `(?m)^    pub fn (\w+)`},
		{"### Rust: ", "kits/rust/src/lib.rs", "pub use serve::", ";", `(\w+)`},
		{"### Go: ", "kits/go/kit/kit.go", "type Options struct {", "\n}", `(?m)^\t(\w+) `},
		{"### difffuzz.toml", "harness/adapterfile/adapterfile.go", "type Adapter struct {", "\n}", "toml:\"(\\w+)\""},
		{"### difffuzz.toml", "harness/adapterfile/adapterfile.go", "type File struct {", "\n}", "toml:\"(\\w+)\""},
	}
	for _, tt := range tests {
		code := string(readRepo(t, tt.file))
		i := strings.Index(code, tt.block)
		if i < 0 {
			t.Errorf("%s: no %q", tt.file, tt.block)
			continue
		}
		block := code[i+len(tt.block):]
		block = block[:strings.Index(block, tt.end)]
		names := regexp.MustCompile(tt.name).FindAllStringSubmatch(block, -1)
		if len(names) == 0 {
			t.Errorf("%s: no option in %q", tt.file, tt.block)
		}
		spans := codeSpans(t, doc, tt.section)
		for _, n := range names {
			if !regexp.MustCompile(`\b` + n[1] + `\b`).MatchString(spans) {
				t.Errorf("docs/your-sdk.md, section %q: no `%s` (from %s)", tt.section, n[1], tt.file)
			}
		}
	}
	// Every flag of difffuzz init, from its usage.
	var out bytes.Buffer
	(&CLI{Stdout: &out, Stderr: &out}).Main(context.Background(), []string{"init", "-h"})
	flags := regexp.MustCompile(`(?m)^  (-[\w-]+)`).FindAllStringSubmatch(out.String(), -1)
	if len(flags) < 4 {
		t.Fatalf("init -h lists %d flags:\n%s", len(flags), out.String())
	}
	spans := codeSpans(t, doc, "## 2. ")
	for _, f := range flags {
		if !strings.Contains(spans, f[1]+" ") && !strings.Contains(spans, f[1]+"\n") {
			t.Errorf("docs/your-sdk.md, section 2: no `%s` (difffuzz init -h)", f[1])
		}
	}
}

// codeSpans are the `code` spans of the section that starts with heading,
// one a line.
func codeSpans(t *testing.T, doc, heading string) string {
	t.Helper()
	i := strings.Index(doc, "\n"+heading)
	if i < 0 {
		t.Fatalf("docs/your-sdk.md has no heading %q", heading)
	}
	level := heading[:strings.Index(heading, " ")+1]
	section := doc[i+1:]
	if j := strings.Index(section[len(heading):], "\n"+level); j >= 0 {
		section = section[:len(heading)+j]
	}
	var spans []string
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(section, -1) {
		spans = append(spans, m[1])
	}
	return strings.Join(spans, "\n") + "\n"
}

func readRepo(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../..", path))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
