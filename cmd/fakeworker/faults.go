package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/big"
	"os"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/adapters/go/worker"
	"github.com/difffuzz/difffuzz/harness/jsontext"
	"github.com/difffuzz/difffuzz/internal/testworker"
	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
	"lukechampine.com/blake3"
)

// implementation is the Go implementation with the mode's spec bug or its
// misbehaviour on a marked case.
func implementation(mode, mark string) kit.Func[[]byte] {
	var serving sync.Once
	return func(dst []byte, v any) ([]byte, error) {
		serving.Do(func() { say("serving") })
		if mark != "" && bytes.Contains(value.AppendText(nil, v), []byte(mark)) {
			misbehave(mode)
		}
		switch mode {
		case "chatty", "v2-chatty":
			chat(v)
		case "differ":
			return append(dst, 'x'), nil
		case "unique-errors":
			return nil, fmt.Errorf("no handler for %s", word(value.AppendText(nil, v)))
		case "keyorder", "number":
			if _, err := canonjson.Canonical(v); err != nil {
				return nil, err // rejections stay right: only the text is wrong
			}
			return wrong(dst, mode, v), nil
		}
		return worker.Func(dst, v)
	}
}

// word names text in lower-case letters: a name no failure normalization
// takes for a number, an address or a quotation.
func word(text []byte) string {
	h := fnv.New64a()
	h.Write(text)
	n := h.Sum64()
	var b []byte
	for range 10 {
		b = append(b, 'a'+byte(n%26))
		n /= 26
	}
	return string(b)
}

// chat prints what an SDK's debug logging would, on stdout and stderr.
func chat(v any) {
	fmt.Printf("debug: canonicalizing %.40s\n", value.AppendText(nil, v))
	fmt.Fprintln(os.Stderr, "debug: canonicalized")
}

func misbehave(mode string) {
	switch mode {
	case "crash":
		fmt.Println("fakeworker: a line on stdout before crashing")
		fmt.Fprintln(os.Stderr, "fakeworker: crashing on the marked case")
		os.Exit(3)
	case "abort":
		fmt.Fprintln(os.Stderr, "fakeworker: aborting on the marked case")
		abort()
		time.Sleep(time.Second)
	case "hang":
		fmt.Fprintln(os.Stderr, "fakeworker: hanging on the marked case")
		say("hanging")
		time.Sleep(time.Hour)
	}
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

// nativeFunc is the Go implementation over the native model: json.Number
// integers are turned back into the integers canonjson takes.
func nativeFunc(dst []byte, v any) ([]byte, error) {
	return canonjson.AppendCanonical(dst, fromNative(v))
}

func fromNative(v any) any {
	switch v := v.(type) {
	case json.Number:
		n, _ := new(big.Int).SetString(string(v), 10)
		if n.IsInt64() {
			return n.Int64()
		}
		return n
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = fromNative(x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = fromNative(x)
		}
		return out
	}
	return v
}

// overclaim is a native model that lies: it calls every object
// inexpressible, though map[string]any holds most of them.
type overclaim struct{ kit.Model[any] }

func (o overclaim) Convert(v any) (any, error) {
	if _, ok := v.(canonjson.Object); ok {
		return nil, &kit.Inexpressible{Reason: wire.ReasonDuplicateKey, Msg: "every object, falsely"}
	}
	return o.Model.Convert(v)
}

// textFunc reads the text model's case with the spec's reader, which keeps
// everything the text spells, then canonicalizes it.
func textFunc(dst, text []byte) ([]byte, error) {
	x, err := value.Parse(text)
	if err != nil {
		return nil, err
	}
	return canonjson.AppendCanonical(dst, x)
}

// textclaim is a text model that lies: it calls an object (a text that
// starts with "{") inexpressible for a repeated key, which JSON text
// spells.
type textclaim struct{ kit.Model[[]byte] }

func (o textclaim) Reasons() []string {
	return append(o.Model.Reasons(), wire.ReasonDuplicateKey)
}

func (o textclaim) Convert(v any) ([]byte, error) {
	if text, ok := v.([]byte); ok && bytes.HasPrefix(bytes.TrimLeft(text, " \t\r\n"), []byte("{")) {
		return nil, &kit.Inexpressible{Reason: wire.ReasonDuplicateKey, Msg: "every object, falsely"}
	}
	return o.Model.Convert(v)
}

// selfSpelled is the text model of a worker of protocol 3, which got
// values from the driver and spelled them itself (here with the driver's
// own speller, as the kits of version 3 followed its rules).
type selfSpelled struct{}

func (selfSpelled) Name() string      { return wire.ModelText }
func (selfSpelled) Reasons() []string { return jsontext.Reasons }

func (selfSpelled) Convert(v any) ([]byte, error) {
	text, err := jsontext.Append(nil, v)
	var u *jsontext.Unspellable
	if errors.As(err, &u) {
		return nil, &kit.Inexpressible{Reason: u.Reason, Msg: u.Msg}
	}
	return text, nil
}

// tampers are the modes whose faults are in the frames, not in the
// implementation: only they put a tamper between the kit and stdout.
var tampers = map[string]bool{"bad-hello": true, "v1": true, "garbage": true, "oversized": true,
	"truncated": true, "wrong-id": true, "wrong-count": true, "lie-digest": true}

// tamper sits between the kit and stdout and breaks the frames the kit
// writes, as the mode says: the transport faults no implementation can make.
type tamper struct {
	w    io.Writer
	mode string
	pend []byte
	enc  *wire.Encoder
	dec  *wire.Decoder
}

// Write reassembles whole frames from the kit's writes and passes each on,
// tampered with.
func (t *tamper) Write(p []byte) (int, error) {
	t.pend = append(t.pend, p...)
	for len(t.pend) >= 4 {
		n := int(binary.BigEndian.Uint32(t.pend))
		if len(t.pend) < 4+n {
			break
		}
		body := t.pend[4 : 4+n]
		if _, err := t.w.Write(t.frame(body)); err != nil {
			return 0, err
		}
		t.pend = t.pend[4+n:]
	}
	return len(p), nil
}

// frame is the frame to write in place of body's.
func (t *tamper) frame(body []byte) []byte {
	if t.enc == nil {
		t.enc, t.dec = wire.NewEncoder(), wire.NewDecoder()
	}
	var m wire.Message
	if err := t.dec.Decode(body, &m); err != nil || (m.Type != wire.TypeResults && m.Type != wire.TypeHello) {
		return wire.Raw(body)
	}
	if m.Type == wire.TypeHello {
		switch t.mode {
		case "bad-hello":
			m.Hello.Protocol = 99
		case "v1":
			m.Hello.Protocol, m.Hello.Model, m.Hello.Inexpressible = 1, "", nil
		}
		f, _ := t.enc.Hello(m.Hello)
		return f
	}
	return t.results(m)
}

func (t *tamper) results(m wire.Message) []byte {
	switch t.mode {
	case "garbage":
		return wire.Raw([]byte("\xc1 this is not msgpack"))
	case "oversized":
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], math.MaxUint32)
		return b[:]
	case "truncated":
		f, _ := t.enc.Results(m.ID, m.Results)
		t.w.Write(f[:len(f)/2])
		os.Exit(0)
	case "wrong-id":
		m.ID++
	case "wrong-count":
		if len(m.Results) > 0 {
			m.Results = m.Results[1:]
		}
	case "lie-digest":
		for i := range m.Results {
			if m.Results[i].Digest != nil {
				m.Results[i].Digest = make([]byte, wire.DigestSize)
			}
		}
	case "v1": // a version 1 worker does not say what a batch cost
		m.BatchCPUNS = 0
	}
	f, _ := t.enc.TimedResults(m.ID, m.Results, m.BatchCPUNS)
	return f
}

// diverging is the Go implementation with one systematic bug on the share
// of cases that chosen picks: a space after the canonical text.
func diverging(share float64) kit.Func[[]byte] {
	return func(dst []byte, v any) ([]byte, error) {
		out, err := worker.Func(dst, v)
		if err != nil || len(out) == len(dst) || !spoilable(out[len(dst)]) || !chosen(v, share) {
			return out, err
		}
		return append(out, ' '), nil
	}
}

// spoilable reports whether a canonical text starting with first still
// classifies as a structure difference with a space after it: an object, an
// array or a string, not a number or a literal, whose last character a
// space would extend.
func spoilable(first byte) bool { return first == '{' || first == '[' || first == '"' }

// chosen reports whether case v is among the share of cases that diverge:
// its extended JSON text's FNV-1a hash, as a fraction of 2^64, is below
// share. It depends on v alone, so a case is chosen in every batch, run and
// retry.
func chosen(v any, share float64) bool {
	h := fnv.New64a()
	h.Write(value.AppendText(nil, v))
	return float64(h.Sum64()>>11)/(1<<53) < share
}

// signer is an SDK that signs its text from fn: with BLAKE3 of the text
// (signed), or of the text with each escaped surrogate pair written as its
// character in UTF-8 (sign-astral), the bug of an SDK that signs what its
// writer made before the escaping step. Only a text with a character past
// U+FFFF gets a wrong digest; the text itself stays right.
func signer(mode string, fn kit.Func[[]byte]) kit.Func[kit.Signed] {
	return func(dst []byte, v any) (kit.Signed, error) {
		text, err := fn(dst, v)
		if err != nil {
			return kit.Signed{}, err
		}
		signed := text
		if mode == "sign-astral" {
			signed = surrogatePair.ReplaceAllFunc(text, unescapePair)
		}
		sum := blake3.Sum256(signed)
		return kit.Signed{Canonical: text, Digest: sum[:]}, nil
	}
}

// surrogatePair is a character past U+FFFF as the canonical text escapes
// it. (It may match after an escaped backslash too: that only makes the
// digest wrong on more texts.)
var surrogatePair = regexp.MustCompile(`\\ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}`)

// unescapePair is the UTF-8 character of a surrogatePair match.
func unescapePair(esc []byte) []byte {
	hi, _ := strconv.ParseUint(string(esc[2:6]), 16, 16)
	lo, _ := strconv.ParseUint(string(esc[8:12]), 16, 16)
	return utf8.AppendRune(nil, utf16.DecodeRune(rune(hi), rune(lo)))
}

// say appends "PID WHAT" to the file testworker.SaysEnv names, if any:
// where the worker is, for a test to wait on. One short write with
// O_APPEND, so that the lines of workers saying things at once never mix.
func say(what string) {
	path := os.Getenv(testworker.SaysEnv)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakeworker: %v\n", err)
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%d %s\n", os.Getpid(), what)
}
