package kit_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// exported is the kit's whole API: a name added to package kit is added
// here on purpose, and the names of docs/your-sdk.md's vocabulary table
// ("The kits' vocabulary", the Go column) are among them.
var exported = []string{
	"Channel", "Coder", "Exact", "Float64", "Func", "Inexpressible", "JSONNumber", "Main",
	"MaxDepth", "Member", "Model", "Native", "Numbers", "Object", "OpenChannel", "Options",
	"Output", "PanicType", "RawMember", "RawObject", "Serve", "Signed", "SpecError", "Text",
	"Unsupported",
}

func TestExportedNames(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range pkgs["kit"].Files {
		for _, d := range f.Decls {
			got = append(got, exportedOf(d)...)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, exported) {
		t.Errorf("package kit exports\n  %v\nwant\n  %v", got, exported)
	}
}

func exportedOf(d ast.Decl) []string {
	var names []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil && d.Name.IsExported() {
			names = append(names, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				if s.Name.IsExported() {
					names = append(names, s.Name.Name)
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.IsExported() {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names
}

// TestVocabularyTable holds the Go column of docs/your-sdk.md's table to
// the kit, in a checkout (a copy of the module alone has no docs).
func TestVocabularyTable(t *testing.T) {
	page, err := os.ReadFile("../../../docs/your-sdk.md")
	if os.IsNotExist(err) {
		t.Skip("docs/your-sdk.md is not beside the module: not a checkout")
	}
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(page), "## The kits' vocabulary")
	if !ok {
		t.Fatal("docs/your-sdk.md has no section \"The kits' vocabulary\"")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	name := regexp.MustCompile(`kit\.([A-Z][A-Za-z0-9]*)`)
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 7 || !strings.HasPrefix(line, "|") {
			continue
		}
		rows++
		for _, m := range name.FindAllStringSubmatch(cells[5], -1) {
			if !slices.Contains(exported, m[1]) {
				t.Errorf("the table's Go column names kit.%s, which package kit does not export", m[1])
			}
		}
	}
	if rows < 10 {
		t.Errorf("read %d rows of the table, want its ten and more", rows)
	}
}
