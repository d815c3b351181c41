package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"difffuzz/harness"
	"difffuzz/harness/adapter"
)

// builtins are the four implementations, Python (the reference) first. Their
// commands are relative to the project root, where make runs difffuzz.
func builtins() []harness.AdapterSpec {
	return []harness.AdapterSpec{
		{Name: "python", Worker: adapter.Config{Command: []string{"adapters/python/.venv/bin/python", "-m", "canonjson.worker"}}},
		{Name: "go", InProcess: true},
		{Name: "ts", Worker: adapter.Config{Command: []string{"node", "adapters/ts/dist/src/worker.js"}}},
		{Name: "rust", Worker: adapter.Config{Command: []string{"adapters/rust/target/release/worker"}}},
	}
}

// adapterFlags are the flags every subcommand shares to choose adapters.
type adapterFlags struct {
	names        string
	extra        []string
	batchTimeout time.Duration
	caseTimeout  time.Duration
}

func (a *adapterFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.names, "adapters", "", "comma-separated adapters to run, reference first (default: all built-ins and every -adapter)")
	fs.Func("adapter", "add or replace a worker-backed adapter: `NAME=COMMAND` (split on spaces; repeatable)", func(s string) error {
		if !strings.Contains(s, "=") {
			return fmt.Errorf("want NAME=COMMAND, got %q", s)
		}
		a.extra = append(a.extra, s)
		return nil
	})
	fs.DurationVar(&a.batchTimeout, "timeout", adapter.DefaultBatchTimeout, "deadline of a batch, before the per-case part")
	fs.DurationVar(&a.caseTimeout, "case-timeout", adapter.DefaultCaseTimeout, "deadline added per case of a batch")
}

// specs resolves the flags into the run's adapters.
func (a *adapterFlags) specs() ([]harness.AdapterSpec, error) {
	all := builtins()
	var added []string
	for _, kv := range a.extra {
		name, command, _ := strings.Cut(kv, "=")
		argv := strings.Fields(command)
		if name == "" || len(argv) == 0 {
			return nil, fmt.Errorf("-adapter %q: want NAME=COMMAND", kv)
		}
		spec := harness.AdapterSpec{Name: name, Worker: adapter.Config{Command: argv}}
		if i := indexOf(all, name); i >= 0 {
			all[i] = spec
		} else {
			all = append(all, spec)
			added = append(added, name)
		}
	}
	chosen := all
	if a.names != "" {
		chosen = nil
		for _, n := range strings.Split(a.names, ",") {
			i := indexOf(all, strings.TrimSpace(n))
			if i < 0 {
				return nil, fmt.Errorf("-adapters: unknown adapter %q (known: %s)", n, strings.Join(names(all), ", "))
			}
			chosen = append(chosen, all[i])
		}
	}
	if len(chosen) < 2 {
		return nil, fmt.Errorf("-adapters: need at least two adapters to compare, have %d", len(chosen))
	}
	for i := range chosen {
		chosen[i].Worker.Name = chosen[i].Name
		chosen[i].Worker.BatchTimeout, chosen[i].Worker.CaseTimeout = a.batchTimeout, a.caseTimeout
	}
	return chosen, nil
}

func indexOf(specs []harness.AdapterSpec, name string) int {
	for i, s := range specs {
		if s.Name == name {
			return i
		}
	}
	return -1
}

func names(specs []harness.AdapterSpec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}
