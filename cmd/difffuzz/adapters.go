package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/adapterfile"
)

// adapterFlags are the flags every subcommand shares to choose adapters.
type adapterFlags struct {
	config       string
	names        string
	reference    string
	extra        []string
	batchTimeout time.Duration
	caseTimeout  time.Duration
	contract     string
}

func (a *adapterFlags) register(fs *flag.FlagSet) {
	configFlag(fs, &a.config)
	fs.StringVar(&a.names, "adapters", "", "comma-separated adapters to run, reference first (default: all built-ins and every -adapter); one adapter alone is run against the -reference, or the built-in reference when the config names none")
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
	fs.StringVar(&a.contract, "contract", "", "the contract the in-process reference follows: a built-in ("+strings.Join(contract.Names(), ", ")+
		") or a contract `file` (default: the config's contract key, or "+contract.Default.Name+"; docs/canonical-json.md §7)")
}

// defaultConfig is the config a command reads when -config is not given,
// if the working folder has it.
const defaultConfig = "difffuzz.toml"

// configFlag registers -config, whose zero value means defaultConfig when
// there is one (see loadConfig).
func configFlag(fs *flag.FlagSet, path *string) {
	fs.StringVar(path, "config", "", "the adapters' config `file` (default: "+defaultConfig+" if the working folder has one; without a config, the built-in reference and the -adapter workers)")
}

// loadConfig reads the adapters' config: the file named by -config, which
// must exist, or else defaultConfig if it exists. Without either, the config
// is empty, so that a team can run its worker with -adapter alone, against
// the built-in reference, from any folder.
func loadConfig(path string) (*adapterfile.File, error) {
	if path != "" {
		f, err := adapterfile.Load(path)
		if errors.Is(err, fs.ErrNotExist) {
			abs, _ := filepath.Abs(path)
			return nil, fmt.Errorf("no adapter config at %s: name another with -config FILE, or leave -config out to run the built-in reference and the -adapter workers", abs)
		}
		return f, err
	}
	f, err := adapterfile.Load(defaultConfig)
	if errors.Is(err, fs.ErrNotExist) {
		return adapterfile.None(), nil
	}
	return f, err
}

// specs resolves the flags into the run's adapters.
func (a *adapterFlags) specs() ([]adapter.Spec, error) {
	f, err := loadConfig(a.config)
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
	if len(all) == 1 && all[0].InProcess {
		return nil, fmt.Errorf("nothing to compare with the built-in reference: add your worker with -adapter NAME=COMMAND (such as -adapter 'my-sdk=python worker.py'), or declare it in %s (difffuzz init LANG writes one)", defaultConfig)
	}
	if len(chosen) == 1 {
		if ref, ok := a.joiningReference(all, chosen[0]); ok {
			chosen = []adapter.Spec{ref, chosen[0]}
		}
	}
	if len(chosen) < 2 {
		return nil, tooFew(all, chosen)
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
	c, err := a.resolveContract(f)
	if err != nil {
		return nil, err
	}
	if err := a.checkClaims(f, chosen, c); err != nil {
		return nil, err
	}
	for i := range chosen {
		w := &chosen[i]
		w.Contract = c
		if a.batchTimeout > 0 {
			w.BatchTimeout = a.batchTimeout
		}
		if a.caseTimeout > 0 {
			w.CaseTimeout = a.caseTimeout
		}
	}
	return chosen, nil
}

// checkClaims refuses a run whose config declares an adapter that claims
// another contract (its own contract key, else the config's) than the one
// the run is judged by: every divergence of the RFC's choices would be
// reported as its bug. An adapter replaced by an -adapter flag claims
// nothing.
func (a *adapterFlags) checkClaims(f *adapterfile.File, chosen []adapter.Spec, c contract.Contract) error {
	for _, s := range chosen {
		i := slices.IndexFunc(f.Adapters, func(d adapterfile.Adapter) bool { return d.Name == s.Name })
		if i < 0 || f.Claim(&f.Adapters[i]) == "" || slices.ContainsFunc(a.extra, func(kv string) bool { return strings.HasPrefix(kv, s.Name+"=") }) {
			continue
		}
		claim, err := contract.Resolve(f.Claim(&f.Adapters[i]), f.Root)
		if err != nil {
			return fmt.Errorf("adapter %s: %w", s.Name, err)
		}
		if claim.Name != c.Name {
			return fmt.Errorf("adapter %s claims the contract %s, and this run is judged by %s: run it with -contract %s", s.Name, claim.Name, c.Name, cmp.Or(claim.Source, claim.Name))
		}
	}
	return nil
}

// resolveContract is the contract of -contract, or else of the config's
// contract key (a file's path taken from the config's folder), or else this
// project's.
func (a *adapterFlags) resolveContract(f *adapterfile.File) (contract.Contract, error) {
	name, dir := a.contract, "."
	if name == "" {
		name, dir = f.Contract, f.Root
	}
	c, err := contract.Resolve(name, dir)
	if err != nil && a.contract == "" {
		return c, fmt.Errorf("%s: %w", defaultConfig, err)
	}
	return c, err
}

// joiningReference is the reference that a run of one adapter, only, is
// judged against without being named: the -reference flag's adapter, or
// else the built-in reference when the config names none (Specs put it
// first). A config that names its own reference must be told which to
// run (tooFew says how).
func (a *adapterFlags) joiningReference(all []adapter.Spec, only adapter.Spec) (adapter.Spec, bool) {
	if a.reference != "" {
		i := indexOf(all, a.reference)
		if i < 0 || a.reference == only.Name {
			return adapter.Spec{}, false
		}
		return all[i], true
	}
	ref := all[0]
	return ref, ref.InProcess && ref.Name == adapterfile.BuiltinReference && ref.Name != only.Name
}

// tooFew is the error of a run with fewer than two adapters, with the
// flags that would make one: the config's reference (first in all) with
// the one chosen, or the one chosen, if it is that reference, with another.
func tooFew(all, chosen []adapter.Spec) error {
	have := strings.Join(names(chosen), ", ")
	if len(chosen) == 1 && len(all) > 1 {
		ref, other, what := all[0].Name, chosen[0].Name, "name the reference too"
		if ref == other {
			other, what = all[1].Name, "name another adapter too"
		}
		return fmt.Errorf("-adapters: need at least two adapters to compare, have 1 (%s): %s, as in -adapters %s,%s (known: %s)",
			have, what, ref, other, strings.Join(names(all), ", "))
	}
	return fmt.Errorf("-adapters: need at least two adapters to compare, have %d (%s): add a worker with -adapter NAME=COMMAND", len(chosen), have)
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
