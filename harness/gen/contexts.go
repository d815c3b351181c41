package gen

import (
	"fmt"
	"math/bits"
	"strings"
)

// Context is one place an edge class can sit in a case: one value of one
// of the context axes (size, position, depth, role, pair distance, chunk
// edge, company). A (class × context) pair is a cell; Coverage counts the
// cases that hit each cell, so that a run can say which conjunctions it
// never drew. Names are stable, like the class names.
type Context uint8

// The contexts, axis by axis. An occurrence of a class is the value, key
// or character that carries it; for a container class (empty, wide) it is
// the container, for the depth classes the deepest container, for the key
// classes (proto-key, key-order, duplicate-key) the key.
const (
	// Size: the members or elements of the container holding the
	// occurrence (for a key, its object).
	CtxSize1        Context = iota // 1
	CtxSizeFew                     // 2..7
	CtxSizeMid                     // 8..16
	CtxSizeHundred                 // 17..999 (probes draw around 100)
	CtxSizeThousand                // 1,000 or more
	// Position of the occurrence in its container (a lone member is first
	// and last).
	CtxFirst
	CtxMiddle
	CtxLast
	// Depth: the nesting level of the holding container (the envelope is
	// level 1, args level 2). For the depth classes, the case's depth.
	CtxTop    // level 1..2; for a depth class never
	CtxNested // 3..31
	CtxDeep   // 32..510; for near-limit 500..510, for too-deep 514 and up
	CtxLimit  // 511 and up: the occurrence sits at spec depth 511..513; for near-limit depth 511..512, too-deep 513
	// Role: in a key or in a value.
	CtxKey
	CtxValue
	// Pair distance (duplicate-key, key-order): the two keys that make the
	// problem are neighbours, or at least 8 members apart.
	CtxAdjacent
	CtxFar
	// CtxChunkEdge: a string of at least 1,023 code points whose
	// interesting character (for long-string: whose end) sits within two
	// code points of 1,024, 4,096, 16,384 or 65,536, where buffers and
	// chunks commonly switch.
	CtxChunkEdge
	// Company: the case carries no other class, or at least one other.
	CtxAlone
	CtxCombined

	contextEnd
)

// NumContexts is the number of contexts.
const NumContexts = int(contextEnd)

var contextNames = [...]string{
	"size-1", "size-2..7", "size-8..16", "size-17..999", "size-1000+",
	"first", "middle", "last",
	"depth-top", "depth-nested", "depth-deep", "depth-limit",
	"key", "value",
	"pair-adjacent", "pair-far",
	"chunk-edge",
	"alone", "combined",
}

// String returns the context's stable short name.
func (c Context) String() string {
	if int(c) < len(contextNames) {
		return contextNames[c]
	}
	return fmt.Sprintf("context%d", c)
}

// ContextList returns every context in the stable order reports print.
func ContextList() []Context {
	out := make([]Context, NumContexts)
	for i := range out {
		out[i] = Context(i)
	}
	return out
}

// Contexts is a bit set of contexts, bit i for Context(i).
type Contexts uint32

// Has reports whether cs holds c.
func (cs Contexts) Has(c Context) bool { return cs&(1<<c) != 0 }

// String names the contexts joined by "+", "none" for the empty set.
func (cs Contexts) String() string {
	if cs == 0 {
		return "none"
	}
	var names []string
	for rest := cs; rest != 0; rest &= rest - 1 {
		names = append(names, Context(bits.TrailingZeros32(uint32(rest))).String())
	}
	return strings.Join(names, "+")
}

const (
	ctxSizes   = 1<<CtxSize1 | 1<<CtxSizeFew | 1<<CtxSizeMid | 1<<CtxSizeHundred | 1<<CtxSizeThousand
	ctxPos     = 1<<CtxFirst | 1<<CtxMiddle | 1<<CtxLast
	ctxDepths  = 1<<CtxTop | 1<<CtxNested | 1<<CtxDeep | 1<<CtxLimit
	ctxCompany = 1<<CtxAlone | 1<<CtxCombined
	ctxPair    = 1<<CtxAdjacent | 1<<CtxFar

	// ctxScalar: what a number can hit.
	ctxScalar = ctxSizes | ctxPos | ctxDepths | 1<<CtxValue | ctxCompany
	// ctxString: what a string class can hit (keys and chunk edges too).
	ctxString = ctxScalar | 1<<CtxKey | 1<<CtxChunkEdge
	// ctxPairKey: duplicate-key and key-order need two members.
	ctxPairKey = ctxSizes&^(1<<CtxSize1) | ctxPos | ctxDepths | 1<<CtxKey | ctxPair | ctxCompany
	// ctxDepthClass: the depth classes vary in the size of the container
	// holding the deepest one, and in whether the depth is right at 512/513.
	ctxDepthClass = ctxSizes | 1<<CtxDeep | 1<<CtxLimit | ctxCompany
)

// applicable[i] is the set of contexts class 1<<i can hit: the cells of
// Coverage. The rest cannot exist (an integer is never a key, a depth
// class never near the top, key-order always brings astral).
var applicable = func() (a [numClasses]Contexts) {
	for c, set := range map[Classes]Contexts{
		ClassSpecialFloat: ctxScalar, ClassFloatFormat: ctxScalar, ClassFloatBits: ctxScalar,
		ClassInt53: ctxScalar, ClassInt64: ctxScalar, ClassBigInt: ctxScalar,
		ClassEscape: ctxString, ClassBMP: ctxString, ClassAstral: ctxString,
		ClassKeyOrder:      ctxPairKey &^ (1 << CtxAlone), // its keys are astral and BMP
		ClassProtoKey:      ctxSizes | ctxPos | ctxDepths | 1<<CtxKey | ctxCompany,
		ClassEmpty:         ctxScalar,
		ClassDeep:          ctxDepthClass &^ (1 << CtxLimit), // 32..499
		ClassNearLimit:     ctxDepthClass,
		ClassWide:          ctxScalar,
		ClassLongString:    ctxString,
		ClassArgsFirst:     ctxCompany,
		ClassLoneSurrogate: ctxString,
		ClassDuplicateKey:  ctxPairKey,
		ClassTooDeep:       ctxDepthClass,
		ClassBadEnvelope:   ctxCompany,
		ClassNonStringKey:  ctxSizes | ctxPos | ctxDepths | 1<<CtxKey | ctxCompany,
		ClassUnsupported:   ctxScalar,
	} {
		a[bits.TrailingZeros64(uint64(c))] = set
	}
	return a
}()

const numClasses = len(classNames)

// Applicable returns the contexts class c (a single class) can hit.
func Applicable(c Classes) Contexts {
	if c == 0 || c&(c-1) != 0 || c >= classEnd {
		return 0
	}
	return applicable[bits.TrailingZeros64(uint64(c))]
}

// Cell is one (class × context) pair.
type Cell struct {
	Class   Classes // a single class
	Context Context
}

// String returns "class/context", for example "escape/size-1000+".
func (c Cell) String() string { return c.Class.String() + "/" + c.Context.String() }

// AllCells returns every applicable cell, classes in List order and
// contexts in ContextList order within a class: the rows of a coverage
// table.
func AllCells() []Cell {
	var out []Cell
	for _, cl := range List() {
		a := Applicable(cl)
		for _, cx := range ContextList() {
			if a.Has(cx) {
				out = append(out, Cell{cl, cx})
			}
		}
	}
	return out
}

// Cells is what one case hit: for each class (index i for class 1<<i)
// the contexts it was seen in. Only applicable contexts are ever set.
type Cells [numClasses]Contexts

// Of returns the contexts class c (a single class) was seen in.
func (cs *Cells) Of(c Classes) Contexts {
	if c == 0 || c >= classEnd {
		return 0
	}
	return cs[bits.TrailingZeros64(uint64(c))]
}

// Has reports whether the case hit cell.
func (cs *Cells) Has(cell Cell) bool { return cs.Of(cell.Class).Has(cell.Context) }

// Coverage counts, per cell, the cases that hit it. The zero value is
// ready to use; it is not safe for concurrent use (give each goroutine
// its own and Merge them).
type Coverage struct {
	// Cases is the number of cases added.
	Cases  uint64
	counts [numClasses][NumContexts]uint64
}

// Add counts one case's cells.
func (cv *Coverage) Add(cs *Cells) {
	cv.Cases++
	for i, set := range cs {
		for rest := set; rest != 0; rest &= rest - 1 {
			cv.counts[i][bits.TrailingZeros32(uint32(rest))]++
		}
	}
}

// Merge adds o's counts to cv.
func (cv *Coverage) Merge(o *Coverage) {
	cv.Cases += o.Cases
	for i := range cv.counts {
		for j := range cv.counts[i] {
			cv.counts[i][j] += o.counts[i][j]
		}
	}
}

// Count returns how many cases hit cell.
func (cv *Coverage) Count(cell Cell) uint64 {
	if cell.Class == 0 || cell.Class >= classEnd || int(cell.Context) >= NumContexts {
		return 0
	}
	return cv.counts[bits.TrailingZeros64(uint64(cell.Class))][cell.Context]
}

// Unhit returns the applicable cells no case hit, in AllCells order.
func (cv *Coverage) Unhit() []Cell {
	var out []Cell
	for _, c := range AllCells() {
		if cv.Count(c) == 0 {
			out = append(out, c)
		}
	}
	return out
}
