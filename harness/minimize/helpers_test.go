package minimize

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/value"
)

// walk calls fn on every value and every key (as a string) of v.
func walk(v any, fn func(v any) bool) bool {
	if fn(v) {
		return true
	}
	switch c := v.(type) {
	case []any:
		for _, e := range c {
			if walk(e, fn) {
				return true
			}
		}
	case canonjson.Object:
		for _, m := range c {
			if fn(m.Key) || walk(m.Value, fn) {
				return true
			}
		}
	}
	return false
}

// objects calls fn on every object of v except the root.
func objects(v any, fn func(o canonjson.Object) bool) bool {
	root := true
	return walk(v, func(x any) bool {
		o, ok := x.(canonjson.Object)
		if !ok {
			return false
		}
		if root {
			root = false
			return false
		}
		return fn(o)
	})
}

// The fake divergences the tests minimize.
var (
	hasBigFloat = func(v any) bool {
		return walk(v, func(x any) bool { f, ok := x.(float64); return ok && f >= 1e21 })
	}
	hasLoneSurrogate = func(v any) bool {
		return walk(v, func(x any) bool { s, ok := x.(string); return ok && value.HasLoneSurrogate(s) })
	}
	// hasUnsortedKeys: an object below the root lists a key after a greater one.
	hasUnsortedKeys = func(v any) bool {
		return objects(v, func(o canonjson.Object) bool {
			for i := 1; i < len(o); i++ {
				if o[i].Key < o[i-1].Key {
					return true
				}
			}
			return false
		})
	}
	// hasUTF16OrderTrap: an object below the root has two keys that UTF-16
	// and code-point order sort differently (the key-order edge class).
	hasUTF16OrderTrap = func(v any) bool {
		return objects(v, func(o canonjson.Object) bool {
			for i := range o {
				for j := range o {
					if o[i].Key < o[j].Key && utf16Less(o[j].Key, o[i].Key) {
						return true
					}
				}
			}
			return false
		})
	}
	hasLongString = func(v any) bool {
		return walk(v, func(x any) bool { s, ok := x.(string); return ok && utf8.RuneCountInString(s) >= 1000 })
	}
	hasThree = func(v any) bool {
		return walk(v, func(x any) bool { i, ok := x.(int64); return ok && i == 3 })
	}
)

func utf16Less(a, b string) bool {
	ua, ub := utf16Units(a), utf16Units(b)
	return slices.Compare(ua, ub) < 0
}

func utf16Units(s string) []uint16 {
	var u []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			u = append(u, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
		} else {
			u = append(u, uint16(r))
		}
	}
	return u
}

// predicate turns a fake divergence into a fails function that also
// checks the minimizer's promises about every candidate batch.
func predicate(t *testing.T, p func(any) bool, env bool, maxBatch int) Fails {
	return func(ctx context.Context, cands []any) ([]bool, error) {
		if len(cands) > maxBatch {
			t.Fatalf("batch of %d candidates, MaxBatch %d", len(cands), maxBatch)
		}
		out := make([]bool, len(cands))
		for i, c := range cands {
			if env && !isEnvelope(c) {
				t.Fatalf("candidate lost the envelope: %s", value.AppendText(nil, c))
			}
			out[i] = p(c)
		}
		return out, nil
	}
}

// genCase returns the first generated case whose text is 4.5 to 6 KB and
// that satisfies p, so the tests shrink realistic 5 KB values.
func genCase(t testing.TB, cfg gen.Config, p func(any) bool) any {
	g := gen.New(cfg)
	for i := range uint64(200_000) {
		v, c := g.Case(i)
		if c&(gen.ClassBadEnvelope|gen.ClassTooDeep|gen.ClassNearLimit) != 0 {
			continue
		}
		if n := len(value.AppendText(nil, v)); n >= 4500 && n <= 6000 && p(v) {
			return v
		}
	}
	t.Fatal("no generated case fits")
	return nil
}

func canonical(t *testing.T, v any) string {
	b, err := canonjson.Canonical(v)
	if err != nil {
		return string(value.AppendText(nil, v)) // out of domain: show it as it is
	}
	return string(b)
}

// deepEnvelope nests f at the bottom of depth alternating arrays and
// objects inside args.
func deepEnvelope(depth int, f float64) any {
	var v any = f
	for i := range depth {
		if i%2 == 0 {
			v = []any{"pad", v, int64(i)}
		} else {
			v = canonjson.Object{{Key: "k", Value: v}, {Key: "z", Value: true}}
		}
	}
	return canonjson.Object{{Key: "tool_name", Value: "deep_tool"}, {Key: "args", Value: canonjson.Object{{Key: "x", Value: v}}}}
}

func wideArray(n int) []any {
	a := make([]any, n)
	for i := range a {
		a[i] = int64(i)
	}
	return a
}

// codeOf is the Go implementation's error code for v, "" if it has none.
func codeOf(v any) canonjson.Code {
	_, err := canonjson.Canonical(v)
	var ce *canonjson.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}

// dupAfterBad reports whether args has a member whose value is out of the
// domain before a repeat of an earlier key.
func dupAfterBad(v any) bool {
	args := argsOf(v)
	seen := map[string]bool{}
	bad := false
	for _, m := range args {
		if seen[m.Key] && bad {
			return true
		}
		seen[m.Key] = true
		if _, err := canonjson.CanonicalValue(m.Value); err != nil {
			bad = true
		}
	}
	return false
}

// dupDistance is how many members apart args' first repeated key is from
// its first occurrence, 0 if none repeats.
func dupDistance(v any) int {
	first := map[string]int{}
	for i, m := range argsOf(v) {
		if j, ok := first[m.Key]; ok {
			return i - j
		}
		first[m.Key] = i
	}
	return 0
}

func argsOf(v any) canonjson.Object {
	o, _ := v.(canonjson.Object)
	for _, m := range o {
		if a, ok := m.Value.(canonjson.Object); ok && m.Key == "args" {
			return a
		}
	}
	return nil
}

func bigOf(digits string) *big.Int {
	b, _ := new(big.Int).SetString(digits, 10)
	return b
}

// utf16Differs reports whether sorting o's keys by UTF-16 code units gives
// another order than by code points.
func utf16Differs(o canonjson.Object) bool {
	keys := make([]string, len(o))
	for i, m := range o {
		keys[i] = m.Key
	}
	byCP := slices.Sorted(slices.Values(keys))
	slices.SortFunc(keys, func(a, b string) int {
		return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
	})
	return !slices.Equal(byCP, keys)
}
