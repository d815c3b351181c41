package triage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/internal/atomicfile"
	"github.com/difffuzz/difffuzz/value"
)

// Promote appends a (minimized) finding to the regression list of the golden
// fixtures, so that a fixed bug becomes part of every language's own test
// suite once the fixtures are regenerated (make fixtures). It returns the exit
// status; an input already listed is not added twice.
func Promote(path, category, list string, stdout, stderr io.Writer) int {
	e, err := corpus.Load(path)
	if err != nil {
		fmt.Fprintf(stderr, "difffuzz promote: %v\n", err)
		return ExitSetup
	}
	if !corpus.Representable(e.Input) {
		fmt.Fprintf(stderr, "difffuzz promote: %s: the golden fixtures are extended JSON, which cannot write this input (a non-string key or bin data); keep it in corpus/seed/ instead\n", path)
		return ExitSetup
	}
	if category == "" {
		category = "regression"
		if len(e.Signatures) > 0 {
			category += "_" + string(e.Signatures[0].Kind)
		}
	}
	text := string(value.AppendText(nil, e.Input))
	line, _ := json.Marshal(map[string]string{"category": category, "input": text})
	old, err := os.ReadFile(list)
	if err != nil && !os.IsNotExist(err) {
		fmt.Fprintf(stderr, "difffuzz promote: %v\n", err)
		return ExitSetup
	}
	needle, _ := json.Marshal(text)
	if bytes.Contains(old, append([]byte(`"input": `), needle...)) || bytes.Contains(old, append([]byte(`"input":`), needle...)) {
		fmt.Fprintf(stdout, "%s: already in %s\n", path, list)
		return ExitOK
	}
	if len(old) > 0 && old[len(old)-1] != '\n' {
		old = append(old, '\n')
	}
	if err := atomicfile.Write(list, append(append(old, line...), '\n')); err != nil {
		fmt.Fprintf(stderr, "difffuzz promote: %v\n", err)
		return ExitSetup
	}
	fmt.Fprintf(stdout, "added %s to %s as %q\nnow run make fixtures, review the new lines, and commit both files\n", text, list, category)
	return ExitOK
}
