package wire

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync/atomic"

	"github.com/vmihailenco/msgpack/v5"
)

// Encoder builds frames. The slice a method returns is owned by the Encoder
// and valid until its next call; an Encoder is not safe for concurrent use.
type Encoder struct {
	buf bytes.Buffer
	enc *msgpack.Encoder
}

// NewEncoder returns an Encoder with an empty buffer.
func NewEncoder() *Encoder {
	e := &Encoder{}
	e.enc = msgpack.NewEncoder(&e.buf)
	return e
}

// begin starts a frame: a placeholder length, then a map of n fields, the
// first being "type".
func (e *Encoder) begin(typ string, n int) {
	if e.buf.Cap() > keepBuffer {
		e.buf = bytes.Buffer{} // see keepBuffer
	}
	e.buf.Reset()
	e.buf.Write([]byte{0, 0, 0, 0})
	_ = e.enc.EncodeMapLen(n)
	_ = e.enc.EncodeString("type")
	_ = e.enc.EncodeString(typ)
}

// end patches the length prefix and checks the cap.
func (e *Encoder) end() ([]byte, error) { return e.endWith(0) }

// endWith is end for a frame of which more bytes follow the buffer.
func (e *Encoder) endWith(more int) ([]byte, error) {
	b := e.buf.Bytes()
	n := len(b) - 4 + more
	if n > MaxFrame {
		return nil, fmt.Errorf("%w: %d bytes", ErrFrameSize, n)
	}
	binary.BigEndian.PutUint32(b, uint32(n))
	return b, nil
}

func (e *Encoder) field(name string) { _ = e.enc.EncodeString(name) }

func (e *Encoder) cases(cases []any) error {
	e.field("cases")
	_ = e.enc.EncodeArrayLen(len(cases))
	for i, c := range cases {
		if err := encodeValue(e.enc, c, 1, false); err != nil {
			return fmt.Errorf("case %d: %w", i, err)
		}
	}
	return nil
}

// Batch encodes a batch request.
func (e *Encoder) Batch(id uint64, cases []any) ([]byte, error) {
	e.begin(TypeBatch, 3)
	e.field("id")
	_ = e.enc.EncodeUint(id)
	if err := e.cases(cases); err != nil {
		return nil, err
	}
	return e.end()
}

// BatchRaw encodes a batch request whose cases are already msgpack values,
// copied byte for byte: it carries what the value model cannot express (a
// non-string key, a bin value, an unknown ext type). Each element of cases
// must be exactly one msgpack value; BatchRaw does not check them.
func (e *Encoder) BatchRaw(id uint64, cases [][]byte) ([]byte, error) {
	e.begin(TypeBatch, 3)
	e.field("id")
	_ = e.enc.EncodeUint(id)
	e.field("cases")
	_ = e.enc.EncodeArrayLen(len(cases))
	for _, c := range cases {
		if _, err := e.enc.Writer().Write(c); err != nil {
			return nil, err
		}
	}
	return e.end()
}

// lastCasesSize is the length of the last EncodeCases output.
var lastCasesSize atomic.Int64

// EncodeCases encodes cases as one msgpack array, so that a batch going to
// several workers is encoded once (see BatchHead).
//
// validUTF8, if not nil, holds for each case whether all of its strings and
// keys are known to be valid UTF-8, as the generator knows of its cases
// (gen.Classes.ValidUTF8): those go out as str without checking each one,
// about a seventh of the cost of encoding a batch (BenchmarkEncodeCases). A
// false promise sends a worker invalid UTF-8 as str, which breaks the
// protocol.
func EncodeCases(cases []any, validUTF8 []bool) ([]byte, error) {
	// Sized from the last batch (batches are alike in size on average), so
	// that the buffer is not grown, zeroed and copied a dozen times over.
	ce := NewCaseEncoder(make([]byte, 0, lastCasesSize.Load()*9/8), len(cases))
	for i, c := range cases {
		ce.Add(c, validUTF8 != nil && validUTF8[i])
	}
	b, err := ce.Bytes()
	lastCasesSize.Store(int64(len(b)))
	return b, err
}

// CaseEncoder is EncodeCases a case at a time, for a caller that encodes
// each case as it makes it: its values are then still in the processor's
// caches, where a batch of 2,048 generated cases (some 6 MB of values)
// encoded afterwards is read back from memory (docs/performance.md). Its
// first error sticks, as bufio.Writer's does.
type CaseEncoder struct {
	buf   *bytes.Buffer
	enc   *msgpack.Encoder
	added int
	want  int
	err   error
}

// NewCaseEncoder starts an array of n cases appended to dst. A caller that
// hands each batch the storage of an earlier one spares it a buffer of a
// megabyte or more zeroed and grown (docs/performance.md).
func NewCaseEncoder(dst []byte, n int) *CaseEncoder {
	ce := &CaseEncoder{buf: bytes.NewBuffer(dst), want: n}
	ce.enc = msgpack.NewEncoder(ce.buf)
	ce.err = ce.enc.EncodeArrayLen(n)
	return ce
}

// Add encodes the next case; validUTF8 is its entry of EncodeCases'
// validUTF8. It returns the encoder's error, which Bytes returns too.
func (ce *CaseEncoder) Add(c any, validUTF8 bool) error {
	if ce.err != nil {
		return ce.err
	}
	if ce.added == ce.want {
		ce.err = fmt.Errorf("case %d of an array of %d", ce.added, ce.want)
		return ce.err
	}
	if err := encodeValue(ce.enc, c, 1, validUTF8); err != nil {
		ce.err = fmt.Errorf("case %d: %w", ce.added, err)
	}
	ce.added++
	return ce.err
}

// Bytes is the array, once all n cases are added.
func (ce *CaseEncoder) Bytes() ([]byte, error) {
	if ce.err == nil && ce.added < ce.want {
		ce.err = fmt.Errorf("%d cases added to an array of %d", ce.added, ce.want)
	}
	if ce.err != nil {
		return nil, ce.err
	}
	return ce.buf.Bytes(), nil
}

// TextCases builds the cases of a batch for a text worker of version 4: a
// msgpack array of bin, each one case's JSON text, of as many texts as are
// added, to follow a BatchHead as EncodeCases' array does. Unlike a
// CaseEncoder it needs no count up front: a case the driver cannot spell
// is left out, which is known only once it is spelled.
type TextCases struct {
	buf bytes.Buffer
	enc *msgpack.Encoder
	n   int
}

// maxArrayHeader is the longest header of a msgpack array (array 32).
const maxArrayHeader = 5

// NewTextCases starts an array in dst's storage.
func NewTextCases(dst []byte) *TextCases {
	tc := &TextCases{buf: *bytes.NewBuffer(append(dst[:0], make([]byte, maxArrayHeader)...))}
	tc.enc = msgpack.NewEncoder(&tc.buf)
	return tc
}

// Add appends one case's text as a bin.
func (tc *TextCases) Add(text []byte) {
	_ = tc.enc.EncodeBytes(text) // a bytes.Buffer takes every write
	tc.n++
}

// Len is the number of texts added.
func (tc *TextCases) Len() int { return tc.n }

// Bytes is the array of the texts added: its header, written now that
// their number is known, in the room kept before them.
func (tc *TextCases) Bytes() []byte {
	var h bytes.Buffer
	_ = msgpack.NewEncoder(&h).EncodeArrayLen(tc.n)
	b := tc.buf.Bytes()
	start := maxArrayHeader - h.Len()
	copy(b[start:], h.Bytes())
	return b[start:]
}

// BatchHead is the start of a batch request's frame around cases from
// EncodeCases, all but the cases: its length prefix counts them, so the
// frame is the head followed by cases. Written together in one vectored
// write, they spare copying a batch's cases into each worker's frame. With
// digestOnly the request says so, and the worker may leave the canonical
// text out of its results: the fuzzing loop compares digests first, so most
// texts would cross the pipe only to be thrown away.
func (e *Encoder) BatchHead(id uint64, cases []byte, digestOnly bool) ([]byte, error) {
	if digestOnly {
		e.begin(TypeBatch, 4)
		e.field("digest_only")
		_ = e.enc.EncodeBool(true)
	} else {
		e.begin(TypeBatch, 3)
	}
	e.field("id")
	_ = e.enc.EncodeUint(id)
	e.field("cases")
	return e.endWith(len(cases))
}

// Bench encodes a bench request: time rounds passes over cases.
func (e *Encoder) Bench(id uint64, cases []any, rounds int) ([]byte, error) {
	e.begin(TypeBench, 4)
	e.field("id")
	_ = e.enc.EncodeUint(id)
	e.field("rounds")
	_ = e.enc.EncodeInt(int64(rounds))
	if err := e.cases(cases); err != nil {
		return nil, err
	}
	return e.end()
}

// Hello encodes a worker's hello.
// The model fields are left out when empty, as a version 1 worker would.
func (e *Encoder) Hello(h Hello) ([]byte, error) {
	n := 5
	if h.Model != "" {
		n += 2
	}
	e.begin(TypeHello, n)
	e.field("protocol")
	_ = e.enc.EncodeInt(int64(h.Protocol))
	for _, kv := range [][2]string{{"language", h.Language}, {"name", h.Name}, {"version", h.Version}} {
		e.field(kv[0])
		_ = e.enc.EncodeString(kv[1])
	}
	if h.Model != "" {
		e.field("model")
		_ = e.enc.EncodeString(h.Model)
		e.field("inexpressible")
		_ = e.enc.EncodeArrayLen(len(h.Inexpressible))
		for _, r := range h.Inexpressible {
			_ = e.enc.EncodeString(r)
		}
	}
	return e.end()
}

// Results encodes a worker's results response.
func (e *Encoder) Results(id uint64, results []Result) ([]byte, error) {
	return e.TimedResults(id, results, 0)
}

// TimedResults is Results with the batch's batch_cpu_ns: the CPU time the
// worker spent on it, from having the request's bytes to having its
// results; 0 leaves the field out.
func (e *Encoder) TimedResults(id uint64, results []Result, cpuNS uint64) ([]byte, error) {
	if cpuNS == 0 {
		e.begin(TypeResults, 3)
	} else {
		e.begin(TypeResults, 4)
		e.field("batch_cpu_ns")
		_ = e.enc.EncodeUint(cpuNS)
	}
	e.field("id")
	_ = e.enc.EncodeUint(id)
	e.field("results")
	_ = e.enc.EncodeArrayLen(len(results))
	for _, r := range results {
		if r.Inexpressible != "" {
			_ = e.enc.EncodeMapLen(2)
			e.field("inexpressible")
			_ = e.enc.EncodeString(r.Inexpressible)
			e.field("message")
			_ = e.enc.EncodeString(r.Message)
			continue
		}
		if r.Error != "" {
			e.errorResult(r)
			continue
		}
		if r.Canonical == nil { // a digest_only answer
			_ = e.enc.EncodeMapLen(1)
		} else {
			_ = e.enc.EncodeMapLen(2)
			e.field("canonical")
			_ = e.enc.EncodeBytes(r.Canonical)
		}
		e.field("digest")
		_ = e.enc.EncodeBytes(r.Digest)
	}
	return e.end()
}

// errorResult writes an error result, with its error_type and frames
// (version 4) when it has them, at most MaxFrames of these. A reader of an
// older version ignores both, as it does every key it does not know.
func (e *Encoder) errorResult(r Result) {
	frames := r.Frames[:min(len(r.Frames), MaxFrames)]
	n := 2
	if r.ErrorType != "" {
		n++
	}
	if len(frames) > 0 {
		n++
	}
	_ = e.enc.EncodeMapLen(n)
	e.field("error")
	_ = e.enc.EncodeString(r.Error)
	e.field("message")
	_ = e.enc.EncodeString(r.Message)
	if r.ErrorType != "" {
		e.field("error_type")
		_ = e.enc.EncodeString(r.ErrorType)
	}
	if len(frames) == 0 {
		return
	}
	e.field("frames")
	_ = e.enc.EncodeArrayLen(len(frames))
	for _, f := range frames {
		_ = e.enc.EncodeMapLen(3)
		e.field("file")
		_ = e.enc.EncodeString(f.File)
		e.field("function")
		_ = e.enc.EncodeString(f.Function)
		e.field("line")
		_ = e.enc.EncodeInt(int64(f.Line))
	}
}

// BenchResult encodes a worker's answer to a bench request.
func (e *Encoder) BenchResult(id uint64, t BenchTimes) ([]byte, error) {
	e.begin(TypeBench, 7)
	for _, kv := range []struct {
		k string
		v uint64
	}{{"id", id}, {"elapsed_ns", t.ElapsedNS}, {"count", t.Count}, {"cpu_ns", t.CPUNS},
		{"decode_elapsed_ns", t.DecodeElapsedNS}, {"decode_cpu_ns", t.DecodeCPUNS}} {
		e.field(kv.k)
		_ = e.enc.EncodeUint(kv.v)
	}
	return e.end()
}

// Error encodes a worker's error response to a request it could not read.
func (e *Encoder) Error(id uint64, text string) ([]byte, error) {
	e.begin(TypeError, 3)
	e.field("id")
	_ = e.enc.EncodeUint(id)
	e.field("message")
	_ = e.enc.EncodeString(text)
	return e.end()
}

// Raw frames arbitrary bytes as a body; fault tests use it to send garbage.
func Raw(body []byte) []byte {
	out := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(out, uint32(len(body)))
	copy(out[4:], body)
	return out
}
