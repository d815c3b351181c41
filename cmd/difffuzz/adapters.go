package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"difffuzz/harness/adapter"
	"difffuzz/internal/adapterfile"
)

// adapterFlags are the flags every subcommand shares to choose adapters.
type adapterFlags struct {
	config       string
	names        string
	reference    string
	extra        []string
	batchTimeout time.Duration
	caseTimeout  time.Duration
}

func (a *adapterFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.config, "config", "difffuzz.toml", "the adapters' config `file`")
	fs.StringVar(&a.names, "adapters", "", "comma-separated adapters to run, reference first (default: all built-ins and every -adapter)")
	fs.StringVar(&a.reference, "reference", "", "the adapter whose outcomes are the truth that the others are judged against (default: the first)")
	fs.Func("adapter", "add or replace a worker-backed adapter: `NAME=COMMAND` (split on spaces; repeatable)", func(s string) error {
		if !strings.Contains(s, "=") {
			return fmt.Errorf("want NAME=COMMAND, got %q", s)
		}
		a.extra = append(a.extra, s)
		return nil
	})
	fs.DurationVar(&a.batchTimeout, "timeout", 0, fmt.Sprintf("deadline of a batch before the per-case part (0: the config's, or %v)", adapter.DefaultBatchTimeout))
	fs.DurationVar(&a.caseTimeout, "case-timeout", 0, fmt.Sprintf("deadline added per case of a batch (0: the config's, or %v)", adapter.DefaultCaseTimeout))
}

// specs resolves the flags into the run's adapters.
func (a *adapterFlags) specs() ([]adapter.Spec, error) {
	f, err := adapterfile.Load(a.config)
	if errors.Is(err, fs.ErrNotExist) {
		abs, _ := filepath.Abs(a.config)
		return nil, fmt.Errorf("no adapter config at %s: run difffuzz from the repository's root, or name the file with -config FILE", abs)
	}
	if err != nil {
		return nil, err
	}
	all := f.Specs()
	for _, kv := range a.extra {
		name, command, _ := strings.Cut(kv, "=")
		argv := strings.Fields(command)
		if name == "" || len(argv) == 0 {
			return nil, fmt.Errorf("-adapter %q: want NAME=COMMAND", kv)
		}
		spec := adapter.Spec{Name: name, Command: argv, Default: true}
		if i := indexOf(all, name); i >= 0 {
			all[i] = spec
		} else {
			all = append(all, spec)
		}
	}
	var chosen []adapter.Spec
	for _, s := range all {
		if s.Default {
			chosen = append(chosen, s)
		}
	}
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
	if a.reference != "" {
		i := indexOf(chosen, a.reference)
		if i < 0 {
			return nil, fmt.Errorf("-reference %s: not among the adapters run (%s)", a.reference, strings.Join(names(chosen), ", "))
		}
		ref := chosen[i]
		copy(chosen[1:i+1], chosen[:i])
		chosen[0] = ref
	}
	for i := range chosen {
		w := &chosen[i]
		if a.batchTimeout > 0 {
			w.BatchTimeout = a.batchTimeout
		}
		if a.caseTimeout > 0 {
			w.CaseTimeout = a.caseTimeout
		}
	}
	return chosen, nil
}

func indexOf(specs []adapter.Spec, name string) int {
	for i, s := range specs {
		if s.Name == name {
			return i
		}
	}
	return -1
}

func names(specs []adapter.Spec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}
