package kit_test

import (
	"bufio"
	"io"
	"os/exec"
	"testing"

	"github.com/difffuzz/difffuzz/internal/testworker"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// The example of docs/your-sdk.md is a real worker: started as a process,
// it says hello in the native model, answers a case with encoding/json's
// text (its naive "\u003c" included) and a repeated key as inexpressible.
func TestExampleWorker(t *testing.T) {
	next, stdin := startExample(t, "github.com/difffuzz/difffuzz/kits/go/example")
	if h := next().Hello; h.Model != wire.ModelNative || h.Name != "encoding-json" {
		t.Errorf("hello %+v", h)
	}
	env := value.Object{{Key: "tool_name", Value: "<"}, {Key: "args", Value: value.Object{}}}
	dup := value.Object{{Key: "a", Value: 1.0}, {Key: "a", Value: 2.0}}
	frame, _ := wire.NewEncoder().Batch(1, []any{env, dup})
	stdin.Write(frame)
	r := next().Results
	if len(r) != 2 || string(r[0].Canonical) != `{"args":{},"tool_name":"\u003c"}` || r[1].Inexpressible != wire.ReasonDuplicateKey {
		t.Errorf("results %+v", r)
	}
	stdin.Close()
}

// The text-model example reads the case's JSON text with json.Unmarshal: the
// last repeated key wins (a finding, not an inexpressible answer), and only
// bin data and non-string keys are inexpressible.
func TestTextExampleWorker(t *testing.T) {
	next, stdin := startExample(t, "github.com/difffuzz/difffuzz/kits/go/example/text")
	if h := next().Hello; h.Model != wire.ModelText || len(h.Inexpressible) != 2 {
		t.Errorf("hello %+v", h)
	}
	dup := value.Object{{Key: "a", Value: int64(1)}, {Key: "a", Value: int64(2)}}
	frame, _ := wire.NewEncoder().Batch(1, []any{dup, []any{[]byte{1}}})
	stdin.Write(frame)
	r := next().Results
	if len(r) != 2 || string(r[0].Canonical) != `{"a":2}` || r[1].Inexpressible != wire.ReasonUnsupported {
		t.Errorf("results %+v", r)
	}
	stdin.Close()
}

// startExample starts the worker built from pkg; next reads its next
// message. The worker is waited for when the test ends.
func startExample(t *testing.T, pkg string) (next func() wire.Message, stdin io.WriteCloser) {
	cmd := exec.Command(testworker.Binary(t, pkg))
	stdin, _ = cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	frames, dec := wire.NewFrameReader(bufio.NewReader(stdout)), wire.NewDecoder()
	return func() wire.Message {
		t.Helper()
		body, err := frames.Next()
		if err != nil {
			t.Fatal(err)
		}
		var m wire.Message
		if err := dec.Decode(body, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}, stdin
}
