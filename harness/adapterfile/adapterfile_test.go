package adapterfile

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	f, err := Parse([]byte(`
[[adapter]]
name = "python"
command = ["adapters/python/.venv/bin/python", "-m", "canonjson.worker"]
env = { B = "2", A = "1" }
batch_timeout = "5s"

[[adapter]]
name = "go"
in_process = true

[[adapter]]
name = "go-worker"
command = ["bin/canonjson-worker"]
default = false
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Adapters) != 3 || !f.Adapters[1].InProcess || f.Adapters[2].IsDefault() || !f.Adapters[0].IsDefault() {
		t.Fatalf("parsed %+v", f.Adapters)
	}
	if got := f.Adapters[0].Argv("/root"); got[0] != "/root/adapters/python/.venv/bin/python" || got[1] != "-m" {
		t.Errorf("argv %q", got)
	}
	if got := strings.Join(f.Adapters[0].EnvList(), " "); got != "A=1 B=2" {
		t.Errorf("env %q", got)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"[[adapter]]\nname = \"a\"\ncomand = [\"x\"]\n", `3:1: unknown key "adapter.comand"`},
		{"[[adapter]]\nname = \"a\"\ncommand = \"x\"\n", "3:"},
		{"[[adapter]]\nname = \"a\"\n", `1: adapter "a": key "command" is missing`},
		{"[[adapter]]\nname = \"a\"\nin_process = true\n\n[[adapter]]\nname = \"a\"\nin_process = true\n", `5: adapter "a": key "name": a second adapter`},
		{"[[adapter]]\nname = \"a\"\ncommand = [\"x\"]\ncase_timeout = \"soon\"\n", `key "case_timeout"`},
		{"[[adapter]]\nname = \"a b\"\ncommand = [\"x\"]\n", `key "name" must be`},
		{"[[adapter]\n", "1:"},
		{"reference = \"b\"\n[[adapter]]\nname = \"a\"\nin_process = true\n", `key "reference": no adapter is named "b"`},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.doc))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want %q", tt.doc, err, tt.want)
		}
	}
}

// A config may declare no adapter, or only a team's worker: the built-in
// reference is then implied, first; a config that names its reference, or
// declares the in-process adapter, keeps its own.
func TestSpecsImplyTheBuiltinReference(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"", "reference"},
		{"[[adapter]]\nname = \"mine\"\ncommand = [\"./w\"]\n", "reference mine"},
		{"[[adapter]]\nname = \"a\"\ncommand = [\"./a\"]\n[[adapter]]\nname = \"go\"\nin_process = true\n", "a go"},
		{"reference = \"b\"\n[[adapter]]\nname = \"a\"\ncommand = [\"./a\"]\n[[adapter]]\nname = \"b\"\ncommand = [\"./b\"]\n", "b a"},
	}
	for _, tt := range tests {
		f, err := Parse([]byte(tt.doc))
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.doc, err)
		}
		var got []string
		for _, s := range f.Specs() {
			got = append(got, s.Name)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("Parse(%q).Specs() = %q, want %q", tt.doc, got, tt.want)
		}
	}
}
