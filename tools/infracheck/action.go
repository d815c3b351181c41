package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// actionScript is how a run step of action.yml calls its script.
var actionScript = regexp.MustCompile(`^"\$GITHUB_ACTION_PATH/(scripts/action/[A-Za-z0-9_-]+\.sh)"$`)

var inputRef = regexp.MustCompile(`\binputs\.([A-Za-z0-9_-]+)`)

// checkAction checks what actionlint cannot of the composite action
// (action.yml; actionlint checks a workflow's use of it): every run step is
// one script of scripts/action/ (so that make test runs what the runner
// runs, and shellcheck sees it) with its shell named and its inputs passed as
// environment variables, never spliced into the script; actions pinned; every
// input referred to is declared; and the findings are uploaded also when the
// fuzz step fails. It collects the difffuzz command lines of the scripts.
func checkAction(r *repo) (string, []string) {
	var p problems
	data, err := r.read("action.yml")
	if err != nil {
		p.add("%v", err)
		return "", p
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		p.add("action.yml: %v", err)
		return "", p
	}
	if using := str(get(doc, "runs", "using")); using != "composite" {
		p.add("action.yml: runs.using is %q, want composite", using)
	}
	declared, _ := doc["inputs"].(map[string]any)
	for _, m := range inputRef.FindAllStringSubmatch(string(data), -1) {
		if _, ok := declared[m[1]]; !ok {
			p.add("action.yml: inputs.%s is not declared", m[1])
		}
	}
	steps, _ := get(doc, "runs", "steps").([]any)
	scripts, uploads := 0, false
	for i, s := range steps {
		m, _ := s.(map[string]any)
		where := fmt.Sprintf("action.yml: step %d (%s)", i+1, str(m["name"]))
		if uses := str(m["uses"]); uses != "" {
			if !pinned.MatchString(uses) {
				p.add("%s: %s: pin actions to a major version (@vN) or a commit", where, uses)
			}
			if strings.HasPrefix(uses, "actions/upload-artifact@") {
				uploads = true
				if !strings.Contains(str(m["if"]), "always()") {
					p.add("%s: upload if: always(), also when the fuzz step found a divergence", where)
				}
			}
			continue
		}
		run := strings.TrimSpace(str(m["run"]))
		if str(m["shell"]) != "bash" {
			p.add("%s: a composite run step needs shell: bash", where)
		}
		if strings.Contains(run, "${{") {
			p.add("%s: run splices an expression into the script; pass it in env", where)
		}
		sm := actionScript.FindStringSubmatch(run)
		if sm == nil {
			p.add("%s: run is %q, want one script: \"$GITHUB_ACTION_PATH/scripts/action/NAME.sh\"", where, run)
			continue
		}
		if !r.exists(sm[1]) {
			p.add("%s: %s does not exist", where, sm[1])
		}
		scripts++
	}
	if !uploads {
		p.add("action.yml: no step uploads the findings (actions/upload-artifact)")
	}
	files, _ := filepath.Glob(r.path("scripts/action/*.sh"))
	sort.Strings(files)
	runs := 0
	for _, f := range files {
		rel, _ := filepath.Rel(r.root, f)
		text, err := r.read(rel)
		if err != nil {
			p.add("%v", err)
			continue
		}
		invs, err := shellInvocations(string(text), filepath.ToSlash(rel))
		if err != nil {
			p.add("%v", err)
		}
		for i, inv := range invs {
			if len(inv.args) > 0 && inv.args[0].text == "run" {
				runs++
			}
			// The action's args input, "${args[@]}", ends the command
			// line: flags the team chose, not known here.
			if n := len(inv.args); n > 0 && !inv.args[n-1].literal && inv.args[n-1].text == "$args" {
				invs[i].args = inv.args[:n-1]
			}
		}
		r.invocations = append(r.invocations, invs...)
	}
	if runs == 0 {
		p.add("scripts/action/*.sh: no script runs difffuzz run")
	}
	return fmt.Sprintf("action.yml: %d steps, %d of them scripts of scripts/action/, %d difffuzz run command lines", len(steps), scripts, runs), p
}
