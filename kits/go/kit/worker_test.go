package kit_test

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// The example of docs/your-sdk.md is a real worker: started as a process,
// it says hello in the native model, answers a case with encoding/json's
// text (its naive "\u003c" included) and a repeated key as inexpressible.
func TestExampleWorker(t *testing.T) {
	next, stdin := startExample(t, "github.com/difffuzz/difffuzz/kits/go/example", false)
	if h := next().Hello; h.Model != wire.ModelNative || h.Name != "encoding-json" {
		t.Errorf("hello %+v", h)
	}
	env := kit.Object{{Key: "tool_name", Value: "<"}, {Key: "args", Value: kit.Object{}}}
	dup := kit.Object{{Key: "a", Value: 1.0}, {Key: "a", Value: 2.0}}
	frame, _ := wire.NewEncoder().Batch(1, []any{env, dup})
	stdin.Write(frame)
	r := next().Results
	if len(r) != 2 || string(r[0].Canonical) != `{"args":{},"tool_name":"\u003c"}` || r[1].Inexpressible != wire.ReasonDuplicateKey {
		t.Errorf("results %+v", r)
	}
	stdin.Close()
}

// The text-model example reads the driver's JSON text with json.Unmarshal,
// unchanged: the last repeated key wins (a finding, not an inexpressible
// answer), and a text it cannot parse is an internal result typed by
// encoding/json's error.
func TestTextExampleWorker(t *testing.T) {
	next, requests := startExample(t, "github.com/difffuzz/difffuzz/kits/go/example/text", true)
	if h := next().Hello; h.Model != wire.ModelText || h.Protocol != wire.FDProtocolVersion || len(h.Inexpressible) != 2 {
		t.Errorf("hello %+v", h)
	}
	frame, _ := wire.NewEncoder().Batch(1, []any{[]byte(` {"a":1,"a"` + "\n" + `:2}`), []byte(`{"a":NaN}`)})
	requests.Write(frame)
	r := next().Results
	if len(r) != 2 || string(r[0].Canonical) != `{"a":2}` {
		t.Fatalf("results %+v", r)
	}
	if r[1].Error != wire.ErrorInternal || r[1].ErrorType != "*json.SyntaxError" || len(r[1].Frames) != 0 {
		t.Errorf("result of NaN %+v", r[1])
	}
	requests.Close()
}

// On stdin and stdout (protocol 2, where a driver sends values) the text
// model refuses every case: it needs the driver to spell them.
func TestTextExampleWorkerOnStdio(t *testing.T) {
	next, stdin := startExample(t, "github.com/difffuzz/difffuzz/kits/go/example/text", false)
	if h := next().Hello; h.Model != wire.ModelText || h.Protocol != wire.ProtocolVersion {
		t.Errorf("hello %+v", h)
	}
	frame, _ := wire.NewEncoder().Batch(1, []any{kit.Object{}, []byte("{}")})
	stdin.Write(frame)
	for i, r := range next().Results {
		if r.Error != wire.ErrorInternal || !strings.Contains(r.Message, "the text model needs a driver of protocol 4") {
			t.Errorf("result %d: %+v", i, r)
		}
	}
	stdin.Close()
}

// startExample starts the worker built from pkg, on the descriptors a
// driver offers (fds) or on stdin and stdout; next reads its next message,
// and requests is where requests go. The worker is waited for when the
// test ends.
func startExample(t *testing.T, pkg string, fds bool) (next func() wire.Message, requests io.WriteCloser) {
	cmd := exec.Command(binary(t, pkg))
	var responses io.Reader
	if fds {
		reqR, reqW, err1 := os.Pipe()
		respR, respW, err2 := os.Pipe()
		if err := errors.Join(err1, err2); err != nil {
			t.Fatal(err)
		}
		cmd.ExtraFiles = []*os.File{reqR, respW}
		cmd.Env = append(os.Environ(), wire.FDsEnv+"="+wire.FDsOffer)
		t.Cleanup(func() { reqR.Close(); respW.Close(); respR.Close() })
		requests, responses = reqW, respR
	} else {
		requests, _ = cmd.StdinPipe()
		responses, _ = cmd.StdoutPipe()
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { requests.Close(); cmd.Wait() })
	frames, dec := wire.NewFrameReader(bufio.NewReader(responses)), wire.NewDecoder()
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
	}, requests
}

// built holds the workers binary has built, by package, for the test
// binary's life.
var built struct {
	sync.Mutex
	dir  string
	bins map[string]string
}

// binary builds the worker of package pkg (once per test binary) with the
// go command that runs the tests, and returns its path.
func binary(t *testing.T, pkg string) string {
	t.Helper()
	built.Lock()
	defer built.Unlock()
	if bin, ok := built.bins[pkg]; ok {
		return bin
	}
	if built.dir == "" {
		dir, err := os.MkdirTemp("", "kit-workers-")
		if err != nil {
			t.Fatal(err)
		}
		built.dir, built.bins = dir, map[string]string{}
	}
	bin := filepath.Join(built.dir, strings.ReplaceAll(pkg, "/", "_"))
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	built.bins[pkg] = bin
	return bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}
