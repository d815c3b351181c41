package minimize

import (
	"hash/maphash"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/value"
)

// node is one value of the tree being minimized, indexed so that every
// candidate's size can be computed without building it.
type node struct {
	v         any
	parent    int32 // -1 for the root
	index     int32 // position in the parent container
	first     int32 // id of the first child; children have consecutive ids
	n         int32 // number of children (0 for scalars)
	size      int   // length of v's extended JSON text (value.AppendText)
	weight    int   // v's complexity: the tie-breaker between equal sizes
	keySize   int   // for an object member: its key's text length, quotes included
	keyWeight int
	// rawKey marks a member of a map with a non-string key: its key is kept
	// as it is (only string keys are edited), the member may still go.
	rawKey bool
	start  int // offset of v's text in the whole value's text
	// height is the number of container levels from v down (0 for a
	// scalar); bad marks a value that is out of the domain where it
	// stands, itself or anywhere below (see markBad).
	height int32
	level  int32 // a container's nesting level, the root's 1
	bad    bool
}

// markBad sets n.height and n.bad from n's own value and its children's
// marks (the depth is added top-down in build). A value is bad on its own
// if the spec's walk (value.Check) rejects it: a scalar alone, a container
// with each of its members' values replaced by 0 (its keys, their repeats),
// so that the spec's checks are not written twice.
func (t *tree) markBad(n *node) {
	own, container := ownValue(n.v)
	n.height, n.bad = 0, value.Check(own) != nil
	if !container {
		return
	}
	n.height = 1
	for _, c := range t.nodes[n.first : n.first+n.n] {
		n.height = max(n.height, c.height+1)
		n.bad = n.bad || c.bad
	}
}

// ownValue is v with every member's value replaced by 0 (a container
// without its contents' problems), and whether v is a container.
func ownValue(v any) (any, bool) {
	switch v := v.(type) {
	case []any:
		return []any{}, true
	case value.Object:
		zeros := make(value.Object, len(v))
		for i, m := range v {
			zeros[i] = value.Member{Key: m.Key, Value: int64(0)}
		}
		return zeros, true
	case value.RawObject:
		zeros := make(value.RawObject, len(v))
		for i, m := range v {
			zeros[i] = value.RawMember{Key: m.Key, Value: int64(0)}
		}
		return zeros, true
	}
	return v, false
}

// tree is the breadth-first index of the current value plus the scratch
// space candidate generation reuses from round to round.
type tree struct {
	nodes      []node
	env        bool  // the root is an envelope to be kept
	tool, args int32 // ids of the envelope's members when env

	scratch []byte
	str     strIndex
	cands   []cand
	sorted  []cand        // cands sorted by list, then coarsest and smallest first
	lists   [lists][]cand // sorted, cut by list
	keys    []sortKey
	strata  []cand
	text    []byte           // the whole value's text, for dedupe
	seed    maphash.Seed     // fixed per tree: hashes only group candidates
	hashes  map[uint64]int32 // dedupe: result hash -> index of a kept candidate
	rtext   [2][]byte        // dedupe: replacement texts
	// dedupe: per node, the stamp of the last run that targets it, has a
	// target below it, or targets it twice.
	mark, below, twice []uint32
	stamp              uint32
	pre                []int // prefix sums for ranges
	wpre               []int
	seen               map[uint64]struct{} // chunks emitted this round, see chunks
	seenCall           uint32
	groups             []group          // repeated strings, see groupSteps
	groupOf            map[string]int32 // string -> index in groups
	grp                int32            // the group stringSteps is working on
}

// strIndex is one string decoded to code points, with prefix sums of
// their text lengths and weights.
type strIndex struct {
	cps    []rune
	offs   []int32 // byte offset of each code point, plus len(s)
	escPre []int   // escPre[i] = text length of cps[:i], quotes excluded
	wPre   []int
}

// isEnvelope reports whether v is {"tool_name": string, "args": object}
// with exactly those two members, in either order.
func isEnvelope(v any) bool {
	o, ok := v.(value.Object)
	if !ok || len(o) != 2 {
		return false
	}
	t, a := 0, 1
	if o[0].Key == "args" {
		t, a = 1, 0
	}
	_, toolOK := o[t].Value.(string)
	_, argsOK := o[a].Value.(value.Object)
	return o[t].Key == "tool_name" && o[a].Key == "args" && toolOK && argsOK
}

// build indexes v breadth-first (no recursion, so depth costs nothing but
// memory) and computes sizes and weights bottom-up.
func (t *tree) build(v any, env bool) {
	t.nodes = append(t.nodes[:0], node{v: v, parent: -1})
	for i := 0; i < len(t.nodes); i++ {
		first := int32(len(t.nodes))
		switch c := t.nodes[i].v.(type) {
		case []any:
			for j, e := range c {
				t.nodes = append(t.nodes, node{v: e, parent: int32(i), index: int32(j)})
			}
		case value.Object:
			for j, m := range c {
				ks, kw := stringMeasure(m.Key)
				t.nodes = append(t.nodes, node{v: m.Value, parent: int32(i), index: int32(j), keySize: ks, keyWeight: kw})
			}
		case value.RawObject:
			for j, m := range c {
				ks := len(value.AppendText(nil, m.Key))
				t.nodes = append(t.nodes, node{v: m.Value, parent: int32(i), index: int32(j), keySize: ks, keyWeight: 1, rawKey: true})
			}
		}
		t.nodes[i].first, t.nodes[i].n = first, int32(len(t.nodes))-first
	}
	for i := len(t.nodes) - 1; i >= 0; i-- {
		n := &t.nodes[i]
		switch n.v.(type) {
		case []any, value.Object, value.RawObject:
			n.size, n.weight = 2+max(0, int(n.n)-1), 0
			for _, c := range t.nodes[n.first : n.first+n.n] {
				n.size += c.size + memberExtra(c)
				n.weight += c.weight + c.keyWeight
			}
		default:
			n.size, n.weight = t.scalarMeasure(n.v)
		}
		t.markBad(n)
	}
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.height > 0 {
			// Containers enter at the level below their parent's, the
			// root at 1; a subtree too deep here makes every ancestor
			// too deep as well.
			n.level = 1
			if n.parent >= 0 {
				n.level = t.nodes[n.parent].level + 1
			}
			n.bad = n.bad || n.level+n.height-1 > value.MaxDepth
		}
		pos := n.start + 1
		for j := range n.n {
			c := &t.nodes[n.first+j]
			if j > 0 {
				pos++ // ","
			}
			pos += memberExtra(*c)
			c.start = pos
			pos += c.size
		}
	}
	t.env = env
	if env {
		t.tool, t.args = 1, 2 // the root's members, in order
		if t.nodes[0].v.(value.Object)[0].Key == "args" {
			t.tool, t.args = 2, 1
		}
	}
}

// memberExtra is what a child adds besides its value's text: `"key":`
// for object members (keySize is 0 for array elements).
func memberExtra(c node) int {
	if c.keySize == 0 {
		return 0
	}
	return c.keySize + 1
}

func (t *tree) size() int   { return t.nodes[0].size }
func (t *tree) weight() int { return t.nodes[0].weight }

// scalarMeasure returns a scalar's text length and weight.
func (t *tree) scalarMeasure(v any) (size, weight int) {
	if s, ok := v.(string); ok {
		return stringMeasure(s)
	}
	t.scratch = value.AppendText(t.scratch[:0], v)
	return len(t.scratch), t.numberWeight(v)
}

// The weight orders values of equal size: a candidate is progress only if
// it is smaller, or as small and simpler. Simpler means: strings closer to
// all 'a' and '0', numbers with fewer and smaller digits and a smaller
// decimal exponent, false rather than true. Every step lowers size or
// weight, so minimization always terminates.
func (t *tree) numberWeight(v any) int {
	switch x := v.(type) {
	case bool:
		if x {
			return 1
		}
	case int64:
		t.scratch = strconv.AppendInt(t.scratch[:0], x, 10)
		return digitWeight(t.scratch)
	case *big.Int:
		t.scratch = x.Append(t.scratch[:0], 10)
		return digitWeight(t.scratch)
	case float64:
		switch {
		case math.IsNaN(x):
			return 1
		case math.IsInf(x, 0):
			return 2
		case x == 0:
			if math.Signbit(x) {
				return 1
			}
			return 0
		}
		t.scratch = strconv.AppendFloat(t.scratch[:0], x, 'e', -1, 64)
		w := 0
		for i, c := range t.scratch {
			if c == 'e' {
				e, _ := strconv.Atoi(string(t.scratch[i+1:]))
				return w + abs(e)
			}
			w += digitWeight(t.scratch[i : i+1])
		}
		return w
	}
	return 0
}

// digitWeight is the sum of the digits, plus one for a minus sign.
func digitWeight(b []byte) int {
	w := 0
	for _, c := range b {
		switch {
		case c == '-':
			w++
		case c >= '0' && c <= '9':
			w += int(c - '0')
		}
	}
	return w
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// stringMeasure returns the text length of s as a JSON string (quotes
// included) and its weight.
func stringMeasure(s string) (size, weight int) {
	size = 2
	for i := 0; i < len(s); {
		cp, n := decodeWTF8(s, i)
		size += escLen(cp)
		weight += cpWeight(cp)
		i += n
	}
	return size, weight
}

// decodeWTF8 decodes the code point at s[i], including the 3-byte forms of
// surrogates the value model uses for lone surrogates. A byte that is not
// even WTF-8 decodes as itself with an escape's length.
func decodeWTF8(s string, i int) (rune, int) {
	cp, n := utf8.DecodeRuneInString(s[i:])
	if cp == utf8.RuneError && n == 1 {
		if s[i] == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
			return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), 3
		}
		return 0xFFFD, 1
	}
	return cp, n
}

// escLen is the length of cp in the extended text's strings (spec §4.3).
func escLen(cp rune) int {
	switch {
	case cp == '"' || cp == '\\' || cp == '\b' || cp == '\f' || cp == '\n' || cp == '\r' || cp == '\t':
		return 2
	case cp < 0x20 || cp == 0x7F:
		return 6
	case cp < 0x80:
		return 1
	case cp < 0x10000:
		return 6
	}
	return 12
}

func cpWeight(cp rune) int {
	if cp == 'a' || cp == '0' {
		return 0
	}
	return 1
}

func isHighSurrogate(cp rune) bool { return cp >= 0xD800 && cp <= 0xDBFF }
func isLowSurrogate(cp rune) bool  { return cp >= 0xDC00 && cp <= 0xDFFF }

// index decodes s into t.str.
func (t *tree) index(s string) *strIndex {
	x := &t.str
	x.cps, x.offs, x.escPre, x.wPre = x.cps[:0], x.offs[:0], append(x.escPre[:0], 0), append(x.wPre[:0], 0)
	for i := 0; i < len(s); {
		cp, n := decodeWTF8(s, i)
		x.cps = append(x.cps, cp)
		x.offs = append(x.offs, int32(i))
		x.escPre = append(x.escPre, x.escPre[len(x.escPre)-1]+escLen(cp))
		x.wPre = append(x.wPre, x.wPre[len(x.wPre)-1]+cpWeight(cp))
		i += n
	}
	x.offs = append(x.offs, int32(len(s)))
	return x
}

// allowed reports whether the node id may be replaced by r: with an
// envelope, the envelope itself stays, tool_name stays a string and args
// an object.
func (t *tree) allowed(id int32, r any) bool {
	if !t.env {
		return true
	}
	switch id {
	case 0:
		return false
	case t.tool:
		_, ok := r.(string)
		return ok
	case t.args:
		_, ok := r.(value.Object)
		return ok
	}
	return true
}

// keyOf returns the key of the object member that node id is the value of.
func (t *tree) keyOf(id int32) string {
	n := &t.nodes[id]
	return t.nodes[n.parent].v.(value.Object)[n.index].Key
}

// replaceAt returns the root with node id replaced by nv, copying the
// containers on the path and sharing everything else.
func (t *tree) replaceAt(id int32, nv any) any {
	for {
		n := &t.nodes[id]
		if n.parent < 0 {
			return nv
		}
		switch c := t.nodes[n.parent].v.(type) {
		case []any:
			d := append([]any(nil), c...)
			d[n.index] = nv
			nv = d
		case value.Object:
			d := append(value.Object(nil), c...)
			d[n.index].Value = nv
			nv = d
		case value.RawObject:
			d := append(value.RawObject(nil), c...)
			d[n.index].Value = nv
			nv = d
		}
		id = n.parent
	}
}
