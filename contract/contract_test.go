package contract

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBuiltinsCheck(t *testing.T) {
	for _, c := range Builtins {
		if err := c.Check(); err != nil {
			t.Errorf("built-in %s: %v", c.Name, err)
		}
		if c.Base != "" {
			t.Errorf("built-in %s has a base %q", c.Name, c.Base)
		}
	}
	if Builtins[0].Name != "difffuzz" {
		t.Errorf("the default is %q, want difffuzz first", Builtins[0].Name)
	}
}

func TestLoadFiles(t *testing.T) {
	delRaw := Default
	delRaw.Name, delRaw.Base, delRaw.Strings.DEL = "our-sdk", "difffuzz", EscapeRaw
	jcs := RFC8785
	jcs.Name, jcs.Base, jcs.TopLevel = "jcs-envelope", "rfc8785", TopLevelEnvelope
	for _, tc := range []struct {
		file string
		want Contract
	}{
		{"del-raw.toml", delRaw},
		{"jcs-envelope.toml", jcs}, // no name: the file's
	} {
		got, err := Load(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if !filepath.IsAbs(got.Source) || filepath.Base(got.Source) != tc.file {
			t.Errorf("%s: source %q, want its absolute path", tc.file, got.Source)
		}
		got.Source = ""
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"unknown key", "[strings]\ndell = \"raw\"\n", `2:1: unknown key "strings.dell"`},
		{"unknown top key", "escape_everything = true\n", `unknown key "escape_everything"`},
		{"bad escape", "[strings]\ndel = \"hex\"\n", `strings.del = "hex": want one of ["escape" "raw"]`},
		{"bad order", "key_order = \"alphabetical\"\n", `key_order = "alphabetical"`},
		{"unknown base", "base = \"jcs\"\n", `base = "jcs": want a built-in (difffuzz, rfc8785)`},
		{"a built-in's name", "name = \"rfc8785\"\n", "is a built-in's"},
		{"too deep", "max_depth = 5000\n", "max_depth = 5000: want 1 to 1000"},
		{"envelope in one level", "max_depth = 1\n", "the envelope"},
		{"not toml", "strings = [\n", "1:"},
		{"wrong type", "max_depth = \"deep\"\n", "1:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc), "x")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse(%q) = %v, want an error with %q", tc.doc, err, tc.want)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ours.toml"), []byte("[strings]\ndel = \"raw\"\n"), 0o644)
	for _, tc := range []struct{ arg, want, err string }{
		{"", "difffuzz", ""},
		{"difffuzz", "difffuzz", ""},
		{"rfc8785", "rfc8785", ""},
		{"ours.toml", "ours", ""},
		{filepath.Join(dir, "ours.toml"), "ours", ""},
		{"jcs", "", `no built-in of that name (built-ins: difffuzz, rfc8785)`},
		{"missing.toml", "", "no such file"},
	} {
		c, err := Resolve(tc.arg, dir)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Resolve(%q) = %v, want an error with %q", tc.arg, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("Resolve(%q): %v", tc.arg, err)
		case tc.err == "" && c.Name != tc.want:
			t.Errorf("Resolve(%q) = %s, want %s", tc.arg, c.Name, tc.want)
		}
	}
}
