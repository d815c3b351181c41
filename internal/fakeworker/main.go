// Fakeworker is a worker that misbehaves on cue, for the fault tests of the
// driver: it serves the Go implementation over the adapter protocol, but
// crashes, hangs, lies or gets the spec wrong as its argument says.
//
// Usage: fakeworker MODE [MARK]
//
//	ok            a correct worker
//	keyorder      sorts object keys by UTF-16 code unit (the JavaScript trap)
//	number        prints floats of 1e21 and up without an exponent
//	stubborn      a correct worker that ignores SIGINT and does not exit when stdin closes
//	differ        answers every case with the same wrong text, so every case diverges
//	crash MARK    exits with status 3 on a case whose text contains MARK
//	abort MARK    kills itself with SIGABRT on such a case
//	hang MARK     never answers a batch holding such a case
//	garbage       answers every batch with bytes that are not msgpack
//	exit-at-start exits with status 1 before its hello
//	bad-hello     says hello with protocol version 99
//	lie-digest    sends a digest that is not BLAKE3 of its output
//	wrong-id      answers with another id
//	wrong-count   answers with one result too few
//	oversized     answers with a frame length over the cap
//	truncated     answers with half a frame, then exits
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"
	"unicode/utf16"

	canonjson "difffuzz/adapters/go"
	"difffuzz/harness/adapter"
	"difffuzz/harness/wire"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: fakeworker MODE [MARK]")
		os.Exit(2)
	}
	mode, mark := os.Args[1], ""
	if len(os.Args) > 2 {
		mark = os.Args[2]
	}
	os.Exit(serve(mode, mark))
}

func serve(mode, mark string) int {
	out := bufio.NewWriter(os.Stdout)
	enc, dec := wire.NewEncoder(), wire.NewDecoder()
	frames := wire.NewFrameReader(bufio.NewReader(os.Stdin))
	if mode == "stubborn" {
		signal.Ignore(syscall.SIGINT, syscall.SIGTERM)
	}
	if mode == "exit-at-start" {
		fmt.Fprintln(os.Stderr, "fakeworker: refusing to start")
		return 1
	}
	hello := wire.Hello{Protocol: wire.ProtocolVersion, Language: "go", Name: "fakeworker-" + mode, Version: "0.0.1"}
	if mode == "bad-hello" {
		hello.Protocol = 99
	}
	frame, _ := enc.Hello(hello)
	out.Write(frame)
	out.Flush()
	var msg wire.Message
	for {
		body, err := frames.Next()
		if err != nil {
			if mode == "stubborn" {
				time.Sleep(time.Hour)
			}
			return 0
		}
		if err := dec.Decode(body, &msg); err != nil {
			frame, _ = enc.Error(0, err.Error())
		} else {
			frame = respond(enc, mode, mark, &msg)
		}
		if mode == "truncated" {
			out.Write(frame[:len(frame)/2])
			out.Flush()
			return 0
		}
		out.Write(frame)
		out.Flush()
	}
}

func respond(enc *wire.Encoder, mode, mark string, msg *wire.Message) []byte {
	if msg.Type == wire.TypeBench {
		f, _ := enc.BenchResult(msg.ID, 1, uint64(msg.Rounds*len(msg.Cases)))
		return f
	}
	results := make([]wire.Result, 0, len(msg.Cases))
	for _, c := range msg.Cases {
		if mark != "" && bytes.Contains(canonjson.AppendText(nil, c), []byte(mark)) {
			misbehave(mode)
		}
		results = append(results, compute(mode, c))
	}
	if msg.DigestOnly { // as a real worker, leave the texts out
		for i := range results {
			results[i].Canonical = nil
		}
	}
	id := msg.ID
	switch mode {
	case "garbage":
		return wire.Raw([]byte("\xc1 this is not msgpack"))
	case "wrong-id":
		id++
	case "wrong-count":
		if len(results) > 0 {
			results = results[1:]
		}
	case "oversized":
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], math.MaxUint32)
		return b[:]
	}
	f, _ := enc.Results(id, results)
	return f
}

func misbehave(mode string) {
	switch mode {
	case "crash":
		fmt.Fprintln(os.Stderr, "fakeworker: crashing on the marked case")
		os.Exit(3)
	case "abort":
		fmt.Fprintln(os.Stderr, "fakeworker: aborting on the marked case")
		syscall.Kill(os.Getpid(), syscall.SIGABRT)
		time.Sleep(time.Second)
	case "hang":
		fmt.Fprintln(os.Stderr, "fakeworker: hanging on the marked case")
		time.Sleep(time.Hour)
	}
}

func compute(mode string, c any) wire.Result {
	r := adapter.Compute(c)
	if mode == "differ" {
		d := canonjson.Digest([]byte("x"))
		return wire.Result{Canonical: []byte("x"), Digest: d[:]}
	}
	switch {
	case r.Error != "":
		return r
	case mode == "lie-digest":
		r.Digest = make([]byte, wire.DigestSize)
	case mode == "keyorder" || mode == "number":
		b := wrong(nil, mode, c)
		d := canonjson.Digest(b)
		r.Canonical, r.Digest = b, d[:]
	}
	return r
}

// wrong writes canonical text with one deliberate spec bug.
func wrong(b []byte, mode string, v any) []byte {
	switch v := v.(type) {
	case canonjson.Object:
		ms := slices.Clone(v)
		if mode == "keyorder" {
			slices.SortFunc(ms, func(x, y canonjson.Member) int {
				return slices.Compare(utf16.Encode([]rune(x.Key)), utf16.Encode([]rune(y.Key)))
			})
		} else {
			slices.SortFunc(ms, func(x, y canonjson.Member) int { return bytes.Compare([]byte(x.Key), []byte(y.Key)) })
		}
		b = append(b, '{')
		for i, m := range ms {
			if i > 0 {
				b = append(b, ',')
			}
			b, _ = canonjson.AppendCanonicalValue(b, m.Key)
			b = append(b, ':')
			b = wrong(b, mode, m.Value)
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = wrong(b, mode, x)
		}
		return append(b, ']')
	case float64:
		if mode == "number" && math.Abs(v) >= 1e21 && !math.IsInf(v, 0) {
			f, _ := new(big.Float).SetFloat64(v).Int(nil)
			return f.Append(b, 10)
		}
	}
	b, _ = canonjson.AppendCanonicalValue(b, v)
	return b
}
