package oneshot

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/minimize"
	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/harness/triage"
)

// replayChunkFiles bounds the entries replay judges at once, whatever
// their size: a corpus kept with -keep-all holds a finding per case.
const replayChunkFiles = 1024

// Replay re-runs saved cases and reports each as still diverging or now
// agreeing; a collision entry diverges while either input does or while
// an implementation still gives the two one digest. It reads the files in
// chunks of at most a 32nd of the budget (the minimizer's share,
// minimize.BatchBytesFor) and prints each chunk as it goes, so a corpus of
// any size replays in bounded memory. It returns 1 if any diverges, 2 if
// any file could not be read.
func Replay(ctx context.Context, cfg Config, paths []string) int {
	files, err := corpus.Files(paths)
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz: %v\n", err)
		return triage.ExitSetup
	}
	if len(files) == 0 {
		// A typo in a path must not pass a CI job.
		fmt.Fprintf(cfg.Stderr, "difffuzz replay: no case in %s\n", strings.Join(paths, " "))
		return triage.ExitSetup
	}
	ctx, stop := withBudget(ctx, cfg)
	defer stop()
	l, err := panel.Open(ctx, cfg.Adapters, cfg.Stderr)
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz: %v\n", err)
		return triage.ExitSetup
	}
	defer l.Close()
	chunk := int64(minimize.BatchBytesFor(budgetOf(cfg)))
	if chunk <= 0 {
		chunk = minimize.DefaultMaxBatchBytes
	}
	r := replayer{cfg: cfg, lane: l, bad: map[string]error{}}
	for start := 0; start < len(files); {
		end := chunkEnd(files, start, chunk)
		if err := r.chunk(ctx, files[start:end]); err != nil {
			if !overBudget(ctx, cfg) {
				fmt.Fprintf(cfg.Stderr, "difffuzz: %v\n", err)
			}
			return triage.ExitSetup
		}
		start = end
	}
	if len(r.bad) > 0 {
		fmt.Fprintf(cfg.Stderr, "difffuzz: %v\n", &corpus.MalformedError{Errs: r.bad})
	}
	fmt.Fprintf(cfg.Stdout, "replay: %d passed, %d failed\n", r.passed, r.failed)
	switch {
	case len(r.bad) > 0:
		return triage.ExitSetup
	case r.failed > 0:
		return triage.ExitDivergence
	}
	return triage.ExitOK
}

// chunkEnd is where the chunk of files from start ends: at most chunk
// bytes of files (at least one file) and replayChunkFiles of them. A file
// that cannot be read counts as empty; reading it will say why.
func chunkEnd(files []string, start int, chunk int64) int {
	var size int64
	end := start
	for end < len(files) && end-start < replayChunkFiles {
		if info, err := os.Stat(files[end]); err == nil {
			size += info.Size()
		}
		if size > chunk && end > start {
			break
		}
		end++
	}
	return end
}

// replayer judges a corpus a chunk at a time and keeps the counts.
type replayer struct {
	cfg            Config
	lane           *panel.Panel
	bad            map[string]error
	passed, failed int
}

// chunk loads files, judges every input of them (a collision entry's twin
// beside its input) and prints each entry's verdict.
func (r *replayer) chunk(ctx context.Context, files []string) error {
	entries, names, err := corpus.LoadAll(files)
	if m, ok := err.(*corpus.MalformedError); ok {
		maps.Copy(r.bad, m.Errs)
	}
	var inputs []any
	kept := entries[:0]
	keptNames := names[:0]
	for i, e := range entries {
		if e.Contract != r.lane.Contract {
			r.bad[names[i]] = fmt.Errorf("judged by the contract %s; this replay judges by %s: replay it with -contract %s",
				cmp.Or(e.Contract, contract.Default.Name), cmp.Or(r.lane.Contract, contract.Default.Name), replayContract(e))
			continue
		}
		kept, keptNames = append(kept, e), append(keptNames, names[i])
	}
	entries, names = kept, keptNames
	entries, names, err = r.sequences(ctx, entries, names)
	if err != nil {
		return err
	}
	for _, e := range entries {
		inputs = append(inputs, e.Input)
		if e.Twin != nil {
			inputs = append(inputs, e.Twin)
		}
	}
	all, err := r.lane.Judge(ctx, inputs)
	if err != nil {
		return err
	}
	js := make([][]panel.Judged, len(entries))
	var twice []int // the nondeterministic entries, asked again
	for i, e := range entries {
		n := 1
		if e.Twin != nil {
			n = 2
		}
		js[i], all = all[:n], all[n:]
		if e.Kind == corpus.KindNondeterministic {
			twice = append(twice, i)
		}
	}
	drifts, err := r.replayTwice(ctx, entries, twice, js)
	if err != nil {
		return err
	}
	for i, e := range entries {
		var ds []panel.Drift
		if k := slices.Index(twice, i); k >= 0 {
			ds = drifts[k]
		}
		r.entry(ctx, names[i], e, js[i], ds)
	}
	return nil
}

// sequences replays the entries with calls before their input, each on a
// fresh lane (replaySequence), and returns the others.
func (r *replayer) sequences(ctx context.Context, entries []*corpus.Entry, names []string) ([]*corpus.Entry, []string, error) {
	var rest []*corpus.Entry
	var restNames []string
	for i, e := range entries {
		if e.Before == nil {
			rest, restNames = append(rest, e), append(restNames, names[i])
			continue
		}
		if err := r.replaySequence(ctx, names[i], e); err != nil {
			return nil, nil, err
		}
	}
	return rest, restNames, nil
}

// entry prints one entry's verdict from its inputs' judgements, and the
// drifts of its input asked twice (a nondeterministic entry's).
func (r *replayer) entry(ctx context.Context, name string, e *corpus.Entry, js []panel.Judged, drifts []panel.Drift) {
	var out strings.Builder
	r.printDrifts(&out, name, drifts)
	cmp := r.lane.Comparator()
	for i, j := range js {
		if j.Verdict.Agree {
			continue
		}
		which, input := "", e.Input
		if i == 1 {
			which, input = "  (its twin)", e.Twin
		}
		fmt.Fprintf(&out, "DIVERGES   %s  %s%s\n%s", name, compare.Signatures(r.lane.Families(ctx, j.Signatures, input)), which, cmp.Render(j.Verdict, j.Outs))
	}
	if len(js) == 2 {
		a, b := js[0], js[1]
		for x := 1; x < len(r.lane.Names()); x++ {
			sig, ok := r.lane.CollisionLabel(ctx, x, e.Input, e.Twin, a, b)
			if !ok {
				continue
			}
			fmt.Fprintf(&out, "DIVERGES   %s  %s\n%s", name, sig, cmp.RenderCollision(x, a.Outs, b.Outs))
		}
	}
	if out.Len() > 0 {
		r.failed++
		fmt.Fprint(r.cfg.Stdout, out.String())
		return
	}
	r.passed++
	if r.cfg.Verbose || e.Kind != "" {
		fmt.Fprintf(r.cfg.Stdout, "agrees     %s\n", name)
	}
}

// replayContract is the -contract that replays e: its contract's file
// when it was judged by one (a name alone names no file), else its
// built-in's name.
func replayContract(e *corpus.Entry) string {
	if e.ContractFile != "" {
		return e.ContractFile
	}
	return cmp.Or(e.Contract, contract.Default.Name)
}
