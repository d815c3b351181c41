// Package conform is the conformance run for one worker: it checks a worker
// process against the adapter protocol (docs/adapter-protocol.md) and the
// canonical JSON spec (docs/canonical-json.md), in the spirit of protobuf's
// conformance runner. "difffuzz adapter check" is its command.
//
// Run prints one line a check, "PASS <check>" or "FAIL <check>: <reason>",
// then the summary line "N passed, N failed". The checks, in order:
//
//	handshake          hello in time, protocol 3 or 4 on the driver's descriptors or 1 or 2 on stdout, language, name and version set
//	spec-examples      the worked and precedence examples of the spec (§3, §5)
//	fixtures/FILE      every line of every fixture file, sent as its raw msgpack
//	error-codes/CODE   every error code, from cases built byte by byte
//	generated          generated cases against the in-process Go implementation
//	digest-only        generated cases in a digest_only batch: digests (and any
//	                   text sent anyway) against the Go implementation
//	empty-batch        an empty batch gets an empty results list
//	large-values       a 4 MiB string, a 100,000-element array, a 50,000-member object
//	malformed/...      bad frame bodies (error frame of id 0 or the body's, then the worker goes on),
//	                   bad frame lengths (error frame of id 0 or exit status 2) and
//	                   input that ends inside a frame (exit status 2)
//	eof                closing its input ends the worker with status 0
//
// When the worker does not say hello no other check can run, and Run stops
// there.
//
// A worker may come with a failure list (Config.Known), as protobuf's
// testees do: the checks it is known to fail. A listed check that fails
// prints "FAIL <check> (known): <reason>" and does not fail the run; a
// listed check that passes does, so that the list cannot go stale. The
// summary line then adds ", N known".
// Details that do not fit a check's line (more failing cases, the worker's
// stderr) go to Config.Stderr.
package conform

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/adapter"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// Defaults of Config's zero values.
const (
	DefaultCases = 10_000
	DefaultSeed  = 1
	// BatchSize is how many cases the fixture and generated checks send a
	// batch.
	BatchSize = 512
	// exitGrace bounds the wait for a worker to exit after its input closes
	// or after it has said it cannot go on.
	exitGrace = 5 * time.Second
	// maxDetails is how many failures of one check are printed to Stderr
	// besides the first one, which the FAIL line carries.
	maxDetails = 10
)

// Config is one conformance run.
type Config struct {
	// Worker is the worker under test. Its BatchTimeout and CaseTimeout
	// bound every answer (batch + n*case, the adapter package's defaults
	// when zero), its StartTimeout the hello.
	Worker adapter.Spec
	// Fixtures is the folder of the shared *.jsonl fixtures; it must hold
	// at least one.
	Fixtures string
	// FixturesFS, when set, holds the fixtures at its root instead, and
	// Fixtures only names it in messages: difffuzz's built-in copy, for a
	// worker checked outside the difffuzz checkout.
	FixturesFS fs.FS
	// Cases is how many generated cases the generated check sends; 0 means
	// DefaultCases, a negative number skips the check.
	Cases int
	// Seed is the generator's seed; 0 means DefaultSeed.
	Seed uint64
	// Contract is the contract the worker is held to; the zero Contract
	// is this project's, whose checks compare with its own answers. Under
	// another, every answer is judged as a run under it judges one
	// (underContract): against the Go implementation of that contract,
	// with what it leaves open allowed.
	Contract contract.Contract
	// Known is the worker's failure list: the names of the checks it is
	// known to fail (nil: none). A name that is no check of the run is a
	// setup error.
	Known []string
	// Stdout gets the PASS and FAIL lines and the summary; Stderr the
	// details. Nil discards.
	Stdout, Stderr io.Writer
}

// Summary counts the checks of a run.
type Summary struct {
	// Failed counts the checks that failed against the failure list: a
	// check not on it that failed, or one on it that passed. Known counts
	// the listed checks that failed, as listed.
	Passed, Failed, Known int
	// Started says whether the worker said hello; when it did not, no
	// other check ran.
	Started bool
	// Failures are the checks that failed, listed or not, in the order
	// they ran: what a failure list of the worker would hold (WriteKnown).
	Failures []Failure
}

// Failure is a check that failed, and why, on one line.
type Failure struct {
	Check, Reason string
}

// OK reports whether every check passed.
func (s Summary) OK() bool { return s.Failed == 0 && s.Started }

// check is one named check. It returns a note for its PASS line ("" for
// none), or the reason it failed.
type check struct {
	name string
	run  func(ctx context.Context) (note string, err error)
}

// Run loads the fixtures, then runs every check against the worker and
// prints the results. An error is a setup error (the fixtures cannot be
// read, the run was interrupted), not a failed check.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	load := loadFixtures
	if cfg.FixturesFS != nil {
		load = func(dir string) ([]fixtureFile, error) { return loadFixturesFS(cfg.FixturesFS, dir) }
	}
	fixtures, err := load(cfg.Fixtures)
	if err != nil {
		return Summary{}, err
	}
	r := newRunner(cfg)
	if r.under, err = newUnderContract(cfg.Contract); err != nil {
		return Summary{}, err
	}
	if err := r.checkKnown(fixtures); err != nil {
		return Summary{}, err
	}
	defer r.close()
	r.report(ctx, check{"handshake", r.handshake})
	if r.w == nil {
		r.printSummary()
		return r.sum, ctx.Err()
	}
	r.sum.Started = true
	for _, c := range r.checks(fixtures) {
		r.report(ctx, c)
		if err := ctx.Err(); err != nil {
			r.printSummary()
			return r.sum, fmt.Errorf("interrupted during %s: %w", c.name, err)
		}
	}
	r.printSummary()
	return r.sum, nil
}

// checks lists every check after the handshake, in the order they run.
func (r *runner) checks(fixtures []fixtureFile) []check {
	cs := []check{{"spec-examples", r.specExamples}}
	for _, f := range fixtures {
		cs = append(cs, check{"fixtures/" + f.name, r.fixtureCheck(f)})
	}
	for _, code := range errorCodes {
		cs = append(cs, check{"error-codes/" + code, r.errorCodeCheck(code)})
	}
	if r.cfg.Cases >= 0 {
		cs = append(cs, check{"generated", r.generated}, check{"digest-only", r.digestOnly})
	}
	cs = append(cs, check{"empty-batch", r.emptyBatch}, check{"large-values", r.largeValues})
	for _, b := range badBodies {
		cs = append(cs, check{"malformed/" + b.name, r.badBodyCheck(b)})
	}
	for _, f := range fatalInputs {
		cs = append(cs, check{"malformed/" + f.name, r.fatalInputCheck(f)})
	}
	return append(cs, check{"eof", r.eof})
}

// checkKnown refuses a failure list that names no check of the run: a
// misspelt name would otherwise excuse nothing and never be noticed.
func (r *runner) checkKnown(fixtures []fixtureFile) error {
	names := map[string]bool{"handshake": true}
	for _, c := range r.checks(fixtures) {
		names[c.name] = true
	}
	for _, k := range r.cfg.Known {
		if !names[k] {
			return fmt.Errorf("failure list: %q is no check of this run", k)
		}
	}
	return nil
}

// FormatKnown is a failure list of fails, as LoadKnown reads it, under
// header (lines of comment, each starting with #): one check a line, with
// its reason as a comment, cut to keep the line short.
func FormatKnown(header string, fails []Failure) []byte {
	var b strings.Builder
	b.WriteString(header)
	width := 0
	for _, f := range fails {
		width = max(width, len(f.Check))
	}
	for _, f := range fails {
		fmt.Fprintf(&b, "%-*s  # %s\n", width, f.Check, clip.String(f.Reason, 72))
	}
	return []byte(b.String())
}

// LoadKnown reads a failure list: one check name a line; blank lines and
// lines starting with # are skipped, and so is what follows a # on a line.
func LoadKnown(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("failure list: %w", err)
	}
	var names []string
	for _, l := range strings.Split(string(b), "\n") {
		l, _, _ = strings.Cut(l, "#")
		if l = strings.TrimSpace(l); l != "" {
			names = append(names, l)
		}
	}
	return names, nil
}
