// Canonjson-worker serves the Go canonical JSON package over the adapter
// protocol (docs/adapter-protocol.md), out of process. It exists to show that
// the protocol carries everything the in-process path does: difffuzz can run
// it beside the in-process "go" adapter, and any difference is a protocol bug.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"difffuzz/harness/adapter"
	"difffuzz/harness/wire"
)

func main() {
	os.Exit(serve(os.Stdin, os.Stdout, os.Stderr))
}

// serve is the worker loop; it returns the exit status.
func serve(stdin io.Reader, stdout, stderr io.Writer) int {
	out := bufio.NewWriterSize(stdout, 1<<16)
	enc, dec := wire.NewEncoder(), wire.NewDecoder()
	frames := wire.NewFrameReader(bufio.NewReaderSize(stdin, 1<<16))
	send := func(frame []byte, err error) error {
		if err != nil {
			return err
		}
		if _, err := out.Write(frame); err != nil {
			return err
		}
		return out.Flush()
	}
	hello := wire.Hello{Protocol: wire.ProtocolVersion, Language: "go", Name: "canonjson-go", Version: adapter.GoVersion}
	if err := send(enc.Hello(hello)); err != nil {
		fmt.Fprintf(stderr, "canonjson-worker: %v\n", err)
		return 1
	}
	var msg wire.Message
	var results []wire.Result
	for {
		body, err := frames.Next()
		switch {
		case err == io.EOF:
			return 0
		case errors.Is(err, wire.ErrFrameSize), errors.Is(err, io.ErrUnexpectedEOF):
			// The stream cannot be resynchronised.
			send(enc.Error(0, err.Error()))
			return 2
		case err != nil:
			fmt.Fprintf(stderr, "canonjson-worker: %v\n", err)
			return 1
		}
		if derr := dec.Decode(body, &msg); derr != nil {
			err = send(enc.Error(0, derr.Error()))
		} else {
			results, err = answer(enc, &msg, results, send)
		}
		if err != nil {
			fmt.Fprintf(stderr, "canonjson-worker: %v\n", err)
			return 1
		}
	}
}

// impl is the Go implementation behind the same adapter the driver runs in
// process, so that both paths answer exactly alike.
var impl = adapter.NewGo("")

func answer(enc *wire.Encoder, msg *wire.Message, results []wire.Result, send func([]byte, error) error) ([]wire.Result, error) {
	switch msg.Type {
	case wire.TypeBatch:
		results = slices.Grow(results[:0], len(msg.Cases))[:len(msg.Cases)]
		b := &adapter.Batch{Cases: msg.Cases, DigestOnly: msg.DigestOnly}
		_ = impl.RunBatch(context.Background(), b, results) // never fails: no deadline, panics are results
		return results, send(enc.Results(msg.ID, results))
	case wire.TypeBench:
		start := time.Now()
		for r := 0; r < msg.Rounds; r++ {
			for _, c := range msg.Cases {
				adapter.Compute(c)
			}
		}
		elapsed := time.Since(start)
		return results, send(enc.BenchResult(msg.ID, uint64(elapsed), uint64(msg.Rounds*len(msg.Cases))))
	}
	return results, send(enc.Error(msg.ID, fmt.Sprintf("unknown request type %q", msg.Type)))
}
