package canonjson

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// referenceLayout is a second, independent derivation of ECMAScript
// Number::toString: fixed notation ('f', shortest) for 1e-6 <= |x| < 1e21,
// exponent notation ('e', shortest) with the exponent's leading zeros removed
// otherwise.
func referenceLayout(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0:
		return "0"
	}
	if a := math.Abs(x); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	s := strconv.FormatFloat(x, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	sign, digits := exp[:1], strings.TrimLeft(exp[1:], "0")
	return mant + "e" + sign + digits
}

// randomFloats mixes uniformly random bit patterns (all magnitudes) with
// values near the layout boundaries and short decimals.
func randomFloats(r *rand.Rand, n int) []float64 {
	out := make([]float64, 0, n)
	for len(out) < n {
		switch r.IntN(4) {
		case 0:
			out = append(out, math.Float64frombits(r.Uint64()))
		case 1:
			e := r.IntN(60) - 30
			out = append(out, (r.Float64()*10)*math.Pow10(e))
		case 2:
			b := []float64{1e21, 1e-6, 1e-7, 1e20, 1, 0.1}[r.IntN(6)]
			x := b
			for range r.IntN(3) {
				if r.IntN(2) == 0 {
					x = math.Nextafter(x, 0)
				} else {
					x = math.Nextafter(x, math.Inf(1))
				}
			}
			out = append(out, x)
		default:
			out = append(out, float64(r.Int64N(1e12))/math.Pow10(r.IntN(15)))
		}
		if r.IntN(2) == 0 {
			out[len(out)-1] = -out[len(out)-1]
		}
	}
	return out
}

func TestFloatLayoutAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for _, x := range randomFloats(r, n) {
		got := string(appendCanonicalFloat(nil, x))
		if want := referenceLayout(x); got != want {
			t.Fatalf("%b: got %s, want %s", x, got, want)
		}
		if !math.IsNaN(x) {
			back, err := strconv.ParseFloat(got, 64)
			if err != nil && !math.IsInf(x, 0) || back != x {
				t.Fatalf("%s does not read back as %v", got, x)
			}
		}
	}
}
