package value

import (
	"encoding/base64"
	"math/big"
	"slices"
	"strconv"
)

// AppendText appends v as compact extended JSON text (spec section 6), the
// form corpus files, fixtures and bug reports carry. Unlike the canonical
// text it keeps everything Parse needs to rebuild v exactly: member order and
// duplicate keys, lone surrogates (as \udXXX), integer vs float (a float that
// would read back as an integer gets ".0"; negative zero is "-0.0").
//
// Bin data ([]byte, out of the model: unsupported_value) is written
// {"$bin":"<base64>"}, as Parse reads it back (see BinKey). A value that the
// text cannot express (another Go type outside the model, a non-string key,
// a string that is not even WTF-8, nesting beyond MaxTextDepth) is written
// in a visibly invalid form, so that Parse rejects the text instead of
// reading back a different value.
func AppendText(dst []byte, v any) []byte {
	return appendText(dst, v, 1)
}

func appendText(dst []byte, v any, level int) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		if x {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case string:
		return appendTextString(dst, x)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case float64:
		return appendTextFloat(dst, x)
	case float32:
		return appendTextFloat(dst, float64(x))
	case *big.Int:
		if x != nil {
			return x.Append(dst, 10)
		}
	case int, int8, int16, int32, uint, uint8, uint16, uint32:
		i, _ := intOf(x)
		return strconv.AppendInt(dst, i, 10)
	case uint64:
		return strconv.AppendUint(dst, x, 10)
	case []byte:
		dst = append(dst, `{"`+BinKey+`":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, x)
		return append(dst, `"}`...)
	}
	k := kindOf(v)
	if k != kindArray && k != kindObject && k != kindMap {
		return append(append(append(dst, "<unsupported "...), typeName(v)...), '>')
	}
	if level > MaxTextDepth {
		return append(dst, "<nested deeper than 1000 levels>"...)
	}
	switch x := v.(type) {
	case []any:
		dst = append(dst, '[')
		for i, el := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendText(dst, el, level+1)
		}
		return append(dst, ']')
	case []string:
		dst = append(dst, '[')
		for i, el := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendTextString(dst, el)
		}
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		for i, m := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendTextKey(dst, m.Key, len(x))
			dst = append(dst, ':')
			dst = appendText(dst, m.Value, level+1)
		}
		return append(dst, '}')
	case RawObject:
		dst = append(dst, '{')
		for i, m := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			if k, ok := m.Key.(string); ok {
				dst = appendTextKey(dst, k, len(x))
			} else {
				dst = appendText(dst, m.Key, level+1) // a non-string key makes the text invalid, as it should
			}
			dst = append(dst, ':')
			dst = appendText(dst, m.Value, level+1)
		}
		return append(dst, '}')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendTextString(dst, k)
			dst = append(dst, ':')
			dst = appendText(dst, x[k], level+1)
		}
		return append(dst, '}')
	}
	return dst
}

// BinKey is the member name of bin data in extended JSON text: the object
// {"$bin":"<base64>"}, of that one member spelt exactly so, is the bytes
// (standard base64, padded). An object of the model with that one member
// spells its key "\u0024bin", which Parse reads as an object, so that
// every value keeps its own text.
const BinKey = "$bin"

// appendTextKey writes an object's key; n is the object's member count.
func appendTextKey(dst []byte, key string, n int) []byte {
	if n == 1 && key == BinKey {
		return append(dst, `"\u0024bin"`...)
	}
	return appendTextString(dst, key)
}
