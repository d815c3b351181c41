package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The survey judges each library by the contract its [[adapter]] claims,
// else by the file's contract, and -contract judges every one by one
// contract; an unknown contract is an error naming the library.
func TestSurveySpecsContracts(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "survey.toml")
	writeFile := func(text string) {
		t.Helper()
		if err := os.WriteFile(config, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(`contract = "rfc8785"

[[adapter]]
name = "jcs"
command = ["jcs-worker"]

[[adapter]]
name = "sorted"
command = ["sorted-worker"]
contract = "difffuzz"
contract_note = "claims none"
`)
	tests := []struct {
		only, judgeBy string
		want          map[string]string // library -> contract judged by
	}{
		{"", "", map[string]string{"jcs": "rfc8785", "sorted": "difffuzz"}},
		{"sorted", "", map[string]string{"sorted": "difffuzz"}},
		{"", "difffuzz", map[string]string{"jcs": "difffuzz", "sorted": "difffuzz"}},
	}
	for _, tt := range tests {
		specs, err := surveySpecs(config, tt.only, tt.judgeBy)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, s := range specs {
			got[s.Name] = s.Contract.Name
		}
		if len(got) != len(tt.want) {
			t.Errorf("only %q, -contract %q: libraries %v, want %v", tt.only, tt.judgeBy, got, tt.want)
		}
		for name, c := range tt.want {
			if got[name] != c {
				t.Errorf("only %q, -contract %q: %s judged by %q, want %q", tt.only, tt.judgeBy, name, got[name], c)
			}
		}
	}
	if specs, _ := surveySpecs(config, "sorted", ""); len(specs) != 1 || specs[0].ContractNote != "claims none" {
		t.Errorf("sorted: %+v, want its contract_note", specs)
	}
	writeFile("[[adapter]]\nname = \"x\"\ncommand = [\"x\"]\ncontract = \"jcs\"\n")
	if _, err := surveySpecs(config, "", ""); err == nil || !strings.HasPrefix(err.Error(), "library x:") {
		t.Errorf("an unknown contract: %v, want an error naming library x", err)
	}
}
