package value

import (
	"math"
	"math/big"
	"reflect"
)

// Equal reports whether a and b are the same value of the model. It is what a
// round trip (value -> text or wire -> value) must preserve, so it is stricter
// than canonical equality: integers and floats differ (1 != 1.0), floats
// compare by bits (0.0 != -0.0) except that every NaN equals every NaN,
// objects compare member by member in order (duplicates included). Integers
// compare by value whatever their Go type (int64, *big.Int, int, ...).
// Values nested deeper than maxEqualDepth are never equal, so that a cyclic
// Go value cannot exhaust the stack.
func Equal(a, b any) bool {
	return equal(a, b, 0)
}

// maxEqualDepth is far above anything Parse or the wire can produce.
const maxEqualDepth = 10 * MaxTextDepth

func equal(a, b any, depth int) bool {
	if depth > maxEqualDepth {
		return false
	}
	ka, kb := kindOf(a), kindOf(b)
	if ka != kb {
		return false
	}
	switch ka {
	case kindNull:
		return true
	case kindBool:
		return a.(bool) == b.(bool)
	case kindInt:
		return intEqual(a, b)
	case kindFloat:
		x, y := floatOf(a), floatOf(b)
		if x != x && y != y {
			return true
		}
		return math.Float64bits(x) == math.Float64bits(y)
	case kindString:
		return a.(string) == b.(string)
	case kindArray:
		return arrayEqual(a, b, depth+1)
	case kindObject:
		return objectEqual(a, b, depth+1)
	case kindMap:
		return mapEqual(a.(map[string]any), b.(map[string]any), depth+1)
	}
	return reflect.DeepEqual(a, b)
}

type kind uint8

const (
	kindOther kind = iota
	kindNull
	kindBool
	kindInt
	kindFloat
	kindString
	kindArray
	kindObject
	kindMap
)

func kindOf(v any) kind {
	switch x := v.(type) {
	case nil:
		return kindNull
	case bool:
		return kindBool
	case int64, int, int8, int16, int32, uint, uint8, uint16, uint32, uint64:
		return kindInt
	case *big.Int:
		if x == nil {
			return kindOther
		}
		return kindInt
	case float64, float32:
		return kindFloat
	case string:
		return kindString
	case []any, []string:
		return kindArray
	case Object, RawObject:
		return kindObject
	case map[string]any:
		return kindMap
	}
	return kindOther
}

// intOf returns an integer value as int64 when it fits, else as *big.Int.
func intOf(v any) (int64, *big.Int) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case int:
		return int64(x), nil
	case int8:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case uint:
		return intOfUint(uint64(x))
	case uint8:
		return int64(x), nil
	case uint16:
		return int64(x), nil
	case uint32:
		return int64(x), nil
	case uint64:
		return intOfUint(x)
	case *big.Int:
		if x.IsInt64() {
			return x.Int64(), nil
		}
		return 0, x
	}
	return 0, nil
}

func intOfUint(u uint64) (int64, *big.Int) {
	if u <= math.MaxInt64 {
		return int64(u), nil
	}
	return 0, new(big.Int).SetUint64(u)
}

func intEqual(a, b any) bool {
	x, bx := intOf(a)
	y, by := intOf(b)
	if bx == nil && by == nil {
		return x == y
	}
	if bx == nil || by == nil {
		return false // one fits int64, the other does not
	}
	return bx.Cmp(by) == 0
}

func floatOf(v any) float64 {
	if f, ok := v.(float32); ok {
		return float64(f)
	}
	return v.(float64)
}

func arrayEqual(a, b any, depth int) bool {
	if x, ok := a.([]any); ok {
		if y, ok := b.([]any); ok {
			if len(x) != len(y) {
				return false
			}
			for i := range x {
				if !equal(x[i], y[i], depth) {
					return false
				}
			}
			return true
		}
	}
	na, nb := arrayLen(a), arrayLen(b)
	if na != nb {
		return false
	}
	for i := 0; i < na; i++ {
		if !equal(elemAt(a, i), elemAt(b, i), depth) {
			return false
		}
	}
	return true
}

func arrayLen(v any) int {
	if x, ok := v.([]any); ok {
		return len(x)
	}
	return len(v.([]string))
}

func elemAt(v any, i int) any {
	if x, ok := v.([]any); ok {
		return x[i]
	}
	return v.([]string)[i]
}

func objectEqual(a, b any, depth int) bool {
	if x, ok := a.(Object); ok {
		if y, ok := b.(Object); ok {
			if len(x) != len(y) {
				return false
			}
			for i := range x {
				if x[i].Key != y[i].Key || !equal(x[i].Value, y[i].Value, depth) {
					return false
				}
			}
			return true
		}
	}
	na, nb := objectLen(a), objectLen(b)
	if na != nb {
		return false
	}
	for i := 0; i < na; i++ {
		ka, va := memberAt(a, i)
		kb, vb := memberAt(b, i)
		if !equal(ka, kb, depth) || !equal(va, vb, depth) {
			return false
		}
	}
	return true
}

func objectLen(v any) int {
	if x, ok := v.(Object); ok {
		return len(x)
	}
	return len(v.(RawObject))
}

// memberAt returns member i of an Object or RawObject (boxing a string key:
// only for the rarely used mixed comparisons).
func memberAt(v any, i int) (key, val any) {
	if x, ok := v.(Object); ok {
		return x[i].Key, x[i].Value
	}
	m := v.(RawObject)[i]
	return m.Key, m.Value
}

func mapEqual(a, b map[string]any, depth int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok || !equal(va, vb, depth) {
			return false
		}
	}
	return true
}
