package conform

import (
	"bufio"
	"context"
	"encoding/binary"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/inprocess"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// workerEnv makes the test binary a worker: see testWorker.
const workerEnv = "CONFORM_TEST_WORKER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(workerEnv); mode != "" {
		os.Exit(testWorker(mode))
	}
	os.Exit(m.Run())
}

// testWorker is a worker that gets the fatal inputs wrong in its mode's
// way, and answers batches correctly:
//
//	lenient   answers a zero frame length with an error frame and goes on
//	nocap     does not check the cap: waits for the body of any length
//	selfkill  dies by SIGKILL on a bad length, exits 1 at the end of input
//	wrongid   gives every error frame the id 9, and exits 2 on a bad length
func testWorker(mode string) int {
	in := bufio.NewReader(os.Stdin)
	enc := wire.NewEncoder()
	send := func(b []byte, _ error) { os.Stdout.Write(b) }
	send(enc.Hello(wire.Hello{Protocol: wire.ProtocolVersion, Language: "go", Name: "conform-test", Version: "0"}))
	for {
		var hdr [4]byte
		if _, err := io.ReadFull(in, hdr[:]); err != nil {
			switch {
			case mode == "selfkill":
				return 1
			case err == io.EOF:
				return 0
			}
			return 2
		}
		n := binary.BigEndian.Uint32(hdr[:])
		if n == 0 || n > wire.MaxFrame {
			switch mode {
			case "selfkill":
				if self, err := os.FindProcess(os.Getpid()); err == nil {
					self.Kill() // SIGKILL
				}
			case "lenient":
				send(enc.Error(0, "bad length"))
				if n == 0 {
					continue
				}
				return 2
			case "wrongid":
				send(enc.Error(9, "bad length"))
				return 2
			}
		}
		body := make([]byte, n) // nocap: waits for a body of any length
		if _, err := io.ReadFull(in, body); err != nil {
			return 2
		}
		send(answer(enc, body, mode))
	}
}

func answer(enc *wire.Encoder, body []byte, mode string) ([]byte, error) {
	var m wire.Message
	if err := wire.NewDecoder().Decode(body, &m); err != nil || m.Type != wire.TypeBatch {
		if mode == "wrongid" {
			return enc.Error(9, "not a batch")
		}
		return enc.Error(0, "not a batch")
	}
	results := make([]wire.Result, len(m.Cases))
	for i, c := range m.Cases {
		results[i] = inprocess.Compute(c)
	}
	return enc.Results(m.ID, results)
}

func TestMalformedInputsAndEOF(t *testing.T) {
	tests := []struct {
		mode, check string
		pass        bool
		want        string // in the note or the reason
	}{
		{"lenient", "malformed/zero-length", true, "error frame, then went on"},
		{"lenient", "malformed/over-cap", true, "exit status 2 after an error frame"},
		{"lenient", "malformed/truncated-body", true, "exit status 2 without an error frame"},
		{"lenient", "eof", true, "exit status 0 after"},
		{"nocap", "malformed/over-cap", false, "after a frame length of 64 MiB + 1: no answer within 1s (hang)"},
		{"selfkill", "malformed/zero-length", false, "worker was killed by signal 9 (killed) without an error frame, want status 2"},
		{"selfkill", "eof", false, "worker exited with status 1 after its input closed, want status 0"},
		{"lenient", "malformed/unknown-type", true, ""},
		{"wrongid", "malformed/zero-length", false, "an error frame with id 9, want 0 (no request was read)"},
		{"wrongid", "malformed/not-msgpack", false, "an error frame with id 9, want 0"},
		{"wrongid", "malformed/unknown-type", false, "an error frame with id 9, want 7 or 0"},
	}
	for _, tt := range tests {
		t.Run(tt.mode+"/"+tt.check, func(t *testing.T) {
			t.Parallel() // each its own worker; two of them wait out a second
			r := newRunner(Config{Worker: adapter.Spec{Command: []string{os.Args[0]}, Env: []string{workerEnv + "=" + tt.mode}, BatchTimeout: time.Second}})
			defer r.close()
			var c check
			for _, x := range r.checks(nil) {
				if x.name == tt.check {
					c = x
				}
			}
			note, err := c.run(context.Background())
			got := note
			if err != nil {
				got = err.Error()
			}
			if (err == nil) != tt.pass || !strings.Contains(got, tt.want) {
				t.Errorf("passed %v with %q, want %v with %q", err == nil, got, tt.pass, tt.want)
			}
		})
	}
}
