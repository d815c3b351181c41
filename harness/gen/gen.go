// Package gen generates the fuzzer's cases: tool-call values
// {"tool_name": string, "args": object} in the value model of package value, weighted
// toward the edges of the canonical JSON spec (docs/canonical-json.md) where
// implementations tend to disagree, while most cases stay small and
// realistic so that throughput stays high.
//
// The cases follow a contract (Config.Contract, package contract): under
// this project's, the default, they are the tool calls above; under one
// whose top level is any value (RFC 8785) they are any JSON value, and the
// edges are that contract's (UTF-16 order traps, the ES6 number
// boundaries, NaN and the integers no double holds only out of domain).
// See contract.go.
//
// A case is a pure function of (Config.Seed, index): shards take disjoint
// index sets and any finding can be regenerated from its seed and index
// alone, without storing the value. A run of native models also sets
// Config.Avoid, the reasons their hellos declared, and its cases are those
// of (Seed, index, Avoid): see expressible.go.
//
// # Classes in contexts
//
// A bug often shows only when an edge class sits in an unusual place: a
// fast path for small objects, a duplicate check that compares neighbours
// only, a buffer that switches at 4,096 characters, a limit off by one.
// So every case also reports the (class × context) cells it hit
// (CaseCells, Cells), and Coverage counts them over a run. The contexts
// (type Context) come in axes; each occurrence of a class (the value, key
// or character that carries it) hits one context of each axis that
// applies to it (Applicable; AllCells lists the 281 cells):
//
//   - size, of the container holding the occurrence (for a key, its
//     object): size-1, size-2..7, size-8..16, size-17..999 (probes draw
//     90..128), size-1000+ (1,000..1,100);
//   - position in that container: first, middle, last;
//   - depth, the holder's level: depth-top (the envelope or args),
//     depth-nested (3..31), depth-deep (32..510), depth-limit (511 and
//     up: the occurrence at spec depth 511, 512 or, out of domain, 513);
//     for the depth classes, the case's own depth (near-limit at 511..512,
//     too-deep at exactly 513, are depth-limit);
//   - role: key or value;
//   - pair distance, for the two keys of a duplicate or an order trap:
//     pair-adjacent, or pair-far (8 members or more apart, among many);
//   - chunk-edge: the interesting character of a string of 1,023 code
//     points or more sits within two of 1,024, 4,096, 16,384 or 65,536
//     (for long-string: the length does);
//   - company: alone (the case carries no other class) or combined.
//
// Contexts are recorded where a class is placed; an edge feature injected
// later (at most 7 per case) may still add a member to that container.
//
// # Directed cases
//
// Random draws alone would almost never put, say, a lone surrogate in a
// key of a 1,000-member object 500 levels down. So one case in eight is
// directed: built around one cell, its class placed in a container shaped
// for that context (filler members around it that carry no class), the
// other axes drawn small, inside an otherwise ordinary case (or alone, for
// the alone cells). Which cases are directed and at which cell is a pure
// function of (seed, index): a Weyl sequence over the index, so every
// shard's arithmetic progression of indexes goes round the cells evenly;
// out-of-domain cells are taken only by cases already drawn out of domain,
// so the out-of-domain share stays Config.OutOfDomain. The schedule does
// not steer toward the cells a run has hit least: that would make a case
// depend on the run's history instead of its (seed, index). Each
// in-domain cell is the target of about one case in 1,900, each
// out-of-domain cell of one out-of-domain case in 350, so a 60-second run
// (some 600,000 cases) hits every cell dozens of times at least.
//
// The probes also reach the spec's limits and the sizes where
// implementations switch paths: depth 511, 512 and 513; integers of
// 4,299 to 4,301 digits (Python's int/str limit), up to 20,000 and, one
// in 64 of those, 99,999 and 100,000 (the reader cap); strings around
// each chunk edge; one long-string probe in 256 of LongStringLen astral
// characters, over 1 MiB of canonical text; each half of a surrogate pair
// alone, the two in the wrong order, or two high ones.
package gen

import (
	"math/bits"
	"sync"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/value"
)

// Config tunes the generator. Every zero field means its documented
// default, so Config{Seed: s} is the normal setting.
type Config struct {
	// Seed selects the case sequence; the same seed and index always give
	// the same case.
	Seed uint64

	// MaxDepth bounds the nesting depth (spec §3: a container counts 1, the
	// envelope included, so {"tool_name":"t","args":{}} has depth 2) of
	// ordinary cases. Cases of the deep, near-limit and too-deep classes are
	// exempt, and so are directed cases (one in four, see the package doc). Default 8; values below 3 are raised to 3 so that args can
	// hold a container.
	MaxDepth int

	// MaxWidth bounds the members or elements of ordinary containers. The
	// wide class exceeds it, and each edge feature injected into a case (at
	// most 7 per case: wide, long string, key order, chain, and the
	// out-of-domain ones) may add one member to a container, the envelope
	// included. Directed cases are exempt: their probes hold up to 1,100
	// members. Default 8; values below 2 are raised to 2.
	MaxWidth int

	// MaxStringLen bounds, in code points, the random strings and keys of
	// ordinary cases. Strings of the long-string class are exempt, and so
	// are the fixed vocabulary words (tool names, JavaScript-special keys,
	// at most 16 code points), directed cases (chunk-edge strings of up
	// to 65,600 code points) and twin cases (a key or a value that spells
	// out two or three members, see twins.go). Default 32; values below 4
	// are raised to 4.
	MaxStringLen int

	// OutOfDomain is the probability (0..1) that a case is out of domain
	// (lone surrogate, duplicate key, too deep, bad envelope; one case in
	// four of those carries a second such problem, to exercise the spec's
	// error precedence). Default 0.04, so that each of the four out-of-domain
	// classes comes up in about 1% of cases; a negative value means never.
	OutOfDomain float64

	// WideWidth is the largest number of members or elements of a container
	// of the wide class; such containers have between WideWidth/4 (at least
	// MaxWidth+1) and WideWidth of them. Default 512; values below
	// 2*MaxWidth are raised to 2*MaxWidth.
	WideWidth int

	// LongStringLen is the length, in code points, of the longest strings
	// of the long-string class: those have 1,000 to 4,000 code points, and
	// exactly LongStringLen one time in eight. Default 100,000; values
	// below 1,000 are raised to 1,000.
	LongStringLen int

	// Avoid is what the native value models under test declared they cannot
	// hold (their hellos' reasons): the generator then draws, for most
	// indexes, a case that needs none of them (see expressible.go), so that
	// a run of native implementations does not spend half its cases on ones
	// it never compares. The default, none, gives every case as drawn:
	// exactly the cases of a run of exact models.
	Avoid value.Reasons

	// Contract is the canonical JSON the cases are drawn for (package
	// contract): what the top level may be, and which values are in its
	// domain. The zero value means contract.Default, whose cases are
	// exactly those of a generator that knew no contract. See contract.go.
	Contract contract.Contract
}

// Defaults of Config's fields.
const (
	DefaultMaxDepth      = 8
	DefaultMaxWidth      = 8
	DefaultMaxStringLen  = 32
	DefaultOutOfDomain   = 0.04
	DefaultWideWidth     = 512
	DefaultLongStringLen = 100_000
)

// normalized returns cfg with defaults and minimums applied, so that the
// generator code never has to check for degenerate settings.
func (cfg Config) normalized() Config {
	def := func(v *int, d, lo int) {
		if *v == 0 {
			*v = d
		}
		*v = max(*v, lo)
	}
	def(&cfg.MaxDepth, DefaultMaxDepth, 3)
	def(&cfg.MaxWidth, DefaultMaxWidth, 2)
	def(&cfg.MaxStringLen, DefaultMaxStringLen, 4)
	def(&cfg.WideWidth, DefaultWideWidth, 2*cfg.MaxWidth)
	def(&cfg.LongStringLen, DefaultLongStringLen, 1000)
	cfg.Avoid &= value.AllReasons
	if cfg.Contract == (contract.Contract{}) {
		cfg.Contract = contract.Default
	}
	switch {
	case cfg.OutOfDomain == 0:
		cfg.OutOfDomain = DefaultOutOfDomain
	case cfg.OutOfDomain < 0:
		cfg.OutOfDomain = 0
	case cfg.OutOfDomain > 1:
		cfg.OutOfDomain = 1
	}
	return cfg
}

// Generator makes cases. It holds no per-case state, so one Generator may
// serve any number of goroutines.
type Generator struct {
	cfg   Config
	rules rules     // cfg.Contract's choices, read once
	pool  sync.Pool // *state: scratch reused across cases to avoid garbage
}

// New returns a generator for cfg (zero fields take their defaults).
func New(cfg Config) *Generator {
	g := &Generator{cfg: cfg.normalized()}
	g.rules = rulesOf(g.cfg.Contract)
	g.pool.New = func() any { return &state{cfg: &g.cfg, rules: &g.rules} }
	return g
}

// Config returns the generator's settings with the defaults filled in, for
// reports that must say exactly what ran.
func (g *Generator) Config() Config { return g.cfg }

// Case returns case number index and the edge classes it exercised. The
// result depends only on the generator's Config and index. The value is
// freshly allocated and owned by the caller.
func (g *Generator) Case(index uint64) (v any, classes Classes) {
	v, classes, _ = g.CaseCells(index)
	return v, classes
}

// CaseCells is Case with the (class × context) cells the case hit, for
// Coverage. It costs no more than Case: the cells are recorded anyway.
func (g *Generator) CaseCells(index uint64) (v any, classes Classes, cells Cells) {
	if g.cfg.Avoid != 0 {
		return g.expressible(index)
	}
	return g.draw(g.cfg.Seed, index)
}

// draw is the case of index drawn at seed: the case itself, unless Avoid
// asks for another draw (expressible).
func (g *Generator) draw(seed, index uint64) (v any, classes Classes, cells Cells) {
	s := g.pool.Get().(*state)
	if first, second, twin := twinAt(seed, index); twin && g.cfg.OutOfDomain < 1 {
		s.reset(seed, first)
		v = s.twinCase(second)
		if s.rules.anyTop {
			v = s.lift(v.(value.Object)[1].Value)
		}
	} else {
		s.reset(seed, index)
		if s.rules.anyTop {
			v = s.anyCase()
		} else {
			v = s.topLevel()
		}
	}
	classes = s.classes | depthClasses(s.maxLevel)
	cells = s.finishCells(classes)
	if len(s.buf) > 1<<20 || len(s.pool) > 1<<20 {
		s.buf, s.pool = nil, nil // do not pin a huge buffer in the pool
	}
	g.pool.Put(s)
	return v, classes, cells
}

// finishCells adds the cells known only once the case is complete: the
// depth classes' (from the deepest container) and every class's company
// (alone or combined). It keeps only applicable cells.
func (s *state) finishCells(classes Classes) Cells {
	cells := s.cells
	if d := depthClasses(s.maxLevel); d != 0 {
		band := Contexts(1 << CtxDeep)
		if (d == ClassNearLimit && s.maxLevel >= 511) || (d == ClassTooDeep && s.maxLevel == value.MaxDepth+1) {
			band = 1 << CtxLimit
		}
		cells[bits.TrailingZeros64(uint64(d))] |= s.deepCtx&ctxSizes | band
	}
	company := Contexts(1 << CtxCombined)
	if classes&(classes-1) == 0 {
		company = 1 << CtxAlone
	}
	for i := range cells {
		if classes&(1<<i) != 0 {
			cells[i] |= company
		}
		cells[i] &= applicable[i]
	}
	return cells
}

// depthClasses maps the depth of a whole case to its depth band.
func depthClasses(depth int) Classes {
	switch {
	case depth > value.MaxDepth:
		return ClassTooDeep
	case depth >= 500:
		return ClassNearLimit
	case depth >= 32:
		return ClassDeep
	}
	return 0
}
