package gen

import (
	"bytes"
	"math"
	"math/big"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/value"
)

// sample is how many cases the statistical tests draw (the brief's N).
const sample = 20_000

func sampleSize(t testing.TB) int {
	if testing.Short() {
		return sample / 4
	}
	return sample
}

func TestCaseIsDeterministic(t *testing.T) {
	cfg := Config{Seed: 42}
	a, b := New(cfg), New(cfg)
	for i := range uint64(500) {
		i := i * 7919 // spread over the index space
		va, ca := a.Case(i)
		vb, cb := b.Case(i)
		vc, cc := a.Case(i) // the pool's reused scratch must not leak state
		if !value.Equal(va, vb) || !value.Equal(va, vc) || ca != cb || ca != cc {
			t.Fatalf("case %d differs between calls:\n%s\n%s", i, text(va), text(vb))
		}
	}
}

func TestCasesDiffer(t *testing.T) {
	tests := []struct {
		name string
		a, b func(i uint64) any
	}{
		{"next index", func(i uint64) any { v, _ := New(Config{Seed: 1}).Case(i); return v },
			func(i uint64) any { v, _ := New(Config{Seed: 1}).Case(i + 1); return v }},
		{"other seed", func(i uint64) any { v, _ := New(Config{Seed: 1}).Case(i); return v },
			func(i uint64) any { v, _ := New(Config{Seed: 2}).Case(i); return v }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			same := 0
			for i := range uint64(1000) {
				if value.Equal(tt.a(i), tt.b(i)) {
					same++
				}
			}
			// A few tiny cases ({"tool_name":"ping","args":{}}) may repeat.
			if same > 10 {
				t.Errorf("%d of 1000 pairs are equal", same)
			}
		})
	}
}

func TestConcurrentUseMatchesSequential(t *testing.T) {
	g := New(Config{Seed: 7})
	const n = 400
	want := make([][]byte, n)
	for i := range want {
		v, _ := g.Case(uint64(i))
		want[i] = text(v)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < n; i += 4 {
				if v, _ := g.Case(uint64(i)); !bytes.Equal(text(v), want[i]) {
					errs <- string(want[i])
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent case differs from sequential: %.200s", e)
	}
}

// TestClassCoverage checks every class comes up often enough to matter:
// in-domain classes in at least 1% of cases, out-of-domain ones in at
// least a sixth of their share of OutOfDomain (there are four of them).
func TestClassCoverage(t *testing.T) {
	g := New(Config{Seed: 3})
	// Not sampleSize: the out-of-domain classes are under 1% each, and a
	// short sample's share of one of them is too noisy for the bound.
	n := 50000
	counts := make(map[Classes]int)
	for i := range n {
		_, c := g.Case(uint64(i))
		for _, x := range List() {
			if c.Has(x) {
				counts[x]++
			}
		}
	}
	for _, x := range List() {
		share := float64(counts[x]) / float64(n)
		min := 0.01
		if x.OutOfDomain() {
			min = DefaultOutOfDomain / 4 / 1.5
		}
		t.Logf("%-15s %6.2f%%", x, 100*share)
		if share < min {
			t.Errorf("class %s in %.2f%% of %d cases, want >= %.2f%%", x, 100*share, n, 100*min)
		}
	}
}

func TestOutOfDomainShare(t *testing.T) {
	tests := []struct {
		cfg  float64
		want float64
	}{
		{0, DefaultOutOfDomain},
		{0.2, 0.2},
		{-1, 0},
		{1, 1},
	}
	n := sampleSize(t)
	for _, tt := range tests {
		g := New(Config{Seed: 11, OutOfDomain: tt.cfg})
		ood := 0
		for i := range n {
			if _, c := g.Case(uint64(i)); c.OutOfDomain() {
				ood++
			}
		}
		got := float64(ood) / float64(n)
		// 5 standard deviations of a binomial share, plus a little slack.
		tol := 5*math.Sqrt(tt.want*(1-tt.want)/float64(n)) + 1e-9
		if got < tt.want-tol || got > tt.want+tol {
			t.Errorf("OutOfDomain=%v: share %.4f, want %.4f +- %.4f", tt.cfg, got, tt.want, tol)
		}
	}
}

// expectedCode is the error a case with exactly one out-of-domain class
// must get.
var expectedCode = map[Classes]value.Code{
	ClassLoneSurrogate: value.CodeLoneSurrogate,
	ClassDuplicateKey:  value.CodeDuplicateKey,
	ClassTooDeep:       value.CodeTooDeep,
	ClassBadEnvelope:   value.CodeBadEnvelope,
}

// TestCasesAgreeWithTheSpec checks the classes' promise against the spec's
// checks (value.CheckSigned): an in-domain case passes them, and its extended
// text round-trips exactly; an out-of-domain case is rejected, with the code
// of its class when it has only one.
func TestCasesAgreeWithTheSpec(t *testing.T) {
	g := New(Config{Seed: 5, OutOfDomain: 0.1})
	n := sampleSize(t)
	for i := range n {
		v, c := g.Case(uint64(i))
		problem := value.CheckSigned(v)
		if !c.OutOfDomain() {
			if problem != nil {
				t.Fatalf("case %d (%s): in-domain case rejected: %v\n%.300s", i, c, problem, text(v))
			}
			back, err := value.Parse(text(v))
			if err != nil || !value.Equal(back, v) {
				t.Fatalf("case %d (%s): extended text does not round-trip (%v)\n%.300s", i, c, err, text(v))
			}
			continue
		}
		if problem == nil {
			t.Fatalf("case %d (%s): out-of-domain case accepted\n%.300s", i, c, text(v))
		}
		if want, single := expectedCode[c&OutOfDomainClasses]; single && problem.Code != want {
			t.Errorf("case %d (%s): code %s, want %s\n%.300s", i, c, problem.Code, want, text(v))
		}
	}
}

// shape is what TestBounds measures of a value.
type shape struct {
	depth, width, strLen int
	wtf8                 bool // a string or key that is not valid UTF-8
}

func measure(v any, level int, sh *shape) {
	str := func(s string) {
		sh.strLen = max(sh.strLen, utf8.RuneCountInString(s))
		sh.wtf8 = sh.wtf8 || !utf8.ValidString(s)
	}
	switch v := v.(type) {
	case string:
		str(v)
	case []any:
		sh.depth, sh.width = max(sh.depth, level), max(sh.width, len(v))
		for _, e := range v {
			measure(e, level+1, sh)
		}
	case value.Object:
		sh.depth, sh.width = max(sh.depth, level), max(sh.width, len(v))
		for _, m := range v {
			str(m.Key)
			measure(m.Value, level+1, sh)
		}
	case value.RawObject:
		sh.depth, sh.width = max(sh.depth, level), max(sh.width, len(v))
		for _, m := range v {
			if k, ok := m.Key.(string); ok {
				str(k)
			}
			measure(m.Value, level+1, sh)
		}
	}
}

// TestValidUTF8 checks the promise the wire encoder relies on: a case whose
// classes say ValidUTF8 holds no string or key that is not valid UTF-8. (The
// converse need not hold: a bad envelope may drop the lone surrogate.)
func TestValidUTF8(t *testing.T) {
	for _, cfg := range []Config{{Seed: 3}, {Seed: 4, OutOfDomain: 0.5}} {
		g := New(cfg)
		for i := range sampleSize(t) {
			v, c := g.Case(uint64(i))
			var sh shape
			measure(v, 1, &sh)
			if sh.wtf8 && c.ValidUTF8() {
				t.Fatalf("seed %d case %d (%s): ValidUTF8, but a string is not UTF-8\n%.300s", cfg.Seed, i, c, text(v))
			}
		}
	}
}

func TestBounds(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"defaults", Config{Seed: 1}},
		{"tiny", Config{Seed: 2, MaxDepth: 3, MaxWidth: 2, MaxStringLen: 4, WideWidth: 4, LongStringLen: 1000}},
		{"large", Config{Seed: 3, MaxDepth: 12, MaxWidth: 20, MaxStringLen: 100, WideWidth: 2000, LongStringLen: 5000}},
	}
	const vocabulary = 16 // the longest fixed word, see Config.MaxStringLen
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New(tt.cfg)
			cfg := g.Config()
			for i := range sampleSize(t) / 4 {
				v, c := g.Case(uint64(i))
				var sh shape
				measure(v, 1, &sh)
				if _, _, twin := twinAt(cfg.Seed, uint64(i)); twin || directedAt(cfg.Seed, uint64(i)) {
					continue // exempt from the bounds, see Config
				}
				maxDepth, maxWidth, maxStr := cfg.MaxDepth, cfg.MaxWidth, max(cfg.MaxStringLen, vocabulary)
				if c&(ClassDeep|ClassNearLimit|ClassTooDeep) != 0 {
					maxDepth = 600
				}
				if c.Has(ClassWide) {
					maxWidth = cfg.WideWidth
				}
				maxWidth += 7 // the injected edge features (see Config.MaxWidth)
				if c.Has(ClassLongString) {
					maxStr = cfg.LongStringLen
				}
				if sh.depth > maxDepth || sh.width > maxWidth || sh.strLen > maxStr {
					t.Fatalf("case %d (%s): depth %d width %d string %d, limits %d %d %d\n%.300s",
						i, c, sh.depth, sh.width, sh.strLen, maxDepth, maxWidth, maxStr, text(v))
				}
				if got := depthClasses(sh.depth); got != c&(ClassDeep|ClassNearLimit|ClassTooDeep) {
					t.Fatalf("case %d: depth %d but classes %s", i, sh.depth, c)
				}
			}
		})
	}
}

// TestSizeMix checks that most cases stay small: the median canonical text
// is a few hundred bytes, while the tail reaches the big classes.
func TestSizeMix(t *testing.T) {
	g := New(Config{Seed: 9, OutOfDomain: -1})
	n := sampleSize(t)
	sizes := make([]int, 0, n)
	var buf []byte
	for i := range n {
		v, _ := g.Case(uint64(i))
		var err error
		buf, err = canonjson.AppendCanonical(buf[:0], v)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(buf))
	}
	sort.Ints(sizes)
	q := func(p float64) int { return sizes[int(p*float64(n-1))] }
	total := 0
	for _, z := range sizes {
		total += z
	}
	t.Logf("canonical bytes: p10 %d, median %d, p90 %d, p99 %d, max %d, mean %d", q(.1), q(.5), q(.9), q(.99), q(1), total/n)
	if m := q(.5); m < 100 || m > 1000 {
		t.Errorf("median canonical size %d, want 100..1000", m)
	}
	if q(.99) < 2000 {
		t.Errorf("p99 %d: the big classes are missing from the tail", q(.99))
	}
}

func TestClassNames(t *testing.T) {
	all := List()
	if len(all) != len(classNames) {
		t.Fatalf("List has %d classes, names %d", len(all), len(classNames))
	}
	seen := map[string]bool{}
	var union Classes
	for _, c := range all {
		s := c.String()
		if seen[s] || strings.ContainsAny(s, "+, ") {
			t.Errorf("class name %q repeated or unparsable", s)
		}
		seen[s] = true
		union |= c
	}
	if union != AllClasses || OutOfDomainClasses&^AllClasses != 0 {
		t.Errorf("AllClasses %b, union of List %b", AllClasses, union)
	}
	tests := []Classes{0, ClassEscape, ClassEscape | ClassTooDeep, AllClasses, OutOfDomainClasses}
	for _, c := range tests {
		got, err := ParseClasses(c.String())
		if err != nil || got != c {
			t.Errorf("ParseClasses(%q) = %v, %v; want %v", c.String(), got, err, c)
		}
	}
	if got, err := ParseClasses("escape, bmp"); err != nil || got != ClassEscape|ClassBMP {
		t.Errorf("comma list: %v %v", got, err)
	}
	if _, err := ParseClasses("escape+nope"); err == nil {
		t.Error("unknown name accepted")
	}
}

// TestIntegersFollowTheValueModel checks int64 is used whenever it fits and
// *big.Int only outside it, as the value model requires.
func TestIntegersFollowTheValueModel(t *testing.T) {
	g := New(Config{Seed: 13})
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case *big.Int:
			if v.IsInt64() {
				t.Fatalf("*big.Int %s fits int64", v)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case value.Object:
			for _, m := range v {
				walk(m.Value)
			}
		case value.RawObject: // the non-string-key class: keys are scalars
			for _, m := range v {
				walk(m.Key)
				walk(m.Value)
			}
		case nil, bool, int64, float64, string, []byte: // []byte: the unsupported class
		default:
			t.Fatalf("value of type %T outside the model", v)
		}
	}
	for i := range uint64(2000) {
		v, _ := g.Case(i)
		walk(v)
	}
}

// TestIntegerEdges checks the integer classes' values are where their
// names say: within 3 of +-2^53, of +-2^63 or +-2^64, or beyond 2^64.
func TestIntegerEdges(t *testing.T) {
	g := New(Config{})
	s := g.pool.Get().(*state)
	s.reset(1, 1)
	toBig := func(v any) *big.Int {
		switch x := v.(type) {
		case int64:
			return big.NewInt(x)
		case *big.Int:
			return x
		}
		t.Fatalf("not an integer: %T", v)
		return nil
	}
	near := func(x *big.Int, bits ...uint) bool {
		abs := new(big.Int).Abs(x)
		for _, b := range bits {
			d := new(big.Int).Sub(abs, new(big.Int).Lsh(big.NewInt(1), b))
			if d.CmpAbs(big.NewInt(3)) <= 0 {
				return true
			}
		}
		return false
	}
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	for range 2000 {
		if x := toBig(s.int64Edge()); !near(x, 63, 64) {
			t.Fatalf("int-2^64 value %s", x)
		}
		if x := toBig(s.bigInt()); new(big.Int).Abs(x).Cmp(two64) <= 0 {
			t.Fatalf("int-big value %s", x)
		}
	}
}

func TestConfigDefaults(t *testing.T) {
	got := New(Config{}).Config()
	want := Config{MaxDepth: DefaultMaxDepth, MaxWidth: DefaultMaxWidth, MaxStringLen: DefaultMaxStringLen,
		OutOfDomain: DefaultOutOfDomain, WideWidth: DefaultWideWidth, LongStringLen: DefaultLongStringLen, Contract: contract.Default}
	if got != want {
		t.Errorf("defaults %+v, want %+v", got, want)
	}
	low := New(Config{MaxDepth: 1, MaxWidth: 1, MaxStringLen: 1, WideWidth: 1, LongStringLen: 1, OutOfDomain: 7}).Config()
	if low.MaxDepth != 3 || low.MaxWidth != 2 || low.MaxStringLen != 4 || low.WideWidth != 4 ||
		low.LongStringLen != 1000 || low.OutOfDomain != 1 {
		t.Errorf("minimums not applied: %+v", low)
	}
}

func text(v any) []byte { return value.AppendText(nil, v) }

// BenchmarkCase measures generation alone (run with -benchmem: the only
// allocations should be the case's own strings, containers and boxed
// numbers).
func BenchmarkCase(b *testing.B) {
	g := New(Config{Seed: 1})
	b.ReportAllocs()
	i := uint64(0)
	for b.Loop() {
		g.Case(i)
		i++
	}
}

// BenchmarkCaseParallel shows that the pool keeps the generator scalable
// across goroutines.
func BenchmarkCaseParallel(b *testing.B) {
	g := New(Config{Seed: 1})
	b.ReportAllocs()
	var mu sync.Mutex
	next := uint64(0)
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		i := next
		next += 1 << 40
		mu.Unlock()
		for pb.Next() {
			g.Case(i)
			i++
		}
	})
}

// A long string is copied in runs out of a pool of characters: it must still
// have exactly the length asked for, in code points, be valid UTF-8 (the
// pool holds no surrogates), and vary along its length.
func TestPooledStringLength(t *testing.T) {
	tests := []struct {
		n      int
		flavor int
	}{
		{1, flavorWord}, {longPool - 1, flavorAstral}, {longPool, flavorBMP}, {longPool + 1, flavorEscape},
		{1000, flavorAll}, {4000, flavorPrintable}, {100_000, flavorAll},
	}
	for _, tt := range tests {
		s := &state{cfg: &Config{}, rules: &rules{}}
		s.reset(1, uint64(tt.n))
		got := s.pooledString(tt.n, tt.flavor)
		if n := utf8.RuneCountInString(got); n != tt.n || !utf8.ValidString(got) {
			t.Errorf("pooledString(%d, %d): %d code points, valid UTF-8 %v", tt.n, tt.flavor, n, utf8.ValidString(got))
		}
		if tt.n >= 4000 && strings.Count(got, got[:16]) > tt.n/64 {
			t.Errorf("pooledString(%d, %d) repeats its first 16 bytes %d times", tt.n, tt.flavor, strings.Count(got, got[:16]))
		}
	}
}
