package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// workflow is one parsed workflow file.
type workflow struct {
	file string
	doc  map[string]any
}

// step is one step of a job, with the job's id.
type step struct {
	job string
	m   map[string]any
}

func (w *workflow) steps() []step {
	var out []step
	jobs, _ := w.doc["jobs"].(map[string]any)
	ids := sortedKeys(jobs)
	for _, id := range ids {
		job, _ := jobs[id].(map[string]any)
		list, _ := job["steps"].([]any)
		for _, s := range list {
			if m, ok := s.(map[string]any); ok {
				out = append(out, step{job: id, m: m})
			}
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func get(v any, path ...string) any {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func str(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// Actions are pinned to a major version tag (or a full commit).
var pinned = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@(v[0-9]+|[0-9a-f]{40})$`)

// loadWorkflows parses every workflow file.
func loadWorkflows(r *repo) ([]*workflow, []string) {
	var p problems
	files, _ := filepath.Glob(r.path(".github/workflows/*.yml"))
	more, _ := filepath.Glob(r.path(".github/workflows/*.yaml"))
	files = append(files, more...)
	var out []*workflow
	for _, f := range files {
		rel, _ := filepath.Rel(r.root, f)
		data, err := r.read(rel)
		if err != nil {
			p.add("%v", err)
			continue
		}
		var doc map[string]any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			p.add("%s: %v", rel, err)
			continue
		}
		out = append(out, &workflow{file: rel, doc: doc})
	}
	return out, p
}

// checkWorkflows checks what actionlint cannot know about this project: the
// nightly workflow's triggers, inputs, shared seed, shard matrix, artifacts
// and merge; the pull-request workflow's make test; minimal permissions;
// actions pinned to major versions; caches keyed on the lock files. It also
// collects every difffuzz command line of the run: scripts.
func checkWorkflows(r *repo) (string, []string) {
	wfs, errs := loadWorkflows(r)
	p := problems(errs)
	byName := map[string]*workflow{}
	for _, w := range wfs {
		byName[filepath.Base(w.file)] = w
		checkPermissions(&p, w)
		for _, s := range w.steps() {
			if uses := str(s.m["uses"]); uses != "" && !strings.HasPrefix(uses, "./") && !pinned.MatchString(uses) {
				p.add("%s: job %s: %s: pin actions to a major version (@vN) or a commit", w.file, s.job, uses)
			}
			if run := str(s.m["run"]); run != "" {
				invs, err := shellInvocations(run, fmt.Sprintf("%s job %s", w.file, s.job))
				if err != nil {
					p.add("%v", err)
				}
				r.invocations = append(r.invocations, invs...)
			}
		}
		if runsMake(w, "build") || runsMake(w, "test") {
			checkCaches(&p, w)
		}
	}
	nightly, pr := byName["nightly-difffuzz.yml"], byName["pr.yml"]
	if nightly == nil {
		p.add(".github/workflows/nightly-difffuzz.yml is missing")
	} else {
		checkNightly(&p, nightly)
	}
	if pr == nil {
		p.add(".github/workflows/pr.yml is missing")
	} else {
		if get(pr.doc, "on", "pull_request") == nil && !hasKey(pr.doc["on"], "pull_request") {
			p.add("%s: not triggered by pull_request", pr.file)
		}
		if !runsMake(pr, "test") {
			p.add("%s: no step runs make test", pr.file)
		}
	}
	return fmt.Sprintf("%d workflows: triggers, inputs, shared seed, shard matrix, merge, permissions, pins and caches", len(wfs)), p
}

func hasKey(v any, key string) bool {
	switch v := v.(type) {
	case map[string]any:
		_, ok := v[key]
		return ok
	case []any:
		for _, e := range v {
			if str(e) == key {
				return true
			}
		}
	case string:
		return v == key
	}
	return false
}

func runsMake(w *workflow, target string) bool {
	for _, s := range w.steps() {
		for _, line := range strings.Split(str(s.m["run"]), "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && f[0] == "make" && (f[1] == target) {
				return true
			}
		}
	}
	return false
}

// checkPermissions wants read-only defaults and, per job, write access to
// checks at most (to publish a test report); a release job, one that runs
// on a tag alone (releaseJob), may also write contents (the GitHub release)
// and id-token (trusted publishing, provenance).
func checkPermissions(p *problems, w *workflow) {
	top := w.doc["permissions"]
	if top == nil {
		p.add("%s: no top-level permissions (the default token may write)", w.file)
	}
	checkPerms(p, w.file+": permissions", top, nil)
	jobs, _ := w.doc["jobs"].(map[string]any)
	for _, id := range sortedKeys(jobs) {
		mayWrite := []string{"checks"}
		if releaseJob(jobs[id]) {
			mayWrite = append(mayWrite, "contents", "id-token")
		}
		checkPerms(p, fmt.Sprintf("%s: job %s: permissions", w.file, id), get(jobs[id], "permissions"), mayWrite)
	}
}

// releaseJob says whether job runs on a version tag alone: its condition is
// startsWith(github.ref, 'refs/tags/v'), so no pull request can reach its
// write access.
func releaseJob(job any) bool {
	cond := strings.TrimSpace(str(get(job, "if")))
	cond = strings.TrimSuffix(strings.TrimPrefix(cond, "${{"), "}}")
	return strings.TrimSpace(cond) == "startsWith(github.ref, 'refs/tags/v')"
}

func checkPerms(p *problems, where string, v any, mayWrite []string) {
	switch v := v.(type) {
	case nil:
	case string:
		if v != "read-all" && v != "" {
			p.add("%s: %s", where, v)
		}
	case map[string]any:
		for _, k := range sortedKeys(v) {
			if str(v[k]) == "write" && !contains(mayWrite, k) {
				p.add("%s: %s: write", where, k)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// checkCaches wants each toolchain set up with its cache keyed on its lock
// file, as documented in docs/nightly.md.
func checkCaches(p *problems, w *workflow) {
	jobs, _ := w.doc["jobs"].(map[string]any)
	for _, id := range sortedKeys(jobs) {
		var steps []step
		builds := false
		for _, s := range w.steps() {
			if s.job != id {
				continue
			}
			steps = append(steps, s)
			run := str(s.m["run"])
			if strings.Contains(run, "make build") || strings.Contains(run, "make test") {
				builds = true
			}
		}
		if !builds {
			continue
		}
		want := map[string]string{
			"actions/setup-go":     "go.sum",
			"actions/setup-python": "adapters/python/requirements.txt",
			"actions/setup-node":   "adapters/ts/package-lock.json",
			"Swatinem/rust-cache":  "adapters/rust",
		}
		for action, key := range want {
			found := false
			for _, s := range steps {
				uses := str(s.m["uses"])
				if !strings.HasPrefix(uses, action+"@") {
					continue
				}
				found = true
				with := str(get(s.m, "with", "cache-dependency-path")) + str(get(s.m, "with", "workspaces"))
				if !strings.Contains(with, key) {
					p.add("%s: job %s: %s does not key its cache on %s", w.file, id, action, key)
				}
			}
			if !found {
				p.add("%s: job %s builds but does not use %s", w.file, id, action)
			}
		}
	}
}

// checkNightly checks the nightly workflow's shape.
func checkNightly(p *problems, w *workflow) {
	on := w.doc["on"]
	if sched, _ := get(on, "schedule").([]any); len(sched) == 0 {
		p.add("%s: no schedule trigger", w.file)
	}
	inputs, _ := get(on, "workflow_dispatch", "inputs").(map[string]any)
	for name, def := range map[string]string{"duration": "1h", "shards": "4", "seed": ""} {
		in, ok := inputs[name]
		if !ok {
			p.add("%s: workflow_dispatch has no input %s", w.file, name)
			continue
		}
		if got := str(get(in, "default")); got != def {
			p.add("%s: input %s defaults to %q, want %q", w.file, name, got, def)
		}
	}
	jobs, _ := w.doc["jobs"].(map[string]any)
	var shardJob, mergeJob string
	for _, id := range sortedKeys(jobs) {
		if m := str(get(jobs[id], "strategy", "matrix", "shard")); m != "" {
			shardJob = id
			if !strings.Contains(m, "needs.") {
				p.add("%s: job %s: the shard matrix must come from a setup job's output (one N for the matrix and -shard)", w.file, id)
			}
		}
	}
	if shardJob == "" {
		p.add("%s: no job with a shard matrix", w.file)
		return
	}
	for _, id := range sortedKeys(jobs) {
		if needs := get(jobs[id], "needs"); hasKey(needs, shardJob) {
			mergeJob = id
		}
	}
	var runInv, mergeInv *invocation
	for _, s := range w.steps() {
		invs, _ := shellInvocations(str(s.m["run"]), w.file)
		for i := range invs {
			inv := &invs[i]
			if len(inv.args) == 0 {
				continue
			}
			switch {
			case s.job == shardJob && inv.args[0].text == "run":
				runInv = inv
			case s.job == mergeJob && inv.args[0].text == "corpus":
				mergeInv = inv
			}
		}
		if uses := str(s.m["uses"]); strings.HasPrefix(uses, "actions/upload-artifact@") && s.job == shardJob {
			if !strings.Contains(str(s.m["if"]), "always()") {
				p.add("%s: job %s: upload the shard's output if: always(), also when it found a divergence", w.file, s.job)
			}
		}
	}
	if runInv == nil {
		p.add("%s: job %s does not run difffuzz run", w.file, shardJob)
	} else {
		args := runInv.args[1:]
		for _, f := range []string{"shard", "seed", "duration", "corpus", "report", "junit", "summary", "known"} {
			if _, ok := flagValue(args, f); !ok {
				p.add("%s: job %s: difffuzz run without -%s", w.file, shardJob, f)
			}
		}
		if v, _ := flagValue(args, "known"); v.text != "known-divergences.txt" {
			p.add("%s: job %s: -known %q, want known-divergences.txt", w.file, shardJob, v.text)
		}
	}
	if mergeJob == "" || mergeInv == nil {
		p.add("%s: no job after %s runs difffuzz corpus merge", w.file, shardJob)
	} else {
		args := mergeInv.args[2:]
		for _, f := range []string{"o", "known", "report", "junit", "summary"} {
			if _, ok := flagValue(args, f); !ok {
				p.add("%s: job %s: difffuzz corpus merge without -%s", w.file, mergeJob, f)
			}
		}
		if cond := str(get(jobs[mergeJob], "if")); !strings.Contains(cond, "always()") && !strings.Contains(cond, "!cancelled()") {
			p.add("%s: job %s must run also when a shard failed (if: !cancelled() ...)", w.file, mergeJob)
		}
	}
}
