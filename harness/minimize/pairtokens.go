package minimize

import (
	"context"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/difffuzz/difffuzz/value"
)

// shrinkTokens renames, in both inputs at once, what they share that the
// structural passes cannot shrink: a word (a run of letters, digits and
// '_' of two characters or more, in a string or a key) becomes one letter
// neither input holds, and an integer of two digits or more becomes 0.
// Twins whose difference is their shape (a key faking members against the
// members) hold the same words on both sides, which only a joint rename
// shortens. Each round tries every rename at once and keeps the first
// that still collides, longest words first.
func (p *pairMin) tokens(ctx context.Context) (bool, error) {
	shrank := false
	for ctx.Err() == nil {
		renames := tokenRenames(p.a, p.b)
		if len(renames) == 0 {
			return shrank, nil
		}
		pairs := make([][2]any, len(renames))
		for i, r := range renames {
			pairs[i] = [2]any{r.apply(p.a), r.apply(p.b)}
		}
		ok, err := p.call(ctx, pairs)
		if err != nil {
			return shrank, err
		}
		i := slices.Index(ok, true)
		if i < 0 {
			return shrank, nil
		}
		p.a, p.b, shrank = pairs[i][0], pairs[i][1], true
	}
	return shrank, ctx.Err()
}

// rename replaces a word in every string and key, or an integer value.
type rename struct {
	word, to string
	num      any // an integer to replace by 0, when word is ""
	gain     int // the bytes it saves at each place
	order    string
}

func (r rename) apply(v any) any {
	switch x := v.(type) {
	case string:
		if r.word != "" {
			return strings.ReplaceAll(x, r.word, r.to)
		}
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = r.apply(e)
		}
		return c
	case value.Object:
		c := make(value.Object, len(x))
		for i, m := range x {
			c[i] = value.Member{Key: m.Key, Value: r.apply(m.Value)}
			if r.word != "" {
				c[i].Key = strings.ReplaceAll(m.Key, r.word, r.to)
			}
		}
		return c
	case int64, *big.Int:
		if r.word == "" && value.Equal(x, r.num) {
			return int64(0)
		}
	}
	return v
}

// tokenRenames lists the renames worth trying on a and b, longest first.
func tokenRenames(a, b any) []rename {
	words, nums := map[string]bool{}, map[string]any{}
	var texts []string
	for _, v := range []any{a, b} {
		walkLeaves(v, func(s string) {
			texts = append(texts, s)
			for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !isWordChar(r) }) {
				if len(w) >= 2 {
					words[w] = true
				}
			}
		}, func(n any) {
			if t := string(value.AppendText(nil, n)); len(strings.TrimPrefix(t, "-")) >= 2 {
				nums[t] = n
			}
		})
	}
	all := strings.Join(texts, "\x00")
	free := "" // a letter neither input holds
	for c := 'a'; c <= 'z' && free == ""; c++ {
		if !strings.ContainsRune(all, c) {
			free = string(c)
		}
	}
	var out []rename
	for w := range words {
		if free != "" {
			out = append(out, rename{word: w, to: free, gain: len(w) - 1, order: w})
		}
	}
	for t, n := range nums {
		out = append(out, rename{num: n, gain: len(t) - 1, order: t})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].gain > out[j].gain || out[i].gain == out[j].gain && out[i].order < out[j].order
	})
	return out
}

// walkLeaves calls str on every string and key of v, num on every integer.
func walkLeaves(v any, str func(string), num func(any)) {
	switch x := v.(type) {
	case string:
		str(x)
	case []any:
		for _, e := range x {
			walkLeaves(e, str, num)
		}
	case value.Object:
		for _, m := range x {
			str(m.Key)
			walkLeaves(m.Value, str, num)
		}
	case int64, *big.Int:
		num(x)
	}
}

func isWordChar(r rune) bool {
	return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
}
