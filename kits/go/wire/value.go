package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// Extension types of the protocol.
const (
	ExtBigInt = 1 // an integer outside 64 bits, as ASCII decimal
	ExtUTF16  = 2 // a string holding lone surrogates, as UTF-16LE code units
)

// MaxDepth is the deepest nesting of a case on the wire. The spec rejects past
// 512; the margin lets the fuzzer check that rejection without letting a
// hostile frame exhaust anyone's stack.
const MaxDepth = 1000

// Unsupported stands in a decoded case for a wire value outside the model (bin
// data, an unknown ext type, a malformed ext payload). the spec's walk (and every implementation) rejects it as
// unsupported_value at its place in the walk, so the error order of the spec
// holds.
type Unsupported struct{ Reason string }

var errDepth = fmt.Errorf("value nested deeper than %d", MaxDepth)

// encodeValue writes v. With known, every string in v is known to be valid
// UTF-8 and goes out as str unchecked (see EncodeCases).
func encodeValue(e *msgpack.Encoder, v any, depth int, known bool) error {
	if depth > MaxDepth {
		return errDepth
	}
	switch v := v.(type) {
	case nil:
		return e.EncodeNil()
	case bool:
		return e.EncodeBool(v)
	case int64:
		return e.EncodeInt(v)
	case int:
		return e.EncodeInt(int64(v))
	case *big.Int:
		return encodeBig(e, v)
	case float64:
		return e.EncodeFloat64(v)
	case string:
		return encodeString(e, v, known)
	case []any:
		if err := e.EncodeArrayLen(len(v)); err != nil {
			return err
		}
		for _, x := range v {
			if err := encodeValue(e, x, depth+1, known); err != nil {
				return err
			}
		}
		return nil
	case Object:
		if err := e.EncodeMapLen(len(v)); err != nil {
			return err
		}
		for _, m := range v {
			if err := encodeString(e, m.Key, known); err != nil {
				return err
			}
			if err := encodeValue(e, m.Value, depth+1, known); err != nil {
				return err
			}
		}
		return nil
	case RawObject:
		// A map with a key that is not a string: the non_string_key cases.
		if err := e.EncodeMapLen(len(v)); err != nil {
			return err
		}
		for _, m := range v {
			if err := encodeValue(e, m.Key, depth+1, known); err != nil {
				return err
			}
			if err := encodeValue(e, m.Value, depth+1, known); err != nil {
				return err
			}
		}
		return nil
	case []byte:
		return e.EncodeBytes(v) // bin: the unsupported_value cases
	}
	return fmt.Errorf("cannot encode %T", v)
}

func encodeBig(e *msgpack.Encoder, v *big.Int) error {
	switch {
	case v.IsInt64():
		return e.EncodeInt(v.Int64())
	case v.IsUint64():
		return e.EncodeUint(v.Uint64())
	}
	var buf [smallBigDigits]byte
	digits := appendBig(buf[:0], v)
	if err := e.EncodeExtHeader(ExtBigInt, len(digits)); err != nil {
		return err
	}
	// Every encoder here writes to a bytes.Buffer. Handing it the digits
	// directly, not through the io.Writer interface, keeps buf on the
	// stack.
	if b, ok := e.Writer().(*bytes.Buffer); ok {
		_, err := b.Write(digits)
		return err
	}
	_, err := e.Writer().Write(bytes.Clone(digits))
	return err
}

// smallBigWords is the longest integer, in 64-bit words, whose digits
// appendBig writes itself; smallBigDigits bounds their count, sign
// included. The generator's integers outside 64 bits have two to four
// words, and math/big's Append allocates twice for each, which showed in
// the driver's CPU profiles (docs/performance.md).
const (
	smallBigWords  = 8
	smallBigDigits = 1 + smallBigWords*64*31/100 + 1 // log10(2) < 0.31
)

// appendBig appends v in decimal. Up to smallBigWords words (and on 64-bit
// platforms) it divides a copy of v's magnitude by 10^19 on the stack,
// taking one chunk of 19 digits per pass; longer integers go to math/big.
func appendBig(dst []byte, v *big.Int) []byte {
	words := v.Bits()
	if bits.UintSize != 64 || len(words) > smallBigWords {
		return v.Append(dst, 10)
	}
	const chunk = 1e19 // the largest power of ten below 2^64
	var w [smallBigWords]uint64
	for i, x := range words {
		w[i] = uint64(x)
	}
	var chunks [smallBigWords*64/63 + 1]uint64 // 10^19 > 2^63
	n, k := len(words), 0
	for n > 0 {
		var r uint64
		for i := n - 1; i >= 0; i-- {
			w[i], r = bits.Div64(r, w[i], chunk)
		}
		chunks[k], k = r, k+1
		for n > 0 && w[n-1] == 0 {
			n--
		}
	}
	if v.Sign() < 0 {
		dst = append(dst, '-')
	}
	if k == 0 {
		return append(dst, '0')
	}
	dst = strconv.AppendUint(dst, chunks[k-1], 10)
	for i := k - 2; i >= 0; i-- {
		start := len(dst)
		dst = append(dst, "0000000000000000000"...)
		var d [19]byte
		digits := strconv.AppendUint(d[:0], chunks[i], 10)
		copy(dst[start+19-len(digits):], digits)
	}
	return dst
}

// encodeString sends valid UTF-8 as str and WTF-8 (lone surrogates) as ext 2;
// known says that s is valid UTF-8.
func encodeString(e *msgpack.Encoder, s string, known bool) error {
	if known || utf8.ValidString(s) {
		return e.EncodeString(s)
	}
	if err := e.EncodeExtHeader(ExtUTF16, 2*utf16Len(s)); err != nil {
		return err
	}
	// The code units go out through a small buffer, not a slice of them
	// and another of their bytes: a long string costs no garbage.
	var buf [512]byte
	k := 0
	for i := 0; i < len(s); {
		if k+4 > len(buf) {
			if _, err := e.Writer().Write(buf[:k]); err != nil {
				return err
			}
			k = 0
		}
		r, n := rune(s[i]), 1
		if r < utf8.RuneSelf && i+8 <= len(s) && k+16 <= len(buf) {
			// Such strings are mostly ASCII, most of it in runs: eight
			// bytes at once when all are, which made this loop a quarter
			// of BenchmarkEncodeCases.
			if x := load64(s, i); x&asciiMask == 0 {
				binary.LittleEndian.PutUint64(buf[k:], widen(uint32(x)))
				binary.LittleEndian.PutUint64(buf[k+8:], widen(uint32(x>>32)))
				i, k = i+8, k+16
				continue
			}
		}
		if r >= utf8.RuneSelf {
			if r, n = utf8.DecodeRuneInString(s[i:]); r == utf8.RuneError && n == 1 {
				if r, n = surrogateAt(s, i); n == 0 {
					return fmt.Errorf("string is not UTF-8 or WTF-8 at byte %d", i)
				}
			}
		}
		i += n
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			buf[k], buf[k+1], buf[k+2], buf[k+3] = byte(hi), byte(hi>>8), byte(lo), byte(lo>>8)
			k += 4
			continue
		}
		buf[k], buf[k+1] = byte(r), byte(r>>8)
		k += 2
	}
	_, err := e.Writer().Write(buf[:k])
	return err
}

// utf16Len is how many UTF-16 code units a WTF-8 string has: one for each
// byte that starts a code point, two for an astral one (a 4-byte form). It
// does not check s; encodeString does as it writes the units. It counts
// eight bytes at a time: a continuation byte (10xxxxxx) has its top bit set
// and the next clear, a 4-byte lead (11110xxx) its top four set.
func utf16Len(s string) int {
	n, i := 0, 0
	for ; i+8 <= len(s); i += 8 {
		x := load64(s, i)
		continuation := x &^ (x << 1) & asciiMask
		astral := x & (x << 1) & (x << 2) & (x << 3) & asciiMask
		n += 8 - bits.OnesCount64(continuation) + bits.OnesCount64(astral)
	}
	for ; i < len(s); i++ {
		if c := s[i]; c&0xC0 != 0x80 {
			n++
			if c >= 0xF0 {
				n++
			}
		}
	}
	return n
}

// asciiMask holds the top bit of each byte of a 64-bit word.
const asciiMask = 0x8080808080808080

// load64 is s[i:i+8] as a little-endian word (the compiler makes it one
// load).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// widen spreads four ASCII bytes into four little-endian UTF-16 code units.
func widen(x uint32) uint64 {
	w := uint64(x)
	w = (w | w<<16) & 0x0000FFFF0000FFFF
	return (w | w<<8) & 0x00FF00FF00FF00FF
}

// surrogateAt decodes the surrogate code point in its 3-byte generalized
// form (WTF-8) at s[i:], with its length, or returns length 0 if there is
// none.
func surrogateAt(s string, i int) (rune, int) {
	if i+3 > len(s) || s[i] != 0xED || s[i+1] < 0xA0 || s[i+1] > 0xBF || s[i+2] < 0x80 || s[i+2] > 0xBF {
		return 0, 0
	}
	return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), 3
}

// utf16ToWTF8 is the inverse of encodeString's ext 2 form: pairs become one
// rune, lone surrogates their 3-byte form.
func utf16ToWTF8(units []uint16) string {
	buf := make([]byte, 0, len(units)*3)
	for i := 0; i < len(units); i++ {
		u := rune(units[i])
		if utf16.IsSurrogate(u) && u < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF {
			buf = utf8.AppendRune(buf, utf16.DecodeRune(u, rune(units[i+1])))
			i++
			continue
		}
		if utf16.IsSurrogate(u) {
			buf = append(buf, 0xED, byte(0xA0|(u>>6)&0x1F), byte(0x80|u&0x3F))
			continue
		}
		buf = utf8.AppendRune(buf, u)
	}
	return string(buf)
}

// valueDecoder decodes case values from one frame body; remaining bounds every
// length it is told, so that a lying header cannot force a large allocation.
type valueDecoder struct {
	d         *msgpack.Decoder
	remaining func() int
}

func (vd *valueDecoder) value(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, errDepth
	}
	c, err := vd.d.PeekCode()
	if err != nil {
		return nil, err
	}
	switch {
	case c == msgpcode.Nil:
		return nil, vd.d.DecodeNil()
	case c == msgpcode.True || c == msgpcode.False:
		return vd.d.DecodeBool()
	case msgpcode.IsFixedNum(c) || c >= msgpcode.Uint8 && c <= msgpcode.Int64:
		return vd.integer(c)
	case c == msgpcode.Float || c == msgpcode.Double:
		return vd.d.DecodeFloat64()
	case msgpcode.IsString(c):
		s, err := vd.d.DecodeString()
		if err == nil && !utf8.ValidString(s) {
			// Only ext 2 may carry a lone surrogate; a str that is not
			// UTF-8 is outside the model (as a key: a non-string key).
			return Unsupported{"str is not UTF-8"}, nil
		}
		return s, err
	case msgpcode.IsBin(c):
		// Bin data is outside the model; it is kept as []byte (which every
		// implementation must reject) so that the case can be sent again.
		b, err := vd.d.DecodeBytes()
		if b == nil && err == nil {
			b = []byte{}
		}
		return b, err
	case msgpcode.IsFixedArray(c) || c == msgpcode.Array16 || c == msgpcode.Array32:
		return vd.array(depth)
	case msgpcode.IsFixedMap(c) || c == msgpcode.Map16 || c == msgpcode.Map32:
		return vd.object(depth)
	case msgpcode.IsExt(c):
		return vd.ext()
	}
	return nil, fmt.Errorf("invalid msgpack code 0x%02x", c)
}

func (vd *valueDecoder) integer(c byte) (any, error) {
	if c == msgpcode.Uint64 {
		u, err := vd.d.DecodeUint64()
		if err != nil || u <= math.MaxInt64 {
			return int64(u), err
		}
		return new(big.Int).SetUint64(u), nil
	}
	return vd.d.DecodeInt64()
}

func (vd *valueDecoder) length(n int, err error) (int, error) {
	if err == nil && (n < 0 || n > vd.remaining()) {
		err = fmt.Errorf("container length %d exceeds the frame", n)
	}
	return n, err
}

func (vd *valueDecoder) array(depth int) (any, error) {
	n, err := vd.length(vd.d.DecodeArrayLen())
	if err != nil {
		return nil, err
	}
	arr := make([]any, n)
	for i := range arr {
		if arr[i], err = vd.value(depth + 1); err != nil {
			return nil, err
		}
	}
	return arr, nil
}

// object decodes a map into a Object, or into a RawObject
// when a key is not a string, so that the spec's walk reports non_string_key at its
// place in the spec's walk.
func (vd *valueDecoder) object(depth int) (any, error) {
	n, err := vd.length(vd.d.DecodeMapLen())
	if err != nil {
		return nil, err
	}
	obj := make(Object, 0, n)
	var raw RawObject
	for i := 0; i < n; i++ {
		k, err := vd.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v, err := vd.value(depth + 1)
		if err != nil {
			return nil, err
		}
		key, isString := k.(string)
		if !isString && raw == nil {
			raw = make(RawObject, 0, n)
			for _, m := range obj {
				raw = append(raw, RawMember{Key: m.Key, Value: m.Value})
			}
		}
		if raw != nil {
			raw = append(raw, RawMember{Key: k, Value: v})
			continue
		}
		obj = append(obj, Member{Key: key, Value: v})
	}
	if raw != nil {
		return raw, nil
	}
	return obj, nil
}

func (vd *valueDecoder) ext() (any, error) {
	id, n, err := vd.d.DecodeExtHeader()
	if err == nil {
		_, err = vd.length(n, nil)
	}
	if err != nil {
		return nil, err
	}
	payload := make([]byte, n)
	if err := vd.d.ReadFull(payload); err != nil {
		return nil, err
	}
	switch id {
	case ExtBigInt:
		return decodeBig(payload), nil
	case ExtUTF16:
		if n%2 != 0 {
			return Unsupported{"ext 2 payload of odd length"}, nil
		}
		units := make([]uint16, n/2)
		for i := range units {
			units[i] = uint16(payload[2*i]) | uint16(payload[2*i+1])<<8
		}
		return utf16ToWTF8(units), nil
	}
	return Unsupported{fmt.Sprintf("ext type %d", id)}, nil
}

func decodeBig(payload []byte) any {
	s := string(payload)
	digits := s
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	valid := len(digits) > 0 && (digits == "0" || digits[0] != '0')
	for i := 0; valid && i < len(digits); i++ {
		valid = digits[i] >= '0' && digits[i] <= '9'
	}
	if !valid {
		return Unsupported{fmt.Sprintf("ext 1 payload %.40q is not a decimal integer", s)}
	}
	b, _ := new(big.Int).SetString(s, 10)
	if b.IsInt64() {
		return b.Int64()
	}
	return b
}

// errNotMap is returned for a frame that is valid msgpack but not a map.
var errNotMap = errors.New("frame is not a msgpack map")

// EncodeValue is one value in the protocol's msgpack, as a case travels:
// the lossless form of any case, for a corpus entry whose input extended
// JSON cannot write (a non-string key, bin data).
func EncodeValue(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := encodeValue(msgpack.NewEncoder(&buf), v, 1, false); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// DecodeValue reads one value written by EncodeValue (or by any worker's
// encoder), exactly as a worker decodes a case.
func DecodeValue(data []byte) (any, error) {
	r := bytes.NewReader(data)
	d := msgpack.NewDecoder(r)
	vd := valueDecoder{d: d, remaining: r.Len}
	v, err := vd.value(1)
	if err == nil && r.Len() != 0 {
		err = fmt.Errorf("%d trailing bytes after the value", r.Len())
	}
	return v, err
}
