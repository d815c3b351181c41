// Package kittest answers cases with a worker's function in a team's own
// tests. It runs the loop the driver talks to, kit.Serve over the
// protocol's frames, in memory, as net/http/httptest runs a real server:
// what a test sees is what the driver would see, the model's conversion,
// the kit's hashing, a spec error's code, an internal failure's type, a
// panic, and not a stand-in's idea of them.
package kittest

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Answer is one case's answer, as the driver reads it. Exactly one of
// Canonical, Code and Inexpressible is set.
type Answer struct {
	Canonical []byte // the canonical text
	Digest    []byte // BLAKE3-256 of Canonical, or the SDK's own (kit.Signed)
	// Code is a spec error's code ("duplicate_key"), or "internal" for any
	// other failure of the function, a panic included.
	Code string
	// ErrorType is an internal failure's type ("*strconv.NumError",
	// "panic"): what the driver buckets it by, never Message.
	ErrorType     string
	Inexpressible string // why the model cannot hold the case
	Message       string
}

// Run answers each case with fn behind m, in one batch, as a worker of
// protocol 4 would. A case is a value of the exact model (nil, bool, int64,
// *big.Int, float64, string, []any, kit.Object) for kit.Exact and
// kit.Native, and a JSON text ([]byte or string) for kit.Text. An error
// says the kit could not be asked (a case it cannot encode, a loop that
// ended early), never that a case failed: that is its Answer.
func Run[T any, O kit.Output](m kit.Model[T], fn func(dst []byte, v T) (O, error), cases ...any) ([]Answer, error) {
	request, err := batch(m.Name() == wire.ModelText, cases)
	if err != nil {
		return nil, err
	}
	var out, log bytes.Buffer
	ch := kit.Channel{In: bytes.NewReader(request), Out: &out, Protocol: wire.FDProtocolVersion}
	if status := kit.Serve(ch, &log, kit.Options{Name: "kittest", Version: "0"}, m, fn); status != 0 {
		return nil, fmt.Errorf("kittest: the kit's loop ended with status %d: %s", status, log.String())
	}
	results, err := read(&out)
	if err != nil {
		return nil, err
	}
	if len(results) != len(cases) {
		return nil, fmt.Errorf("kittest: %d results for %d cases", len(results), len(cases))
	}
	answers := make([]Answer, len(results))
	for i, r := range results {
		answers[i] = answerOf(r)
	}
	return answers, nil
}

// batch is the frame of one batch request of cases: values, or texts for a
// text model, as the driver sends each.
func batch(texts bool, cases []any) ([]byte, error) {
	enc := wire.NewEncoder()
	if !texts {
		frame, err := enc.Batch(1, cases)
		if err != nil {
			return nil, fmt.Errorf("kittest: %w", err)
		}
		return bytes.Clone(frame), nil
	}
	tc := wire.NewTextCases(nil)
	for i, c := range cases {
		switch t := c.(type) {
		case []byte:
			tc.Add(t)
		case string:
			tc.Add([]byte(t))
		default:
			return nil, fmt.Errorf("kittest: case %d is a %T; the text model's cases are JSON texts ([]byte or string)", i, c)
		}
	}
	body := tc.Bytes()
	head, err := enc.BatchHead(1, body, false)
	if err != nil {
		return nil, fmt.Errorf("kittest: %w", err)
	}
	return append(bytes.Clone(head), body...), nil
}

// read returns the results of the one batch in out, after the hello.
func read(out io.Reader) ([]wire.Result, error) {
	frames, dec := wire.NewFrameReader(out), wire.NewDecoder()
	var msg wire.Message
	for {
		body, err := frames.Next()
		if errors.Is(err, io.EOF) {
			return nil, errors.New("kittest: the kit answered no batch")
		}
		if err != nil {
			return nil, fmt.Errorf("kittest: reading the kit's answer: %w", err)
		}
		if err := dec.Decode(body, &msg); err != nil {
			return nil, fmt.Errorf("kittest: decoding the kit's answer: %w", err)
		}
		switch msg.Type {
		case wire.TypeResults:
			return msg.Results, nil
		case wire.TypeError:
			return nil, fmt.Errorf("kittest: the kit refused the batch: %s", msg.Text)
		}
	}
}

func answerOf(r wire.Result) Answer {
	return Answer{Canonical: r.Canonical, Digest: r.Digest, Code: r.Error, ErrorType: r.ErrorType,
		Inexpressible: r.Inexpressible, Message: r.Message}
}
