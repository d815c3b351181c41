package wire

import (
	"bytes"
	"fmt"

	"github.com/vmihailenco/msgpack/v5"
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
