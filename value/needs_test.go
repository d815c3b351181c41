package value_test

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

// TestNeeds: each reason of the protocol's table, where the spec's values
// can hold it (keys, elements, members, deep inside), and its edges.
func TestNeeds(t *testing.T) {
	const lone = "\xed\xa0\x80" // U+D800 in WTF-8
	many := make(value.Object, 20)
	for i := range many {
		many[i] = value.Member{Key: strings.Repeat("k", i+1), Value: int64(i)}
	}
	manyDup := append(append(value.Object(nil), many...), value.Member{Key: "kkk", Value: nil})
	tests := []struct {
		name string
		v    any
		want value.Reasons
	}{
		{"scalars", []any{nil, true, int64(1), 1.5, math.Copysign(0, -1), "é😀"}, 0},
		{"2^53-1", int64(1<<53 - 1), 0},
		{"-(2^53-1)", int64(-(1<<53 - 1)), 0},
		{"2^53", int64(1 << 53), value.NeedsBigInt},
		{"-2^53", int64(-1 << 53), value.NeedsBigInt},
		{"max int64", int64(math.MaxInt64), value.NeedsBigInt},
		{"uint64 past int64", uint64(math.MaxUint64), value.NeedsBigInt},
		{"small int", int32(7), 0},
		{"big.Int in range", big.NewInt(12), 0},
		{"big.Int past 2^64", bigInt("123456789012345678901234567890"), value.NeedsBigInt},
		{"nil big.Int", (*big.Int)(nil), value.NeedsUnsupported},
		{"NaN", math.NaN(), value.NeedsNonFinite},
		{"+Inf", math.Inf(1), value.NeedsNonFinite},
		{"-Inf in an array", []any{int64(1), math.Inf(-1)}, value.NeedsNonFinite},
		{"float32 NaN", float32(math.NaN()), value.NeedsNonFinite},
		{"largest double", math.MaxFloat64, 0},
		{"lone surrogate value", lone, value.NeedsLoneSurrogate},
		{"lone surrogate key", value.Object{{Key: "a" + lone, Value: nil}}, value.NeedsLoneSurrogate},
		{"astral is a pair, not lone", "\xf0\x9f\x98\x80", 0},
		{"not even WTF-8", "a\xff", value.NeedsUnsupported},
		{"lone surrogate then garbage", lone + "\xff", value.NeedsLoneSurrogate | value.NeedsUnsupported},
		{"duplicate adjacent", value.Object{{Key: "a", Value: int64(1)}, {Key: "a", Value: int64(2)}}, value.NeedsDuplicateKey},
		{"duplicate far", manyDup, value.NeedsDuplicateKey},
		{"distinct 20 keys", many, 0},
		{"duplicate nested", value.Object{{Key: "args", Value: []any{value.Object{{Key: "x"}, {Key: "x"}}}}}, value.NeedsDuplicateKey},
		{"same key in two objects", []any{value.Object{{Key: "x"}}, value.Object{{Key: "x"}}}, 0},
		{"non-string key", value.RawObject{{Key: int64(1), Value: "a"}}, value.NeedsNonStringKey},
		{"NaN key", value.RawObject{{Key: math.NaN(), Value: nil}}, value.NeedsNonStringKey | value.NeedsNonFinite},
		{"raw object, string keys repeated", value.RawObject{{Key: "a"}, {Key: true}, {Key: "a"}}, value.NeedsNonStringKey | value.NeedsDuplicateKey},
		{"bin", []byte{1, 2}, value.NeedsUnsupported},
		{"unknown Go type", struct{}{}, value.NeedsUnsupported},
		{"map", map[string]any{"a": []string{lone}}, value.NeedsLoneSurrogate},
		{"all at once", value.Object{{Key: "a", Value: []any{math.NaN(), int64(1 << 60), []byte{}}}, {Key: "a", Value: lone}},
			value.NeedsDuplicateKey | value.NeedsLoneSurrogate | value.NeedsBigInt | value.NeedsNonFinite | value.NeedsUnsupported},
		{"deep", nest(600, int64(1<<53)), value.NeedsBigInt},
	}
	for _, tt := range tests {
		if got := value.Needs(tt.v); got != tt.want {
			t.Errorf("%s: Needs = %v, want %v", tt.name, got, tt.want)
		}
		for r := value.Reasons(1); r <= value.AllReasons; r <<= 1 {
			if got := value.NeedsAny(tt.v, r); got != (tt.want&r != 0) {
				t.Errorf("%s: NeedsAny(%v) = %v, want %v", tt.name, r, got, !got)
			}
		}
		if value.NeedsAny(tt.v, 0) {
			t.Errorf("%s: NeedsAny of no reason is true", tt.name)
		}
	}
}

// nest is v inside n nested arrays.
func nest(n int, v any) any {
	for range n {
		v = []any{v}
	}
	return v
}

// The reasons' names are the protocol's, and an unknown name is set aside.
func TestParseReasons(t *testing.T) {
	r, unknown := value.ParseReasons([]string{"big_int", "duplicate_key", "teleport", "unsupported_value"})
	if r != value.NeedsBigInt|value.NeedsDuplicateKey|value.NeedsUnsupported || len(unknown) != 1 || unknown[0] != "teleport" {
		t.Errorf("ParseReasons = %v, %v", r, unknown)
	}
	all, unknown := value.ParseReasons(strings.Split(value.AllReasons.String(), ","))
	if all != value.AllReasons || unknown != nil {
		t.Errorf("round trip of %v: %v, %v", value.AllReasons, all, unknown)
	}
	if s := value.Reasons(0).String(); s != "none" {
		t.Errorf("no reasons print as %q", s)
	}
}
