package conform

import (
	"context"
	"fmt"
	"strings"

	"github.com/difffuzz/difffuzz/value"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// example is one input of the spec's example tables with its answer.
type example struct {
	input string // extended JSON (docs/canonical-json.md §6)
	want  want
}

// specExamples are the worked examples of docs/canonical-json.md §5 and the
// error-precedence examples of §3, with the answers the spec gives.
var specExamples = []example{
	// §5, worked examples.
	{`{"tool_name": "ping", "args": {}}`, wantText(`{"args":{},"tool_name":"ping"}`)},
	{`{"tool_name":"t","args":{"b":1,"a":[true,null,1.0]}}`, wantText(`{"args":{"a":[true,null,1],"b":1},"tool_name":"t"}`)},
	{`{"tool_name":"t","args":{"x":NaN,"y":-Infinity,"z":-0.0}}`, wantText(`{"args":{"x":NaN,"y":-Infinity,"z":0},"tool_name":"t"}`)},
	{`{"tool_name":"t","args":{"f":1e21,"i":1000000000000000000000}}`, wantText(`{"args":{"f":1e+21,"i":1000000000000000000000},"tool_name":"t"}`)},
	{`{"tool_name":"t","args":{"a":1e-7,"b":0.000001,"c":5e-324}}`, wantText(`{"args":{"a":1e-7,"b":0.000001,"c":5e-324},"tool_name":"t"}`)},
	{`{"tool_name":"é","args":{"s":"\u2028\u007f\ud83d\ude00"}}`, wantText(`{"args":{"s":"\u2028\u007f\ud83d\ude00"},"tool_name":"\u00e9"}`)},
	{`{"tool_name":"t","args":{"\uff61":1,"\ud83d\ude00":2}}`, wantText(`{"args":{"\uff61":1,"\ud83d\ude00":2},"tool_name":"t"}`)},
	{`{"tool_name":"t","args":{"__proto__":1,"1":2,"01":3,"":4}}`, wantText(`{"args":{"":4,"01":3,"1":2,"__proto__":1},"tool_name":"t"}`)},
	// §3, which error code wins.
	{`{"tool_name":"t","args":{"a":1,"a":2}}`, wantCode("duplicate_key")},
	{`{"tool_name":"\ud800","args":{}}`, wantCode("lone_surrogate")},
	{`{"tool_name":"t","args":{"a":1,"a":"\udc00"}}`, wantCode("duplicate_key")},
	{`{"args":{"\udc00":1,"\udc00":2},"tool_name":"t"}`, wantCode("lone_surrogate")},
	{`{"tool_name":"t","args":[]}`, wantCode("bad_envelope")},
	{`{"tool_name":1,"args":{}}`, wantCode("bad_envelope")},
	{`{"tool_name":"t","args":{},"x":null}`, wantCode("bad_envelope")},
	{strings.Repeat("[", 513) + strings.Repeat("]", 513), wantCode("too_deep")},
	{`{"tool_name":"t","args":{"a":1,"a":1},"x":0}`, wantCode("duplicate_key")},
}

// specExamples sends every example in one batch and checks every answer.
func (r *runner) specExamples(ctx context.Context) (string, error) {
	cases := make([]any, len(specExamples))
	for i, ex := range specExamples {
		v, err := value.Parse([]byte(ex.input))
		if err != nil {
			panic(fmt.Sprintf("conform: spec example %d does not parse: %v", i+1, err))
		}
		cases[i] = v
	}
	results, err := r.runTyped(ctx, "spec-examples", cases)
	if err != nil {
		return "", err
	}
	var fails failures
	for i, ex := range specExamples {
		if m := r.verdict(results[i], ex.want, cases[i]); m != "" {
			fails.add(r, "spec-examples", "example %d %s: %s", i+1, clip.String(ex.input, 80), m)
		}
	}
	return fmt.Sprintf("%d examples", len(specExamples)), fails.err(len(specExamples), "examples")
}
