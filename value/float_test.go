package value

import (
	"math"
	"testing"
)

// TestTextFloat covers the writer's float forms: the canonical layout, plus
// ".0" where the text would otherwise read back as an integer.
func TestTextFloat(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1, "1.0"},
		{-1, "-1.0"},
		{123, "123.0"},
		{1e20, "100000000000000000000.0"},
		{1e21, "1e+21"},
		{-1e21, "-1e+21"},
		{9007199254740993.0, "9007199254740992.0"},
		{1.5, "1.5"},
		{0.1, "0.1"},
		{1e-6, "0.000001"},
		{1e-7, "1e-7"},
		{5e-324, "5e-324"},
		{1.7976931348623157e308, "1.7976931348623157e+308"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
	} {
		if got := string(appendTextFloat(nil, tc.x)); got != tc.want {
			t.Errorf("%v: got %s, want %s", tc.x, got, tc.want)
		}
	}
}
