package minimize

import (
	"slices"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

// TestMerge checks that compatible steps combine and conflicting ones do
// not: the first of two steps on overlapping parts wins.
func TestMerge(t *testing.T) {
	in, err := value.Parse([]byte(`{"tool_name":"t","args":{"a":[1,2,3],"b":"xyz","c":{"d":true}}}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		steps []string // each step's result, to find it among the candidates
		want  string   // nil result: ""
	}{
		{"disjoint steps", []string{
			`{"tool_name":"t","args":{"a":[2,3],"b":"xyz","c":{"d":true}}}`,
			`{"tool_name":"t","args":{"a":[1,2,3],"":"xyz","c":{"d":true}}}`,
			`{"tool_name":"t","args":{"a":[1,2,3],"b":"x","c":{"d":true}}}`,
			`{"tool_name":"t","args":{"a":[1,2,3],"b":"xyz","c":{"d":0}}}`,
		}, `{"tool_name":"t","args":{"a":[2,3],"":"x","c":{"d":0}}}`},
		{"ranges of one container", []string{
			`{"tool_name":"t","args":{"a":[2,3],"b":"xyz","c":{"d":true}}}`,
			`{"tool_name":"t","args":{"a":[1,2],"b":"xyz","c":{"d":true}}}`,
		}, `{"tool_name":"t","args":{"a":[2],"b":"xyz","c":{"d":true}}}`},
		{"ancestor after descendant", []string{
			`{"tool_name":"t","args":{"a":[1,2,3],"b":"xyz","c":{"d":0}}}`,
			`{"tool_name":"t","args":{"a":[1,2,3],"b":"xyz","c":0}}`,
			`{"tool_name":"","args":{"a":[1,2,3],"b":"xyz","c":{"d":true}}}`,
		}, `{"tool_name":"","args":{"a":[1,2,3],"b":"xyz","c":{"d":0}}}`},
		{"descendant after ancestor", []string{
			`{"tool_name":"t","args":{"a":[1,2,3],"b":"xyz","c":0}}`,
			`{"tool_name":"t","args":{"a":[1,2,3],"b":"xyz","c":{"d":0}}}`,
		}, ``},
		{"objects to arrays along a path", []string{
			`{"tool_name":"t","args":{"a":[1,2,3],"b":"xyz","c":[true]}}`,
			`{"tool_name":"t","args":{"a":[1,2,3],"b":"xyz","c":{"":true}}}`,
			`{"tool_name":"t","args":{"a":[1,2,3],"b":"xyz","c":{"d":0}}}`,
		}, `{"tool_name":"t","args":{"a":[1,2,3],"b":"xyz","c":[0]}}`},
		{"step inside a dropped member", []string{
			`{"tool_name":"t","args":{"a":[1,2,3],"b":"xyz","c":{"d":0}}}`,
			`{"tool_name":"t","args":{"a":[1,2,3],"b":"xyz"}}`,
			`{"tool_name":"t","args":{"a":[1,2,3],"":"xyz","c":{"d":true}}}`,
		}, `{"tool_name":"t","args":{"a":[1,2,3],"":"xyz","c":{"d":0}}}`},
	}
	var tr tree
	tr.build(in, true)
	tr.candidates()
	all := slices.Clone(tr.sorted)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cs []*cand
			for _, s := range tt.steps {
				i := slices.IndexFunc(all, func(c cand) bool { return string(value.AppendText(nil, tr.apply(&c))) == s })
				if i < 0 {
					t.Fatalf("no candidate gives %s", s)
				}
				cs = append(cs, &all[i])
			}
			got := ""
			if v := tr.merge(cs); v != nil {
				got = string(value.AppendText(nil, v))
			}
			if got != tt.want {
				t.Errorf("merged %s\nwant   %s", got, tt.want)
			}
		})
	}
}
