package compare

import (
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// esNumber is ECMAScript's Number::toString of a finite v, the reference's
// spelling: shortest digits, in full from 1e-6 up to 1e21, else in exponent
// form with a signed exponent and no leading zeros.
func esNumber(v float64) string {
	if a := math.Abs(v); a == 0 || a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'e', -1, 64)
	m, e, _ := strings.Cut(s, "e")
	sign, digits := e[:1], strings.TrimLeft(e[1:], "0")
	return m + "e" + sign + digits
}

func parse(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// A formatting bug is one cause whatever number it meets: every number a
// %g format, a cut to eight decimals or Python's round(x, 8) changes is
// "a number rounded to fewer digits", at every magnitude and shape.
func TestRoundingIsOneCause(t *testing.T) {
	formats := map[string]func(float64) string{
		"%g":          func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) },
		"%.8f":        func(v float64) string { return strconv.FormatFloat(v, 'f', 8, 64) },
		"round(x, 8)": func(v float64) string { return esNumber(parse(strconv.FormatFloat(v, 'f', 8, 64))) },
		"cut to 8 places": func(v float64) string {
			s := strconv.FormatFloat(v, 'f', -1, 64)
			if dot := strings.IndexByte(s, '.'); dot >= 0 && len(s) > dot+9 {
				s = s[:dot+9]
			}
			return esNumber(parse(s))
		},
	}
	r := rand.New(rand.NewSource(1))
	for name, format := range formats {
		seen := 0
		for i := 0; i < 5000; i++ {
			v := (r.Float64() + 0.1) * math.Pow(10, float64(r.Intn(26)-8))
			if i%2 == 1 {
				v = -v
			}
			ref, dev := esNumber(v), format(v)
			if got, _ := strconv.ParseFloat(dev, 64); got == v {
				continue // the format kept the value: a spelling, not a rounding
			}
			seen++
			a, b := "["+ref+"]", "["+dev+"]"
			if kind, cause := Cause([]byte(a), []byte(b), FirstDiff([]byte(a), []byte(b))); kind != KindNumber || cause != "a number rounded to fewer digits" {
				t.Fatalf("%s: %s against %s: %s: %q", name, ref, dev, kind, cause)
			}
		}
		if seen < 1000 {
			t.Errorf("%s: only %d numbers changed", name, seen)
		}
	}
}

// A non-finite number is one class whichever it is and however a deviant
// writes it.
func TestNonFiniteIsOneCause(t *testing.T) {
	for _, ref := range []string{"NaN", "Infinity", "-Infinity"} {
		for dev, want := range map[string]string{
			"null":  "a non-finite number written as null",
			`"x"`:   "a non-finite number written as a string",
			"1e999": "a non-finite number written as a large number in exponent form",
			"-Inf":  "a non-finite number written as a number JSON lacks",
			"inf":   "a non-finite number written as a number JSON lacks",
		} {
			a, b := []byte("["+ref+"]"), []byte("["+dev+"]")
			if _, cause := Cause(a, b, FirstDiff(a, b)); cause != want {
				t.Errorf("%s as %s: %q, want %q", ref, dev, cause, want)
			}
		}
	}
}

// Of the number causes, those of another value, not another spelling.
func TestChangesValue(t *testing.T) {
	for cause, want := range map[string]bool{
		"a number written with another value":                            true,
		"a number rounded to fewer digits":                               true,
		"a number rounded through a 32-bit float":                        true,
		"an integer with other digits":                                   true,
		"an integer past 2^53 with other digits":                         true,
		"not the shortest digits that round-trip":                        false,
		"other digits as short that round-trip (a tie broken otherwise)": false,
		"-0 written with its sign (want 0)":                              false,
		"a non-finite number written as null":                            false,
		"an integer past 2^53 rounded through a double":                  false,
	} {
		if got := ChangesValue(cause); got != want {
			t.Errorf("ChangesValue(%q) = %v, want %v", cause, got, want)
		}
	}
	// Each of them is what numberSpelling says of another value.
	for _, tt := range [][2]string{{"0.3", "0.30000001192092896"}, {"3728.8897006372813", "3728.8897006372817"}, {"12", "13"}, {"0.123456789", "0.1235"}} {
		if c := numberSpelling(tt[0], tt[1], wants{}); !ChangesValue(c) {
			t.Errorf("numberSpelling(%s, %s) = %q: not another value", tt[0], tt[1], c)
		}
	}
}
