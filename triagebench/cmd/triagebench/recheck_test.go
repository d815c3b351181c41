package main

import (
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/harness/compare"

	"github.com/google/go-cmp/cmp"
)

func TestReplayed(t *testing.T) {
	log := strings.Join([]string{
		"$ bin/difffuzz replay -adapters go,sdk out/c",
		"DIVERGES   out/c/a.json  number: a decimal: sdk",
		"  go         {}",
		"DIVERGES   out/c/b.json  number: a decimal: sdk; structure: a member dropped: sdk",
		"DIVERGES   out/c/p.json  string_escape: x: sdk  (its twin)",
		"DIVERGES   out/c/p.json  collision: a `\"` in a key left unescaped: sdk",
		"agrees     out/c/d.json",
		"replay: 1 passed, 3 failed",
	}, "\n")
	got, err := replayed(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"out/c/a.json": {"number: a decimal: sdk"},
		"out/c/b.json": {"number: a decimal: sdk; structure: a member dropped: sdk"},
		"out/c/p.json": {"string_escape: x: sdk", "collision: a `\"` in a key left unescaped: sdk"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replayed (-want +got):\n%s", diff)
	}
}

func TestRecheck(t *testing.T) {
	bs := []Bucket{
		{Signature: compare.MustParseSignature("number: a decimal: sdk"), Label: "number: a decimal"},
		{Signature: compare.MustParseSignature("internal: E on valid input: sdk"), Label: "internal: E on valid input"},
		{Signature: compare.MustParseSignature("collision: a key: sdk"), Label: "collision: a key"},
	}
	kept := map[string][]string{
		"number: a decimal: sdk":          {"a", "b"},
		"internal: E on valid input: sdk": {"c", "d", "e"},
		"collision: a key: sdk":           {"p"},
	}
	replay := map[string][]string{
		"a": {"number: a decimal: sdk"},
		"b": {"number: a decimal: sdk; structure: x: sdk"},
		"c": {"internal: E on valid input: sdk"},
		"d": {"internal: F on valid input: sdk"},
		"p": {"string_escape: x: sdk", "collision: a key: sdk"},
	}
	recheck(bs, kept, replay, "sdk")
	want := [][]string{{"number: a decimal"}, {agrees, "internal: E on valid input", "internal: F on valid input"}, {"collision: a key"}}
	for i, b := range bs {
		if diff := cmp.Diff(want[i], b.Rechecked); diff != "" {
			t.Errorf("%s (-want +got):\n%s", b.Label, diff)
		}
	}
	if bs[0].Mixed() || !bs[1].Mixed() || bs[1].Kept != 3 {
		t.Errorf("mixed %v %v, kept %d; want false, true, 3", bs[0].Mixed(), bs[1].Mixed(), bs[1].Kept)
	}
}

func TestLabelOf(t *testing.T) {
	tests := []struct{ sig, impl, want string }{
		{"number: a decimal: sdk", "sdk", "number: a decimal"},
		{"key_escape: a `:` in a key: sdk", "sdk", "key_escape: a `:` in a key"},
		{"number: a decimal: other", "sdk", "number: a decimal: other"},
	}
	for _, tt := range tests {
		if got := labelOf(compare.MustParseSignature(tt.sig), tt.impl); got != tt.want {
			t.Errorf("labelOf(%q) = %q, want %q", tt.sig, got, tt.want)
		}
	}
}
