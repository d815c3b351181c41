package gen

import "github.com/difffuzz/difffuzz/value"

// Cases a native model can hold.
//
// A native worker answers "inexpressible" for a case its model cannot hold
// (a repeated key for any map type, an integer past 2^53 for a float64,
// NaN for serde_json), and the driver counts such a case but compares
// nothing: about half the default cases, for a Go map[string]any, a
// JavaScript object or a serde_json::Value. With Config.Avoid set to the
// reasons the native models declared, case index is instead the first of
// the draws at seeds attemptSeed(Seed, 0), attemptSeed(Seed, 1), ... that
// needs none of them (value.NeedsAny), up to maxAttempts draws, the last
// taken as it is if none qualifies. Attempt 0 is Seed itself, so an index
// whose own draw was expressible keeps exactly today's case.
//
// One index in keepOneIn, chosen by a hash of (Seed, index), takes its own
// draw whatever it holds, so that the inexpressible classes are still
// sent and counted (the status line's and the summary's expressible
// share), and the exact reference still sees duplicate keys and lone
// surrogates.
//
// A case stays a pure function of (Seed, index, Avoid): a run repeated with
// the same adapters, which declare the same reasons, gets the same cases.
// The edge classes shift with the draw: the out-of-domain share falls to
// what the kept indexes carry, and integers from 2^53 on thin out for every
// model that declares big_int, since value.Needs does not know where a
// model's integers end and assumes the smallest.

const (
	// keepOneIn: one index in this many takes its own draw as it is.
	keepOneIn = 10
	// maxAttempts bounds the draws of one index, and so its cost: a model
	// that can hold half the draws fails all 16 once in 65,536 indexes.
	maxAttempts = 16
)

// expressible is CaseCells under Config.Avoid.
func (g *Generator) expressible(index uint64) (v any, classes Classes, cells Cells) {
	if keptAsDrawn(g.cfg.Seed, index) {
		return g.draw(g.cfg.Seed, index)
	}
	for k := range maxAttempts {
		v, classes, cells = g.draw(attemptSeed(g.cfg.Seed, k), index)
		if !value.NeedsAny(v, g.cfg.Avoid) {
			break
		}
	}
	return v, classes, cells
}

// keptAsDrawn reports whether index of seed takes its own draw even when it
// needs an avoided reason: one index in keepOneIn, by a hash that has no
// relation to the directed schedule's Weyl sequence.
func keptAsDrawn(seed, index uint64) bool {
	return mix64(mix64(seed^keepSalt)+index)%keepOneIn == 0
}

// attemptSeed is the seed of draw k of an index: seed itself for k = 0, a
// hash of (seed, k) after.
func attemptSeed(seed uint64, k int) uint64 {
	if k == 0 {
		return seed
	}
	return mix64(seed ^ uint64(k)*attemptSalt)
}

// Salts, so that the hashes of keptAsDrawn and attemptSeed are unrelated to
// each other and to the directed schedule's mix64(seed).
const (
	keepSalt    = 0x2545F4914F6CDD1D
	attemptSalt = 0xD1B54A32D192ED03
)
