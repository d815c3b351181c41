package gen

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/value"
)

// Under RFC 8785 an in-domain case is one the contract's reference writes,
// and an out-of-domain one a case it rejects: so the generator's domain is
// the contract's, NaN and the integers no double holds included. The
// reference is the in-process Go implementation of the contract.
func TestRFC8785Domain(t *testing.T) {
	enc, err := canonjson.For(contract.RFC8785)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		ood    float64
		wantOK bool
	}{
		{"never out of domain", -1, true},
		{"always out of domain", 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := New(Config{Seed: 11, OutOfDomain: tc.ood, Contract: contract.RFC8785})
			for i := range uint64(4000) {
				v, classes := g.Case(i)
				_, err := enc.Canonical(v)
				if (err == nil) != tc.wantOK {
					t.Fatalf("case %d (%s): reference error %v, want ok=%v: %.300s", i, classes, err, tc.wantOK, value.AppendText(nil, v))
				}
				if tc.wantOK && classes.OutOfDomain() {
					t.Fatalf("case %d: out-of-domain classes %s in a generator never out of domain", i, classes)
				}
			}
		})
	}
}

// Under RFC 8785 the top level is any value: no envelope, and every kind
// of value at the top; the envelope's classes never come up.
func TestRFC8785TopLevel(t *testing.T) {
	g := New(Config{Seed: 3, Contract: contract.RFC8785})
	kinds := map[string]int{}
	for i := range uint64(sample) {
		v, classes := g.Case(i)
		if classes&(ClassArgsFirst|ClassBadEnvelope) != 0 {
			t.Fatalf("case %d has the envelope's classes %s", i, classes)
		}
		if o, ok := v.(value.Object); ok && len(o) == 2 && hasKey(o, "tool_name") && hasKey(o, "args") {
			t.Fatalf("case %d is an envelope: %.200s", i, value.AppendText(nil, v))
		}
		kinds[topKind(v)]++
	}
	if got := ClassesUnder(contract.RFC8785); got != AllClasses&^(ClassArgsFirst|ClassBadEnvelope) {
		t.Errorf("ClassesUnder(rfc8785) = %s", got)
	}
	if got := ClassesUnder(contract.Default); got != AllClasses {
		t.Errorf("ClassesUnder(difffuzz) = %s", got)
	}
	for _, k := range []string{"object", "array", "string", "scalar"} {
		if kinds[k] < sample/100 {
			t.Errorf("%d of %d cases have a top-level %s, want 1%% at least (%v)", kinds[k], sample, k, kinds)
		}
	}
}

func topKind(v any) string {
	switch v.(type) {
	case value.Object, value.RawObject:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	}
	return "scalar"
}

// Under RFC 8785 the generator draws what the RFC makes hard: keys whose
// code-point and UTF-16 orders differ in a good share of cases, and numbers
// at the ES6 formatting boundaries, each boundary of es6Boundaries among
// them and doubles that need 17 digits.
func TestRFC8785Edges(t *testing.T) {
	g := New(Config{Seed: 5, Contract: contract.RFC8785})
	traps, seventeen := 0, 0
	seen := map[float64]bool{}
	for i := range uint64(sample) {
		v, _ := g.Case(i)
		if walkObjects(v, utf16Trap) {
			traps++
		}
		walkFloats(v, func(f float64) {
			seen[math.Abs(f)] = true
			if digits17(f) {
				seventeen++
			}
		})
	}
	if traps < sample/10 {
		t.Errorf("%d of %d cases hold a UTF-16 order trap, want 10%% at least", traps, sample)
	}
	if seventeen < sample/20 {
		t.Errorf("%d doubles of 17 digits in %d cases, want 5%% at least", seventeen, sample)
	}
	for _, f := range es6Boundaries {
		if !seen[f] {
			t.Errorf("the ES6 boundary %v never drawn in %d cases", f, sample)
		}
	}
}

// The default contract's generator draws none of RFC 8785's extra edges
// and keeps the envelope: its cases are exactly those of Config without a
// contract (testdata/cases.golden pins them).
func TestDefaultContractIsZeroConfig(t *testing.T) {
	a, b := New(Config{Seed: 9}), New(Config{Seed: 9, Contract: contract.Default})
	for i := range uint64(2000) {
		va, ca := a.Case(i)
		vb, cb := b.Case(i)
		if ca != cb || string(value.AppendText(nil, va)) != string(value.AppendText(nil, vb)) {
			t.Fatalf("case %d differs between the zero contract and contract.Default", i)
		}
	}
}

// A contract of doubles draws the integer edges as integers a double
// holds, and an out-of-domain one that no double holds.
func TestInDomainInt(t *testing.T) {
	s := &state{rules: &rules{doubleInts: true}}
	two := func(e uint) *big.Int { return new(big.Int).Lsh(big.NewInt(1), e) }
	for _, tc := range []struct {
		in, want any
	}{
		{int64(1<<53 + 1), int64(1 << 53)},
		{int64(1<<53 + 3), int64(1<<53 + 4)},
		{int64(-(1<<53 + 1)), int64(-(1 << 53))},
		{int64(math.MaxInt64), two(63)},
		{new(big.Int).Add(two(64), big.NewInt(1)), two(64)},
		{int64(12345), int64(12345)},
	} {
		got := s.inDomainInt(tc.in)
		if string(value.AppendText(nil, got)) != string(value.AppendText(nil, tc.want)) {
			t.Errorf("inDomainInt(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	if got := s.inDomainInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(400), nil)); got.(*big.Int).Cmp(bigOfFloat(math.MaxFloat64)) != 0 {
		t.Errorf("inDomainInt(10^400) = %v, want the largest double", got)
	}
	exact := &state{rules: &rules{}}
	if got := exact.inDomainInt(int64(1<<53 + 1)); got != int64(1<<53+1) {
		t.Errorf("under exact integers inDomainInt changed 2^53+1 to %v", got)
	}
	s.pcg.Seed(1, 2)
	for range 1000 {
		x := s.inexactInt()
		b, ok := x.(*big.Int)
		if !ok {
			b = big.NewInt(x.(int64))
		}
		if _, acc := new(big.Float).SetInt(b).Float64(); acc == big.Exact {
			t.Fatalf("inexactInt drew %v, which a double holds", b)
		}
	}
}

func bigOfFloat(f float64) *big.Int {
	b, _ := big.NewFloat(f).Int(nil)
	return b
}

// utf16Trap reports whether o's keys sort otherwise by code points and by
// UTF-16 units.
func utf16Trap(o value.Object) bool {
	keys := make([]string, len(o))
	for i, m := range o {
		keys[i] = m.Key
	}
	cp := slices.Sorted(slices.Values(keys))
	u := slices.SortedFunc(slices.Values(keys), func(x, y string) int {
		return slices.Compare(utf16.Encode([]rune(x)), utf16.Encode([]rune(y)))
	})
	return !slices.Equal(cp, u)
}

// walkObjects reports whether f holds for some object in v.
func walkObjects(v any, f func(value.Object) bool) bool {
	switch v := v.(type) {
	case value.Object:
		if f(v) {
			return true
		}
		for _, m := range v {
			if walkObjects(m.Value, f) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if walkObjects(e, f) {
				return true
			}
		}
	}
	return false
}

// walkFloats calls f on every float of v.
func walkFloats(v any, f func(float64)) {
	switch v := v.(type) {
	case float64:
		f(v)
	case value.Object:
		for _, m := range v {
			walkFloats(m.Value, f)
		}
	case []any:
		for _, e := range v {
			walkFloats(e, f)
		}
	}
}

// digits17 reports whether f's shortest round-trip digits are 17 long.
func digits17(f float64) bool {
	m, _, _ := strings.Cut(strings.TrimPrefix(strconv.FormatFloat(f, 'e', -1, 64), "-"), "e")
	return len(strings.Replace(m, ".", "", 1)) == 17
}
