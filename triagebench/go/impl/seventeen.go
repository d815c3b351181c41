package impl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// Seventeen is the SDK that encodes the map[string]any its callers pass
// (integers as json.Number) by hand: keys spliced between quotes as they
// are, strings escaped for control characters and quotes only, and floats
// with %.17g, "enough digits to round-trip".
func Seventeen(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, v), nil
	case json.Number:
		return append(dst, v...), nil
	case float64:
		return strconv.AppendFloat(dst, v, 'g', 17, 64), nil
	case string:
		return appendQuoted(dst, v), nil
	case []any:
		dst = append(dst, '[')
		for i, x := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = Seventeen(dst, x); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(append(append(dst, '"'), k...), `":`...)
			var err error
			if dst, err = Seventeen(dst, v[k]); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	return dst, fmt.Errorf("cannot encode a %T", v)
}

// appendQuoted writes s as a JSON string: quotes, backslashes and control
// characters escaped, DEL and non-ASCII as \uXXXX (surrogate pairs past
// the BMP), everything else as it is.
func appendQuoted(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r == '\b':
			dst = append(dst, `\b`...)
		case r == '\f':
			dst = append(dst, `\f`...)
		case r < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		case r < 0x7f:
			dst = append(dst, byte(r))
		case r > 0xffff:
			r -= 0x10000
			dst = appendU(dst, 0xd800+(r>>10))
			dst = appendU(dst, 0xdc00+(r&0x3ff))
		default:
			dst = appendU(dst, r)
		}
	}
	return append(dst, '"')
}

func appendU(dst []byte, r rune) []byte {
	return fmt.Appendf(dst, `\u%04x`, r)
}
