package kit_test

import (
	"bufio"
	"os/exec"
	"testing"

	"difffuzz/internal/testworker"
	"difffuzz/kits/go/wire"
	"difffuzz/value"
)

// The example of docs/your-sdk.md is a real worker: started as a process,
// it says hello in the native model, answers a case with encoding/json's
// text (its naive "\u003c" included) and a repeated key as inexpressible.
func TestExampleWorker(t *testing.T) {
	cmd := exec.Command(testworker.Binary(t, "difffuzz/kits/go/example"))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	frames, dec, enc := wire.NewFrameReader(bufio.NewReader(stdout)), wire.NewDecoder(), wire.NewEncoder()
	next := func() wire.Message {
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
	}
	if h := next().Hello; h.Model != wire.ModelNative || h.Name != "encoding-json" {
		t.Errorf("hello %+v", h)
	}
	env := value.Object{{Key: "tool_name", Value: "<"}, {Key: "args", Value: value.Object{}}}
	dup := value.Object{{Key: "a", Value: 1.0}, {Key: "a", Value: 2.0}}
	frame, _ := enc.Batch(1, []any{env, dup})
	stdin.Write(frame)
	r := next().Results
	if len(r) != 2 || string(r[0].Canonical) != `{"args":{},"tool_name":"\u003c"}` || r[1].Inexpressible != wire.ReasonDuplicateKey {
		t.Errorf("results %+v", r)
	}
	stdin.Close()
}
