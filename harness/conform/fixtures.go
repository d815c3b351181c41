package conform

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// fixtureCase is one line of a fixture file (docs/fixtures.md).
type fixtureCase struct {
	line      int
	category  string
	msgpack   []byte // the case's wire encoding, sent as it is
	want      want
	signature string // hex BLAKE3 of the canonical text; "" for an error
}

// fixtureFile is one *.jsonl file of the fixtures.
type fixtureFile struct {
	name  string // the base name
	cases []fixtureCase
}

// loadFixtures reads every *.jsonl file of dir. A folder without fixtures,
// or a line that does not follow docs/fixtures.md, is an error: a check that
// silently covers nothing must not pass.
func loadFixtures(dir string) ([]fixtureFile, error) {
	return loadFixturesFS(os.DirFS(dir), dir)
}

// loadFixturesFS reads every *.jsonl file at the root of fsys, as
// loadFixtures does; dir names fsys in messages.
func loadFixturesFS(fsys fs.FS, dir string) ([]fixtureFile, error) {
	names, err := fs.Glob(fsys, "*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("fixtures: %w", err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("fixtures: no *.jsonl files in %s", dir)
	}
	var files []fixtureFile
	for _, name := range names {
		f, err := loadFixtureFile(fsys, name, filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

func loadFixtureFile(fsys fs.FS, name, path string) (fixtureFile, error) {
	ff := fixtureFile{name: name}
	f, err := fsys.Open(name)
	if err != nil {
		return ff, fmt.Errorf("fixtures: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	header := false
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		if !header {
			header = true
			if err := checkFixtureContract(sc.Bytes()); err != nil {
				return ff, fmt.Errorf("fixtures: %s:%d: %w", path, n, err)
			}
			continue
		}
		c, err := parseFixtureLine(sc.Bytes())
		if err != nil {
			return ff, fmt.Errorf("fixtures: %s:%d: %w", path, n, err)
		}
		c.line = n
		ff.cases = append(ff.cases, c)
	}
	if err := sc.Err(); err != nil {
		return ff, fmt.Errorf("fixtures: %s: %w", path, err)
	}
	if len(ff.cases) == 0 {
		return ff, fmt.Errorf("fixtures: %s holds no cases", path)
	}
	return ff, nil
}

// fixtureContract is the contract the fixtures' answers must follow for
// these checks: a worker under check is held to this project's contract.
var fixtureContract = contract.Default.Name

// checkFixtureContract reads a fixture file's header line,
// {"contract": NAME}, and fails unless NAME is fixtureContract: fixtures
// of another contract would judge the worker by the wrong answers.
func checkFixtureContract(b []byte) error {
	var h struct {
		Contract *string `json:"contract"`
	}
	if err := json.Unmarshal(b, &h); err != nil || h.Contract == nil {
		return fmt.Errorf(`want the header line {"contract": %q} first (fixtures written before contracts? regenerate them with make fixtures)`, fixtureContract)
	}
	if *h.Contract != fixtureContract {
		return fmt.Errorf("fixtures of contract %q, but these checks hold a worker to contract %q", *h.Contract, fixtureContract)
	}
	return nil
}

func parseFixtureLine(b []byte) (fixtureCase, error) {
	var l struct {
		Category  string  `json:"category"`
		Msgpack   []byte  `json:"msgpack"` // base64 in the file
		Canonical *string `json:"canonical"`
		Signature *string `json:"signature"`
		Error     *string `json:"error"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return fixtureCase{}, err
	}
	c := fixtureCase{category: l.Category, msgpack: l.Msgpack}
	switch {
	case len(l.Msgpack) == 0:
		return c, errors.New(`no "msgpack" field`)
	case l.Error != nil && l.Canonical == nil:
		c.want = wantCode(*l.Error)
	case l.Error == nil && l.Canonical != nil && l.Signature != nil:
		c.want, c.signature = wantText(*l.Canonical), *l.Signature
	default:
		return c, errors.New(`want either "error", or "canonical" and "signature"`)
	}
	return c, nil
}

// fixtureCheck sends every line of f as its raw msgpack, BatchSize lines a
// batch, and compares the answers with the recorded ones. A batch that
// breaks the worker ends the check; the next check gets a fresh worker.
func (r *runner) fixtureCheck(f fixtureFile) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		name := "fixtures/" + f.name
		var fails failures
		for lo := 0; lo < len(f.cases); lo += BatchSize {
			if err := ctx.Err(); err != nil {
				return "", err
			}
			batch := f.cases[lo:min(lo+BatchSize, len(f.cases))]
			raw := make([][]byte, len(batch))
			for i, c := range batch {
				raw[i] = c.msgpack
			}
			results, err := r.rawBatch(name, raw)
			if err != nil {
				fails.add(r, name, "lines %d-%d: %v (the rest of the file not run)", batch[0].line, batch[len(batch)-1].line, err)
				break
			}
			for i, c := range batch {
				if m := r.fixtureMismatch(results[i], c); m != "" {
					fails.add(r, name, "%s:%d (%s): %s", f.name, c.line, c.category, m)
				}
			}
		}
		return count(len(f.cases), "line"), fails.err(len(f.cases), "lines")
	}
}

// fixtureMismatch is mismatch, plus the digest against the recorded
// signature.
func (r *runner) fixtureMismatch(got wire.Result, c fixtureCase) string {
	if got.Inexpressible != "" {
		return r.inexpressible(got, nil)
	}
	if r.under != nil { // the recorded answers are this project's contract's
		return r.rawVerdict(got, c.want, c.msgpack)
	}
	if m := mismatch(got, c.want); m != "" {
		return m
	}
	if c.signature != "" && hex.EncodeToString(got.Digest) != c.signature {
		return fmt.Sprintf("digest %x, want signature %s", got.Digest, c.signature)
	}
	return ""
}
