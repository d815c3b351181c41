package canonjson

import (
	"bytes"
	"errors"
	"math"
	"math/big"
	"regexp"
	"unicode/utf16"

	"github.com/difffuzz/difffuzz/value"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// The fixtures carry every case as msgpack too (docs/adapter-protocol.md),
// and some cases (non-string keys, bin data, bad ext payloads) only that way.
// This test-only reader turns those bytes into the value model, the way the
// Go worker does, using the msgpack library for the framing of values.

// wireUnsupported stands for a wire value outside the model; Canonical
// rejects it (as any unknown Go type) with unsupported_value.
type wireUnsupported struct{ reason string }

var bigIntText = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// decodeWire reads exactly one msgpack value.
func decodeWire(b []byte) (any, error) {
	r := bytes.NewReader(b)
	d := msgpack.NewDecoder(r)
	v, err := wireValue(d, 0)
	if err != nil {
		return nil, err
	}
	if r.Len() != 0 {
		return nil, errors.New("trailing bytes after the value")
	}
	return v, nil
}

func wireValue(d *msgpack.Decoder, depth int) (any, error) {
	if depth > value.MaxTextDepth {
		return nil, errors.New("nested deeper than 1000")
	}
	c, err := d.PeekCode()
	if err != nil {
		return nil, err
	}
	switch {
	case c == msgpcode.Nil:
		return nil, d.DecodeNil()
	case c == msgpcode.True || c == msgpcode.False:
		return d.DecodeBool()
	case c == msgpcode.Uint64:
		u, err := d.DecodeUint64()
		if u > math.MaxInt64 {
			return new(big.Int).SetUint64(u), err
		}
		return int64(u), err
	case msgpcode.IsFixedNum(c) || c >= msgpcode.Uint8 && c <= msgpcode.Int64:
		return d.DecodeInt64()
	case c == msgpcode.Float:
		f, err := d.DecodeFloat32()
		return float64(f), err
	case c == msgpcode.Double:
		return d.DecodeFloat64()
	case msgpcode.IsString(c):
		return d.DecodeString()
	case msgpcode.IsBin(c):
		_, err := d.DecodeBytes()
		return wireUnsupported{"bin"}, err
	case msgpcode.IsFixedArray(c) || c == msgpcode.Array16 || c == msgpcode.Array32:
		n, err := d.DecodeArrayLen()
		if err != nil {
			return nil, err
		}
		arr := make([]any, n)
		for i := range arr {
			if arr[i], err = wireValue(d, depth+1); err != nil {
				return nil, err
			}
		}
		return arr, nil
	case msgpcode.IsFixedMap(c) || c == msgpcode.Map16 || c == msgpcode.Map32:
		return wireMap(d, depth)
	case msgpcode.IsExt(c):
		return wireExt(d)
	}
	return nil, errors.New("unknown msgpack code")
}

// wireMap keeps member order and duplicates; an object with a key that is
// not a string becomes a RawObject, so the error is found in its place.
func wireMap(d *msgpack.Decoder, depth int) (any, error) {
	n, err := d.DecodeMapLen()
	if err != nil {
		return nil, err
	}
	raw := make(RawObject, n)
	allStrings := true
	for i := range raw {
		if raw[i].Key, err = wireValue(d, depth+1); err != nil {
			return nil, err
		}
		if raw[i].Value, err = wireValue(d, depth+1); err != nil {
			return nil, err
		}
		_, isString := raw[i].Key.(string)
		allStrings = allStrings && isString
	}
	if !allStrings {
		return raw, nil
	}
	obj := make(Object, n)
	for i, m := range raw {
		obj[i] = Member{Key: m.Key.(string), Value: m.Value}
	}
	return obj, nil
}

// wireExt decodes ext 1 (big integer as ASCII decimal) and ext 2 (UTF-16LE
// code units, pairs combined, lone surrogates kept in WTF-8).
func wireExt(d *msgpack.Decoder) (any, error) {
	id, n, err := d.DecodeExtHeader()
	if err != nil {
		return nil, err
	}
	payload := make([]byte, n)
	if err := d.ReadFull(payload); err != nil {
		return nil, err
	}
	switch id {
	case 1:
		if !bigIntText.Match(payload) {
			return wireUnsupported{"bad ext 1 payload"}, nil
		}
		v, _ := new(big.Int).SetString(string(payload), 10)
		return v, nil
	case 2:
		if n%2 != 0 {
			return wireUnsupported{"odd ext 2 payload"}, nil
		}
		units := make([]uint16, n/2)
		for i := range units {
			units[i] = uint16(payload[2*i]) | uint16(payload[2*i+1])<<8
		}
		var b []byte
		for i := 0; i < len(units); i++ {
			u := rune(units[i])
			if utf16.IsSurrogate(u) && u < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF {
				u = utf16.DecodeRune(u, rune(units[i+1]))
				i++
			}
			b = appendWTF8(b, u)
		}
		return string(b), nil
	}
	return wireUnsupported{"unknown ext type"}, nil
}
