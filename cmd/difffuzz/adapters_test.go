package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/adapterfile"
)

// Which adapters a command runs, and which is the reference, with no config,
// an empty one, a team's (its worker alone) and ones that name their own
// reference. The built-in reference is implied unless the config names one.
func TestSpecsWithoutAProjectConfig(t *testing.T) {
	const worker = "[[adapter]]\nname = \"mine\"\ncommand = [\"./w\"]\n"
	const project = "[[adapter]]\nname = \"go\"\nin_process = true\n" + worker
	tests := []struct {
		name    string
		config  string // "" writes no difffuzz.toml
		flags   adapterFlags
		want    string // the adapters in order, or the error's text
		wantErr bool
	}{
		{name: "nothing", want: "add your worker with -adapter NAME=COMMAND", wantErr: true},
		{name: "flag only", flags: adapterFlags{extra: []string{"mine=./w"}}, want: "reference mine"},
		{name: "empty config", config: "# nothing yet\n", flags: adapterFlags{extra: []string{"mine=./w"}}, want: "reference mine"},
		{name: "team config", config: worker, want: "reference mine"},
		{name: "team config, -reference", config: worker, flags: adapterFlags{reference: "mine"}, want: "mine reference"},
		{name: "reference key", config: "reference = \"b\"\n" + worker + "[[adapter]]\nname = \"b\"\ncommand = [\"./b\"]\ndefault = false\n", want: "b mine"},
		{name: "in-process declared", config: worker + "[[adapter]]\nname = \"go\"\nin_process = true\n", want: "mine go"},
		{name: "reference name taken", config: "[[adapter]]\nname = \"reference\"\ncommand = [\"./r\"]\n", want: "need at least two adapters to compare, have 1 (reference): add a worker with -adapter NAME=COMMAND", wantErr: true},
		{name: "one named, no config", flags: adapterFlags{names: "mine", extra: []string{"mine=./w"}}, want: "reference mine"},
		{name: "one named, team config", config: worker, flags: adapterFlags{names: "mine"}, want: "reference mine"},
		{name: "the reference named alone", config: worker, flags: adapterFlags{names: "reference"}, want: "-adapters reference,mine", wantErr: true},
		{name: "one named, -reference", config: project, flags: adapterFlags{names: "mine", reference: "go"}, want: "go mine"},
		{name: "one named, config names its reference", config: project, flags: adapterFlags{names: "mine"}, want: "name the reference too, as in -adapters go,mine (known: go, mine)", wantErr: true},
		{name: "missing -config", flags: adapterFlags{config: "nope.toml"}, want: "no adapter config at", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if tt.config != "" {
				if err := os.WriteFile(defaultConfig, []byte(tt.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			specs, err := tt.flags.specs()
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error %v, want %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(names(specs), " "); got != tt.want {
				t.Errorf("adapters %q, want %q", got, tt.want)
			}
			for _, s := range specs {
				if s.InProcess != (s.Name == adapterfile.BuiltinReference || s.Name == "go") {
					t.Errorf("%s: in process %v", s.Name, s.InProcess)
				}
				if !s.InProcess && len(tt.flags.extra) == 0 && !filepath.IsAbs(s.Command[0]) {
					t.Errorf("%s: command %q not resolved against the config's folder", s.Name, s.Command)
				}
			}
		})
	}
}
