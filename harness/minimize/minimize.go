// Package minimize shrinks a case that shows a divergence to a small case
// that still shows it, so that a bug report carries
// {"tool_name":"","args":{"":1e+21}} rather than five kilobytes of noise.
//
// It is pure: it knows nothing about adapters, workers or files. The caller
// supplies a predicate that checks a whole batch of candidates at once,
// because each check is a round trip to every adapter; the minimizer's aim
// is therefore few calls, and it spends CPU freely to choose, every round,
// the candidates most likely to shrink the value a lot.
//
// Each candidate applies one step to the current value:
//
//   - replace any value by 0, "", {}, [] or null;
//   - replace a value that is out of the domain (itself or below it) and
//     has a sibling by {0:0} or "\udc00", one bad value for a smaller one:
//     a disagreement about which error comes first keeps showing, and a
//     512-level chain becomes 5 bytes. These wait until every other step
//     of the round has failed, since a simple value does better wherever
//     it works;
//   - hoist: replace a container by a descendant 1, 2, 4, 8, ... levels
//     below it, so that deep nesting goes in logarithmically many rounds;
//   - drop chunks of a container's members or elements ddmin-style
//     (halves, quarters, ... single members), or keep only one chunk (of
//     up to 64), so that wide containers go in logarithmically many
//     rounds; past 1,024 members, where single ones are out of reach, also
//     the first and last 1, 2, 4, ... and all but those;
//   - turn an object into the array of its values (nesting that matters
//     only for its depth costs 2 bytes a level instead of 5 or more);
//   - the same chunk steps on the code points of strings and keys, then
//     turning single characters into 'a' (a digit into '0') or into the
//     shortest of their kind (one written escaped into \n, a non-ASCII
//     one into U+0080), in strings of at most 1,024 characters or with at
//     most 16 left to simplify, and turning chunks into runs of 'a' (as
//     many code points, or as many bytes);
//   - those string steps on every copy of a string at once, when it occurs
//     more than once as a key or a string value (a repeated key must stay
//     repeated: {"a":0,"a":0}, not two copies of a 20-character key), and
//     dropping the common prefix of two keys of one object from both (an
//     order trap that needs the keys to share it);
//   - renaming keys to one-character keys their object does not have yet,
//     each its own (keys that must stay distinct cannot shrink otherwise),
//     also only once every other step of the round has failed;
//   - numbers: fewer significant digits, the decimal exponent moved
//     toward zero by all, half, a quarter, ... of itself, the absolute
//     value, integers divided by 10 or 2 or cut to their leading digit or
//     without half, a quarter, an eighth, ... of their digits,
//     float<->integer swaps, big integers toward the int64 range.
//
// A step is offered only if it makes the value smaller: shorter extended
// JSON text (value.AppendText), or as short and simpler (characters
// closer to 'a' and '0', smaller digits and exponents), so minimization
// always ends. Steps that give the same value are offered once. A cut
// never joins a high and a low lone surrogate (they would travel as a
// valid pair in UTF-16).
//
// Choosing the batch is what keeps rounds few. Steps are kept in four
// lists (simple replacements, chunks of containers, hoists of containers,
// string/key/number steps) and a fifth of the steps that wait (bad values
// for bad values, fresh keys), each sorted coarsest and biggest first; a
// batch takes from every list, in shares that follow each list's recent
// success rate, and within a list alternately from its top and from where
// the previous round stopped. A round keeps the smallest failing
// candidate, and the next round also tries all of that round's compatible
// failing steps merged into one candidate, which is how a hundred
// independent simplifications land in one round. Stats counts, for each
// list (a pass, in the terms of Hypothesis's shrinker) and for the merged
// candidates, the candidates tried, those that kept failing and those
// taken, so that a pass that never pays shows.
package minimize

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Options tunes Minimize. Zero fields take their defaults.
type Options struct {
	// MaxBatch is the most candidates passed to one call of fails.
	// Default 256.
	MaxBatch int
	// MaxRounds is the most calls of fails, the first (reproduction) call
	// included. Minimize returns the best value so far when it is reached.
	// Default 1000.
	MaxRounds int
	// MaxBatchBytes bounds the candidates passed to one call of fails by
	// the sum of their sizes (extended JSON text, as Stats measures), so
	// that a megabyte input's round does not hold 256 near-copies of it
	// at once, with their encodings and every adapter's output: that took
	// a driver to 1.7 GB. A call always gets at least one candidate.
	// Default DefaultMaxBatchBytes.
	MaxBatchBytes int
	// Progress, if set, is called after each call of fails, with where
	// the minimization is; it must return quickly. nil reports nothing.
	Progress func(Progress)
}

// Defaults of Options' fields.
const (
	DefaultMaxBatch  = 256
	DefaultMaxRounds = 1000
	// DefaultMaxBatchBytes is 8 MiB of candidates a call: a small input's
	// 256 fit many times over, a megabyte input's go a few at a time. The
	// caller's side holds each candidate about five times (the value, its
	// encoding, each adapter's output, the frames), and a collector at GC
	// percent 400 five times that, so a call stays within 256 MiB of
	// driver (docs/performance.md).
	DefaultMaxBatchBytes = 8 << 20
)

// DefaultTime is how long one finding's minimization is given when its
// caller has no budget of its own to share: difffuzz survey gives each
// divergence this long, and a fuzzing run gives each bucket at least this
// long while its budget lasts (run.Config.MinimizeTime). Most examples
// are 1-minimal within a few seconds; this leaves room for a large one,
// and a caller that needs more time says so (difffuzz minimize FILE has no
// bound).
const DefaultTime = 10 * time.Second

// BatchBytesFor is MaxBatchBytes under a driver's memory budget in bytes:
// a 32nd of it, at most DefaultMaxBatchBytes; 0 (the default) for no
// budget (budget <= 0).
func BatchBytesFor(budget int64) int {
	if budget <= 0 {
		return 0
	}
	return int(min(budget/32, DefaultMaxBatchBytes))
}

// Stats describes one minimization, for reports and for tuning.
type Stats struct {
	// Rounds is the number of calls of fails, the first one included.
	Rounds int
	// Candidates is the number of values passed to fails, in total.
	Candidates int
	// Steps is the number of times the value shrank.
	Steps int
	// Merged is how many of those steps were a merged candidate: all of
	// a round's compatible failing steps at once.
	Merged int
	// StartSize and EndSize are the lengths of the extended JSON text
	// (value.AppendText) of the input and of the result.
	StartSize, EndSize int
	// Minimal reports that the last round found no failing candidate: the
	// result is 1-minimal for the step set (no single step shrinks it
	// further). It is false when MaxRounds, ctx or an error stopped the run:
	// a caller may then say that more time would shrink it further.
	Minimal bool
	// Passes are the lists of steps and the merged candidates, in the
	// package documentation's order, merge last. Their Tried add up to
	// Candidates less the first (reproduction) call's one, their Shrinks
	// to Steps; the merge pass's Shrinks are Merged.
	Passes []Pass
}

// Pass counts what one list of steps (see the package documentation) did
// over a minimization, as Hypothesis's shrinker counts each of its passes:
// a pass whose candidates never keep failing is a dead step, and the
// counts show which lists pay.
type Pass struct {
	// Name is the list's: "replace" (simple values, hoisted scalars),
	// "chunks" (of containers), "hoist" (containers by descendants),
	// "edit" (strings, keys, numbers, objects to arrays), "last" (bad
	// values for bad values, fresh keys: they wait for every other list),
	// or "merge" (a round's compatible failing steps at once).
	Name string `json:"name"`
	// Tried is how many of the pass's candidates were passed to fails,
	// Hits how many of those still failed, and Shrinks how many times one
	// of them became the next value (at most one a round).
	Tried   int `json:"tried"`
	Hits    int `json:"hits"`
	Shrinks int `json:"shrinks"`
	// Removed is the bytes of extended JSON text its shrinks removed.
	Removed int `json:"removed_bytes"`
	// Seconds is its share of the time spent in fails: each call's time
	// split among the passes by their candidates in it.
	Seconds float64 `json:"seconds"`
}

// ErrNotReproducible is returned when the original value does not fail
// when checked again: the finding is flaky, and minimizing it would chase
// noise.
var ErrNotReproducible = errors.New("minimize: the original value does not fail again")

// Fails reports, for each candidate value, whether it still shows the
// divergence being minimized (true = keep shrinking from it). It must
// return one result per candidate, and must not modify the candidates:
// they share structure with each other and with the value being minimized.
type Fails func(ctx context.Context, candidates []any) ([]bool, error)

// Minimize shrinks v, a value of the model of package value, while fails keeps
// reporting it as failing. Each round it builds every step over the whole
// tree (see the package documentation), passes candidates to fails in
// batches of at most MaxBatch until some fail, and continues from the
// smallest failing one; it stops when a round has tried every step and
// none failed. A round is usually one call of fails; the last one, which
// rules out every step, takes (number of steps)/MaxBatch calls: one for a
// small result, a few dozen for a result 500 levels deep.
//
// If v is an envelope ({"tool_name": string, "args": object}, in either
// order), every candidate is one too: the divergence is then about the
// contents, and a minimized case must still be a well-formed tool call.
// Otherwise candidates take any shape.
//
// The first call of fails checks v alone; if it does not fail, Minimize
// returns ErrNotReproducible. When ctx ends or fails returns an error,
// Minimize returns the smallest failing value found so far together with
// that error (ctx.Err() if ctx ended). Reaching MaxRounds is not an error:
// the best value so far is returned with Stats.Minimal false. For the same
// v and a deterministic fails, the result is the same every time.
func Minimize(ctx context.Context, v any, fails Fails, opt Options) (any, Stats, error) {
	if opt.MaxBatch <= 0 {
		opt.MaxBatch = DefaultMaxBatch
	}
	if opt.MaxRounds <= 0 {
		opt.MaxRounds = DefaultMaxRounds
	}
	if opt.MaxBatchBytes <= 0 {
		opt.MaxBatchBytes = DefaultMaxBatchBytes
	}
	m := &minimizer{fails: fails, opt: opt}
	m.stats.Passes = make([]Pass, passes)
	for p := range m.stats.Passes {
		m.stats.Passes[p].Name = passNames[p]
	}
	m.tree.build(v, isEnvelope(v))
	m.stats.StartSize = m.tree.size()
	m.stats.EndSize = m.stats.StartSize
	res, err := m.call(ctx, []any{v})
	if err != nil {
		return v, m.stats, err
	}
	if !res[0] {
		return v, m.stats, ErrNotReproducible
	}
	best := v
	for {
		picked, err := m.round(ctx, opt)
		if err != nil || picked == nil {
			return best, m.stats, err
		}
		best = picked
		m.stats.Steps++
		m.tree.build(best, m.tree.env)
		m.stats.EndSize = m.tree.size()
	}
}

type minimizer struct {
	fails Fails
	opt   Options
	pass  string // the pass of the last step, for Progress
	tree  tree
	stats Stats

	merged                   any // last round's failing steps combined, or nil
	mergedSize, mergedWeight int
	scratch                  tree // measures merged values

	hits, tries [lists]float64 // recent failing and tried candidates per list
	sched       schedule
	rot         [lists]int   // where the last round's schedule left each list
	rotLevel    [lists]uint8 // and at which level
}

// round passes the current value's candidates to fails, batch after batch,
// until some fail, and returns the smallest failing one; nil when none
// fails (the value is minimal: Stats.Minimal is set) or on MaxRounds.
func (m *minimizer) round(ctx context.Context, opt Options) (any, error) {
	t := &m.tree
	total := t.candidates()
	merged := m.merged
	if merged != nil && !smaller(m.mergedSize, m.mergedWeight, t.size(), t.weight()) {
		merged = nil
	}
	m.merged = nil
	m.startSchedule()
	for tried := 0; tried < total || merged != nil; {
		if m.stats.Rounds >= opt.MaxRounds {
			return nil, nil
		}
		budget, bytes := opt.MaxBatch, opt.MaxBatchBytes
		if merged != nil {
			budget-- // the merged candidate's slot
			bytes -= m.mergedSize
		}
		batch := m.compose(budget, bytes, merged == nil)
		if len(batch) == 0 && merged == nil {
			break
		}
		tried += len(batch)

		vals := t.materialize(batch)
		if merged != nil {
			vals = append(vals, merged)
		}
		began := time.Now()
		res, err := m.call(ctx, vals)
		if err != nil {
			return nil, err
		}
		perCand := time.Since(began).Seconds() / float64(len(vals))
		var failing []*cand
		var pick any
		pickPass := -1
		pickSize, pickWeight := t.size(), t.weight()
		var hits, tries [lists]float64
		for i := range batch {
			c := &batch[i]
			tries[c.list]++
			if res[i] {
				hits[c.list]++
				failing = append(failing, c)
				if smaller(c.size, c.weight, pickSize, pickWeight) {
					pick, pickPass, pickSize, pickWeight = vals[i], int(c.list), c.size, c.weight
				}
			}
		}
		for l := range lists {
			m.hits[l] = m.hits[l]/2 + hits[l]
			m.tries[l] = m.tries[l]/2 + tries[l]
			m.stats.Passes[l].Tried += int(tries[l])
			m.stats.Passes[l].Hits += int(hits[l])
			m.stats.Passes[l].Seconds += perCand * tries[l]
		}
		if merged != nil {
			m.stats.Passes[passMerge].Tried++
			m.stats.Passes[passMerge].Seconds += perCand
			if res[len(batch)] {
				m.stats.Passes[passMerge].Hits++
				if smaller(m.mergedSize, m.mergedWeight, pickSize, pickWeight) {
					pick, pickPass, pickSize = merged, passMerge, m.mergedSize
					m.stats.Merged++
				}
			}
		}
		merged = nil
		if pick != nil {
			m.stats.Passes[pickPass].Shrinks++
			m.pass = m.stats.Passes[pickPass].Name
			m.stats.Passes[pickPass].Removed += t.size() - pickSize
			m.rot, m.rotLevel = m.sched.rot, m.sched.rotLevel // the next round goes on from here
			slices.SortFunc(failing, compareCands)
			if mv := t.merge(failing); mv != nil {
				m.scratch.build(mv, false)
				m.merged, m.mergedSize, m.mergedWeight = mv, m.scratch.size(), m.scratch.weight()
			}
			return pick, nil
		}
	}
	m.stats.Minimal = true
	return nil, nil
}

// schedule is the order in which one round takes each list's candidates:
// alternately from the top (the coarsest, biggest steps of the current
// value) and from a position carried over from the previous round, so
// that steps deep in a list (say, simplifying the characters of a
// thousand-character string, behind thousands of cuts that all lose the
// divergence) are reached again without retrying everything before them
// every round. Every candidate is still tried once before a round gives up.
type schedule struct {
	taken    [lists][]bool
	left     [lists]int // candidates not taken yet
	top, rot [lists]int // next positions from the top and from the carried one
	fromTop  [lists]bool
	rotLevel [lists]uint8 // level of the last candidate taken from the carried position
}

func (m *minimizer) startSchedule() {
	s := &m.sched
	for l := range lists {
		n := len(m.tree.lists[l])
		s.taken[l] = slices.Grow(s.taken[l][:0], n)[:n]
		clear(s.taken[l])
		s.left[l], s.top[l], s.fromTop[l] = n, 0, true
		s.rot[l], s.rotLevel[l] = m.rot[l], m.rotLevel[l]
		if l == listRange || l == listEdit {
			// Sorted by level: go on at the start of the level the last
			// round was in (the steps it took there are gone or moved).
			s.rot[l], _ = slices.BinarySearchFunc(m.tree.lists[l], s.rotLevel[l], func(c cand, lv uint8) int {
				return cmp.Compare(c.level, lv)
			})
		}
		if s.rot[l] >= n {
			s.rot[l] = 0
		}
	}
}

// next returns the index of list l's next candidate, or -1.
func (s *schedule) next(l list, cs []cand) int {
	if s.left[l] == 0 {
		return -1
	}
	taken := s.taken[l]
	s.fromTop[l] = !s.fromTop[l]
	var i int
	if s.fromTop[l] {
		for s.taken[l][s.top[l]] {
			s.top[l]++
		}
		i = s.top[l]
	} else {
		for taken[s.rot[l]] {
			s.rot[l] = (s.rot[l] + 1) % len(taken)
		}
		i = s.rot[l]
		s.rotLevel[l] = cs[i].level
	}
	taken[i] = true
	s.left[l]--
	return i
}

// untake gives back list l's candidate i, taken by next but not used: the
// next call of next on l returns it again, whichever end it takes from.
func (s *schedule) untake(l list, i int) {
	s.taken[l][i] = false
	s.left[l]++
	if s.fromTop[l] {
		s.top[l] = min(s.top[l], i)
	} else {
		s.rot[l] = i
	}
	s.fromTop[l] = !s.fromTop[l]
}

// ready reports whether list l has candidates to give now. The last
// list's steps wait until every other list is taken: an atom does worse
// than a simple value wherever that keeps the divergence, a fresh key
// gains a byte or two; so they only matter once nothing else shrinks the
// value, and taken earlier they would crowd out the steps that do.
func (s *schedule) ready(l list) bool {
	if s.left[l] == 0 {
		return false
	}
	if l == listLast {
		for o := range lists {
			if o != listLast && s.left[o] > 0 {
				return false
			}
		}
	}
	return true
}

// compose takes the next batch of at most budget candidates, and at most
// bytes of candidates' text, from the lists; the first candidate is taken
// whatever its size when first is set (nothing else is in the call).
// Each list's share follows its recent success rate (smoothed, and
// halved every batch), with a floor, so that a kind of step that keeps
// losing the divergence (hoisting out of a value whose depth is the point)
// yields its slots to kinds that work, without being starved. A candidate
// that would pass the bytes is left for the next call (it goes back to
// its list untaken), and the batch ends there.
func (m *minimizer) compose(budget, bytes int, first bool) []cand {
	t, s := &m.tree, &m.sched
	var rate [lists]float64
	sum := 0.0
	for l := range lists {
		if s.ready(l) {
			rate[l] = (m.hits[l] + 1) / (m.tries[l] + 2)
			sum += rate[l]
		}
	}
	batch := make([]cand, 0, min(budget, 64))
	full := false
	take := func(l list, n int) {
		for ; n > 0 && len(batch) < budget && !full; n-- {
			i := s.next(l, t.lists[l])
			if i < 0 {
				return
			}
			c := t.lists[l][i]
			if c.size > bytes && (len(batch) > 0 || !first) {
				s.untake(l, i)
				full = true
				return
			}
			bytes -= c.size
			batch = append(batch, c)
		}
	}
	for l := range lists {
		if rate[l] > 0 {
			take(l, max(budget/32, 1, int(float64(budget)*rate[l]/sum)))
		}
	}
	for more := true; more && len(batch) < budget && !full; {
		more = false
		for l := range lists {
			if s.ready(l) {
				take(l, 1)
				more = true
			}
		}
	}
	return batch
}

// smaller orders values by measure: text size, then weight.
func smaller(size, weight, thanSize, thanWeight int) bool {
	return size < thanSize || (size == thanSize && weight < thanWeight)
}

// call runs one round: one call of fails.
func (m *minimizer) call(ctx context.Context, vals []any) ([]bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.stats.Rounds++
	m.stats.Candidates += len(vals)
	res, err := m.fails(ctx, vals)
	if err == nil && len(res) != len(vals) {
		err = fmt.Errorf("minimize: fails returned %d results for %d candidates", len(res), len(vals))
	}
	m.opt.progress(Progress{Rounds: m.stats.Rounds, Size: m.stats.EndSize, Pass: m.pass})
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	return res, err
}
