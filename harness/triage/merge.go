package triage

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/corpus"
	"github.com/difffuzz/difffuzz/harness/report"
	"github.com/difffuzz/difffuzz/internal/atomicfile"
	"github.com/difffuzz/difffuzz/value"
)

// MergeConfig is "difffuzz corpus merge": shard outputs into one corpus and
// one report.
type MergeConfig struct {
	Out       string         // the merged corpus folder
	KnownPath string         // the known list to hold the merged findings to; "" none
	Outputs   report.Outputs // where the merged report goes, by format
	Stdout    io.Writer
	Stderr    io.Writer
}

// Merge copies the corpora of shard outputs into one folder (content-addressed
// names make it a deduplicating copy), regroups the findings by divergence
// signature, sums the shards' reports and holds the result to the known list,
// now with the stale check that no single shard can make. Each DIR is a shard's
// output folder holding corpus/ and report.json, or a corpus folder itself.
func Merge(cfg MergeConfig, dirs []string) int {
	rep := &report.Report{Shards: 1}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz: merge: %v\n", err)
		return ExitSetup
	}
	counts := &shardCounts{byFile: map[string]bool{}}
	for _, dir := range dirs {
		if err := mergeDir(rep, counts, dir, cfg.Out); err != nil {
			fmt.Fprintf(cfg.Stderr, "difffuzz: %v\n", err)
			return ExitSetup
		}
	}
	if err := regroup(rep, cfg.Out, counts); err != nil {
		fmt.Fprintf(cfg.Stderr, "difffuzz: %v\n", err)
		rep.Error = err.Error()
	}
	if rep.Seconds > 0 {
		rep.Rate = float64(rep.Cases) / rep.Seconds
	}
	Finish(rep, Policy{KnownPath: cfg.KnownPath, CheckStale: true, Outputs: cfg.Outputs}, cfg.Stdout, cfg.Stderr)
	return rep.Exit
}

// mergeDir adds one shard's output (or a bare corpus folder) to the merge:
// its report's counts, and its corpus copied into out.
func mergeDir(rep *report.Report, counts *shardCounts, dir, out string) error {
	src, isShard := shardCorpus(dir)
	var shard *report.Report
	if isShard {
		var err error
		if shard, err = addShardReport(rep, filepath.Join(dir, "report.json")); err != nil {
			return err
		}
	}
	if shard != nil {
		counts.add(shard)
	}
	if src == "" {
		return nil // a shard that found nothing
	}
	names, err := copyCorpus(src, out)
	if err != nil {
		return fmt.Errorf("merge %s: %w", dir, err)
	}
	if shard == nil {
		for _, n := range names {
			counts.byFile[n] = true
		}
	}
	return nil
}

// shardCounts are the findings counts the shards' reports give: a run
// keeps a few of a bucket's findings in its corpus (-keep), so its corpus
// files are not its findings, and a merge that counted them said "547
// divergences" of shards that found some 147,000. A finding whose source
// had no report (a bare corpus folder, a shard without report.json) is
// counted by its file, as the only count there is.
type shardCounts struct {
	reports     int
	divergences uint64
	groups      []report.Group  // every shard's buckets, as its run labelled them
	byFile      map[string]bool // the corpus files counted one finding each
}

// add takes one shard's report.
func (c *shardCounts) add(shard *report.Report) {
	c.reports++
	c.divergences += shard.Divergences
	c.groups = append(c.groups, shard.Distinct...)
}

// counts reports whether the corpus file name counts as a finding: when
// no shard had a report, every file does (a merge of corpus folders).
func (c *shardCounts) counts(name string) bool {
	return c == nil || c.reports == 0 || c.byFile[filepath.Base(name)]
}

// shardCorpus tells a shard's output folder (it holds report.json or
// corpus/) from a bare corpus folder, and returns the corpus to copy ("" for
// a shard whose corpus folder is missing: it found nothing).
func shardCorpus(dir string) (string, bool) {
	corpusDir := filepath.Join(dir, "corpus")
	_, errReport := os.Stat(filepath.Join(dir, "report.json"))
	info, errCorpus := os.Stat(corpusDir)
	switch {
	case errCorpus == nil && info.IsDir():
		return corpusDir, true
	case errReport == nil:
		return "", true
	}
	return dir, false
}

// copyCorpus copies every entry of src into out, keeping what out has, and
// returns the names of src's entries.
func copyCorpus(src, out string) ([]string, error) {
	files, err := corpus.Files([]string{src})
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
		dst := filepath.Join(out, names[i])
		if _, err := os.Stat(dst); err == nil {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := atomicfile.Write(dst, data); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// addShardReport adds one shard's counts, and returns its report (nil
// when it has none); the merged run lasted as long as its longest shard.
func addShardReport(rep *report.Report, path string) (*report.Report, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s report.Report
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if rep.Started.IsZero() || s.Started.Before(rep.Started) {
		rep.Started = s.Started
	}
	rep.Seed, rep.Command = s.Seed, shardPattern.ReplaceAllString(s.Command, "-shard I/$1")
	rep.Cases += s.Cases
	rep.Compared += s.Compared
	rep.Seconds = max(rep.Seconds, s.Seconds)
	rep.Adapters = mergeAdapters(rep.Adapters, s.Adapters)
	rep.Coverage = mergeCoverage(rep.Coverage, s.Coverage)
	rep.Profiles = report.MergeProfiles(rep.Profiles, s.Profiles)
	return &s, nil
}

// shardPattern finds a shard's own -shard flag, so that the merged report's
// command stands for every shard.
var shardPattern = regexp.MustCompile(`-shard \d+/(\d+)`)

func mergeAdapters(into, add []report.AdapterReport) []report.AdapterReport {
	if into == nil {
		return append([]report.AdapterReport(nil), add...)
	}
	for i := range into {
		for _, a := range add {
			if a.Name == into[i].Name {
				total := into[i].MeanBatchMs*float64(into[i].Batches) + a.MeanBatchMs*float64(a.Batches)
				into[i].Batches += a.Batches
				into[i].Failures += a.Failures
				into[i].ProtocolErrors += a.ProtocolErrors
				into[i].Starts += a.Starts
				if into[i].Batches > 0 {
					into[i].MeanBatchMs = total / float64(into[i].Batches)
				}
			}
		}
	}
	return into
}

func mergeCoverage(into, add []report.ClassCount) []report.ClassCount {
	if into == nil {
		return append([]report.ClassCount(nil), add...)
	}
	for i := range into {
		for _, c := range add {
			if c.Class == into[i].Class {
				into[i].Cases += c.Cases
			}
		}
	}
	return into
}

// regroup rebuilds the distinct divergences from the entries in dir: each
// original finding counts in each of its signatures, read through the
// labels the shards' minimized entries gave their buckets (relabels), so
// that the merge groups as each run did; the smallest minimized entry of a
// bucket is its example. The findings are counted by the shards' reports
// where they have them (see shardCounts), and each plain bucket then goes
// into the collision bucket of its cause, as in a run (Twins).
func regroup(rep *report.Report, dir string, counts *shardCounts) error {
	files, err := corpus.Files([]string{dir})
	if err != nil {
		return err
	}
	entries, names, loadErr := corpus.LoadAll(files)
	sigs := make([][]compare.Signature, len(entries))
	for i, e := range entries {
		if e.OldSignature {
			return fmt.Errorf("%s: written by a difffuzz before buckets had causes; replay it (difffuzz replay %s) to see its bucket now", names[i], names[i])
		}
		sigs[i] = e.Signatures
	}
	label := relabels(entries, names, sigs)
	groups := map[string]*mergedGroup{}
	for i, e := range entries {
		if len(e.Signatures) == 0 {
			continue
		}
		counted := e.MinimizedFrom == "" && counts.counts(names[i])
		if counted {
			rep.Divergences++
		}
		for _, s := range sigs[i] {
			fuzzed := s
			if e.MinimizedFrom == "" {
				if l, ok := label[s.Bucket()]; ok {
					s = l
				}
			}
			groupOf(groups, s).add(s, fuzzed, e, names[i], counted)
		}
	}
	if counts != nil {
		rep.Divergences += counts.divergences
		for _, sg := range counts.groups {
			groupOf(groups, sg.Signature).addShard(sg)
		}
	}
	rep.Distinct = mergeTwins(groups)
	sort.Slice(rep.Distinct, func(i, j int) bool {
		a, b := rep.Distinct[i], rep.Distinct[j]
		return a.Count > b.Count || a.Count == b.Count && a.Signature.String() < b.Signature.String()
	})
	return loadErr
}

// groupOf is the merged bucket of label s, made if new.
func groupOf(groups map[string]*mergedGroup, s compare.Signature) *mergedGroup {
	g := groups[s.Bucket()]
	if g == nil {
		g = &mergedGroup{Group: report.Group{Kind: string(s.Kind), Cause: s.Cause}, from: map[string]compare.Signature{}}
		groups[s.Bucket()] = g
	}
	return g
}

// mergeTwins makes the report's buckets of groups, each plain bucket in
// the collision bucket of its cause (Twins), in an order of their own
// (by bucket) so that the merge is the same whatever order the map gives.
func mergeTwins(groups map[string]*mergedGroup) []report.Group {
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	sigs, minimized := make([]compare.Signature, len(keys)), make([]bool, len(keys))
	for i, k := range keys {
		sigs[i], minimized[i] = groups[k].sig, groups[k].Minimized
	}
	into := Twins(sigs, minimized)
	for i, k := range keys {
		if j := into[i]; j >= 0 {
			groups[keys[j]].absorb(groups[k])
		}
	}
	var out []report.Group
	for i, k := range keys {
		if into[i] < 0 {
			out = append(out, groups[k].done())
		}
	}
	return out
}

// relabels maps the bucket (Signature.Bucket) of each minimized entry's
// original finding to the label its minimized example showed: what the
// shard's run relabelled the bucket to (docs/triage.md). A finding in
// several buckets maps the one of the label's cause; a collision's one.
// Where two shards minimized one bucket, the smaller example's label wins.
func relabels(entries []*corpus.Entry, names []string, sigs [][]compare.Signature) map[string]compare.Signature {
	byName := map[string]int{}
	for i, n := range names {
		byName[filepath.Base(n)] = i
	}
	label, size := map[string]compare.Signature{}, map[string]int{}
	for i, e := range entries {
		j, ok := byName[e.MinimizedFrom]
		if e.MinimizedFrom == "" || !ok || len(sigs[i]) == 0 {
			continue
		}
		l, n := sigs[i][0], len(value.AppendText(nil, e.Input))
		for _, s := range sigs[j] {
			if len(sigs[j]) > 1 && s.Bucket() != l.Bucket() {
				continue
			}
			if old, ok := size[s.Bucket()]; !ok || n < old {
				label[s.Bucket()], size[s.Bucket()] = l, n
			}
		}
	}
	return label
}

// mergedGroup is a bucket as the merge builds it, with the signatures the
// shards' fuzzing gave the buckets it is made of.
type mergedGroup struct {
	report.Group
	sig  compare.Signature
	from map[string]compare.Signature // by Bucket
}

// add counts entry e (file name) in g: s is its label, fuzzed the
// signature its run counted it under; counted is false for a finding its
// shard's report counts (addShard).
func (g *mergedGroup) add(s, fuzzed compare.Signature, e *corpus.Entry, name string, counted bool) {
	// One bucket per root cause, naming every implementation that showed
	// it in some shard.
	g.name(s)
	text := string(value.AppendText(nil, e.Input))
	if e.MinimizedFrom != "" {
		if !g.Minimized || len(text) < len(g.MinimizedInput) {
			g.Minimized, g.MinimizedInput, g.MinimizedPath = true, text, name
		}
		return
	}
	g.madeOf(fuzzed)
	if counted {
		g.Count++
	}
	if g.First == "" || name < g.First {
		g.First, g.Example = name, text
	}
}

// addShard counts a shard's bucket sg, which its run labelled as g, in g:
// its findings, the buckets it was made of, and its example when g has
// none from the corpus.
func (g *mergedGroup) addShard(sg report.Group) {
	g.name(sg.Signature)
	g.Count += sg.Count
	for _, m := range sg.MergedFrom {
		var s compare.Signature
		if s.UnmarshalText([]byte(m)) == nil {
			g.madeOf(s)
		}
	}
	if g.First == "" {
		g.First, g.Example = sg.First, sg.Example
	}
}

// name makes g name the implementations of s too.
func (g *mergedGroup) name(s compare.Signature) {
	if g.sig.Kind == "" {
		g.sig = s
	}
	g.sig = g.sig.Merge(s)
}

// madeOf notes s, a signature the fuzzing gave a bucket g is made of.
func (g *mergedGroup) madeOf(s compare.Signature) {
	if old, ok := g.from[s.Bucket()]; ok {
		s = old.Merge(s)
	}
	g.from[s.Bucket()] = s
}

// absorb adds o, the plain bucket of g's collision's cause, to g: its
// findings and the buckets it was made of (itself, when it was one).
func (g *mergedGroup) absorb(o *mergedGroup) {
	g.Count += o.Count
	if len(o.from) == 0 {
		o.madeOf(o.sig)
	}
	if len(g.from) == 0 {
		g.madeOf(g.sig)
	}
	for _, s := range o.from {
		g.madeOf(s)
	}
	if g.First == "" { // the collision's own example, else its twin's
		g.First, g.Example = o.First, o.Example
	}
}

// done is g's report group: its signature, and the buckets merged into it
// when more than one.
func (g *mergedGroup) done() report.Group {
	g.Signature, g.Deviants = g.sig, g.sig.Deviants
	if len(g.from) > 1 {
		for _, s := range g.from {
			g.MergedFrom = append(g.MergedFrom, s.String())
		}
		sort.Strings(g.MergedFrom)
	}
	return g.Group
}
