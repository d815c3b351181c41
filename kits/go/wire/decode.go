package wire

import (
	"bytes"
	"fmt"
	"math"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// Decoder decodes frame bodies into Messages, reusing its state between
// frames. It is not safe for concurrent use.
type Decoder struct {
	r  bytes.Reader
	d  *msgpack.Decoder
	vd valueDecoder
}

// NewDecoder returns a Decoder.
func NewDecoder() *Decoder {
	dd := &Decoder{}
	dd.d = msgpack.NewDecoder(&dd.r)
	dd.vd = valueDecoder{d: dd.d, remaining: dd.r.Len}
	return dd
}

// Decode reads one frame body into m, which it resets first. Byte fields of
// m (Result.Canonical, Result.Digest) are fresh copies, not views of body.
func (dd *Decoder) Decode(body []byte, m *Message) error {
	*m = Message{Results: m.Results[:0]}
	dd.r.Reset(body)
	dd.d.Reset(&dd.r)
	n, err := dd.d.DecodeMapLen()
	if err != nil {
		return fmt.Errorf("frame: %w", err)
	}
	if n < 0 {
		return errNotMap
	}
	for i := 0; i < n; i++ {
		key, err := dd.d.DecodeString()
		if err != nil {
			return fmt.Errorf("frame key: %w", err)
		}
		if err := dd.field(key, m); err != nil {
			return fmt.Errorf("field %q: %w", key, err)
		}
	}
	if dd.r.Len() != 0 {
		return fmt.Errorf("frame: %d trailing bytes", dd.r.Len())
	}
	if m.Type == "" {
		return fmt.Errorf("frame: no type")
	}
	return nil
}

func (dd *Decoder) field(key string, m *Message) (err error) {
	d := dd.d
	switch key {
	case "type":
		m.Type, err = d.DecodeString()
	case "id":
		m.ID, err = d.DecodeUint64()
	case "protocol":
		m.Hello.Protocol, err = d.DecodeInt()
	case "language":
		m.Hello.Language, err = d.DecodeString()
	case "name":
		m.Hello.Name, err = d.DecodeString()
	case "version":
		m.Hello.Version, err = d.DecodeString()
	case "rounds":
		m.Rounds, err = d.DecodeInt()
	case "digest_only":
		m.DigestOnly, err = d.DecodeBool()
	case "model":
		m.Hello.Model, err = d.DecodeString()
	case "inexpressible":
		m.Hello.Inexpressible, err = dd.strings()
	case "elapsed_ns":
		m.Bench.ElapsedNS, err = d.DecodeUint64()
	case "cpu_ns":
		m.Bench.CPUNS, err = d.DecodeUint64()
	case "decode_elapsed_ns":
		m.Bench.DecodeElapsedNS, err = d.DecodeUint64()
	case "decode_cpu_ns":
		m.Bench.DecodeCPUNS, err = d.DecodeUint64()
	case "batch_cpu_ns":
		m.BatchCPUNS, err = d.DecodeUint64()
	case "count":
		m.Bench.Count, err = d.DecodeUint64()
	case "message":
		m.Text, err = d.DecodeString()
	case "cases":
		m.Cases, err = dd.cases()
	case "results":
		m.Results, err = dd.results(m.Results)
	default:
		err = d.Skip()
	}
	return err
}

// strings reads an array of strings, such as a hello's reasons.
func (dd *Decoder) strings() ([]string, error) {
	n, err := dd.vd.length(dd.d.DecodeArrayLen())
	if err != nil {
		return nil, err
	}
	out := make([]string, n)
	for i := range out {
		if out[i], err = dd.d.DecodeString(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (dd *Decoder) cases() ([]any, error) {
	n, err := dd.vd.length(dd.d.DecodeArrayLen())
	if err != nil {
		return nil, err
	}
	cases := make([]any, n)
	for i := range cases {
		if cases[i], err = dd.vd.value(1); err != nil {
			return nil, fmt.Errorf("case %d: %w", i, err)
		}
	}
	return cases, nil
}

func (dd *Decoder) results(dst []Result) ([]Result, error) {
	n, err := dd.vd.length(dd.d.DecodeArrayLen())
	if err != nil {
		return nil, err
	}
	// The digests of one message share one allocation: a batch's worth of
	// 32-byte objects would be most of the driver's garbage.
	digests := make([]byte, 0, n*DigestSize)
	for i := 0; i < n; i++ {
		var r Result
		if err := dd.result(&r, &digests); err != nil {
			return nil, fmt.Errorf("result %d: %w", i, err)
		}
		dst = append(dst, r)
	}
	return dst, nil
}

func (dd *Decoder) result(r *Result, digests *[]byte) error {
	n, err := dd.vd.length(dd.d.DecodeMapLen())
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		key, err := dd.d.DecodeString()
		if err != nil {
			return err
		}
		switch key {
		case "canonical":
			r.Canonical, err = dd.bytesOrString()
		case "digest":
			r.Digest, err = dd.digest(digests)
		case "error":
			r.Error, err = dd.d.DecodeString()
		case "inexpressible":
			r.Inexpressible, err = dd.d.DecodeString()
		case "message":
			r.Message, err = dd.d.DecodeString()
		case "error_type":
			r.ErrorType, err = dd.str()
		case "frames":
			r.Frames, err = dd.frames()
		default:
			err = dd.d.Skip()
		}
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
	}
	if r.Inexpressible != "" {
		if r.Error != "" || r.Canonical != nil || r.Digest != nil {
			return fmt.Errorf("an inexpressible result has an outcome too")
		}
		return nil
	}
	if r.Error != "" {
		if r.Canonical != nil {
			return fmt.Errorf("a result has both canonical and error")
		}
		r.Digest = nil
		return nil
	}
	if r.Digest == nil {
		return fmt.Errorf("a result needs a digest or an error")
	}
	if len(r.Digest) != DigestSize {
		return fmt.Errorf("digest has %d bytes, want %d", len(r.Digest), DigestSize)
	}
	return nil
}

// digest reads a bin into the message's digest space when it has the size
// of a digest; a wrong size gets its own slice, for the error message.
func (dd *Decoder) digest(digests *[]byte) ([]byte, error) {
	n, err := dd.d.DecodeBytesLen()
	if err != nil || n < 0 {
		return nil, err
	}
	if n != DigestSize || len(*digests)+n > cap(*digests) {
		b := make([]byte, n)
		return b, dd.d.ReadFull(b)
	}
	start := len(*digests)
	*digests = (*digests)[:start+n]
	b := (*digests)[start : start+n : start+n]
	return b, dd.d.ReadFull(b)
}

// bytesOrString reads canonical text sent as bin or, as the protocol allows,
// as str. An empty bin still yields a non-nil slice.
func (dd *Decoder) bytesOrString() ([]byte, error) {
	b, err := dd.d.DecodeBytes()
	if err == nil && b == nil {
		b = []byte{}
	}
	return b, err
}

// frames reads a result's frames (version 4): an array of maps, each
// with a str "file" and "function" and an integer "line" of 0 or more,
// any of the three left out being "" or 0. A worker sends at most
// MaxFrames; the decoder keeps the first MaxFrames of more and skips the
// rest, since a long stack is no reason to lose the batch.
func (dd *Decoder) frames() ([]Frame, error) {
	if err := dd.want("an array", msgpcode.IsFixedArray, msgpcode.Array16, msgpcode.Array32); err != nil {
		return nil, err
	}
	n, err := dd.vd.length(dd.d.DecodeArrayLen())
	if err != nil {
		return nil, err
	}
	out := make([]Frame, 0, min(n, MaxFrames))
	for i := 0; i < n; i++ {
		if i >= MaxFrames {
			if err := dd.d.Skip(); err != nil {
				return nil, err
			}
			continue
		}
		f, err := dd.frame()
		if err != nil {
			return nil, fmt.Errorf("frame %d: %w", i, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// frame reads one of frames' maps.
func (dd *Decoder) frame() (f Frame, err error) {
	if err := dd.want("a map", msgpcode.IsFixedMap, msgpcode.Map16, msgpcode.Map32); err != nil {
		return f, err
	}
	n, err := dd.vd.length(dd.d.DecodeMapLen())
	if err != nil {
		return f, err
	}
	for i := 0; i < n; i++ {
		key, err := dd.d.DecodeString()
		if err != nil {
			return f, err
		}
		switch key {
		case "file":
			f.File, err = dd.str()
		case "function":
			f.Function, err = dd.str()
		case "line":
			f.Line, err = dd.line()
		default:
			err = dd.d.Skip()
		}
		if err != nil {
			return f, fmt.Errorf("%s: %w", key, err)
		}
	}
	return f, nil
}

// str reads a msgpack str and nothing else: unlike DecodeString, no nil
// and no bin.
func (dd *Decoder) str() (string, error) {
	if err := dd.want("a str", msgpcode.IsFixedString, msgpcode.Str8, msgpcode.Str16, msgpcode.Str32); err != nil {
		return "", err
	}
	return dd.d.DecodeString()
}

// line reads a frame's line: an integer, 0 or more.
func (dd *Decoder) line() (int, error) {
	if err := dd.want("an integer", msgpcode.IsFixedNum, msgpcode.Uint8, msgpcode.Uint16, msgpcode.Uint32,
		msgpcode.Uint64, msgpcode.Int8, msgpcode.Int16, msgpcode.Int32, msgpcode.Int64); err != nil {
		return 0, err
	}
	n, err := dd.d.DecodeInt64()
	if err == nil && (n < 0 || n > math.MaxInt32) {
		err = fmt.Errorf("line %d is out of range", n)
	}
	return int(n), err
}

// want checks that the next value's msgpack code is one of the family
// (fixed, or one of codes), and says what it is otherwise.
func (dd *Decoder) want(what string, fixed func(byte) bool, codes ...byte) error {
	c, err := dd.d.PeekCode()
	if err != nil {
		return err
	}
	if fixed(c) || bytes.IndexByte(codes, c) >= 0 {
		return nil
	}
	return fmt.Errorf("want %s, got %s", what, codeName(c))
}

// codeName names the msgpack type a code starts, for an error message.
func codeName(c byte) string {
	switch {
	case msgpcode.IsFixedNum(c), c >= msgpcode.Uint8 && c <= msgpcode.Int64:
		return "an integer"
	case msgpcode.IsString(c):
		return "a str"
	case msgpcode.IsBin(c):
		return "a bin"
	case msgpcode.IsFixedArray(c), c == msgpcode.Array16, c == msgpcode.Array32:
		return "an array"
	case msgpcode.IsFixedMap(c), c == msgpcode.Map16, c == msgpcode.Map32:
		return "a map"
	case c == msgpcode.Nil:
		return "nil"
	case c == msgpcode.True, c == msgpcode.False:
		return "a bool"
	case c == msgpcode.Float, c == msgpcode.Double:
		return "a float"
	case msgpcode.IsExt(c):
		return "an ext"
	}
	return fmt.Sprintf("code 0x%02x", c)
}
