package minimize

import (
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

func TestNumberSteps(t *testing.T) {
	big30, _ := new(big.Int).SetString("1000000000000000000000000000000", 10)
	tests := []struct {
		in   any
		want []string // extended texts that must be among the steps
	}{
		{int64(-3456), []string{"3456", "-345", "-1728", "-3000", "-1000", "-34", "-3456.0"}},
		{int64(7), []string{"0", "3", "7.0"}},
		{int64(math.MaxInt64), []string{"922337203685477580", "4611686018427387903", "9000000000000000000", "1000000000000000000", "9223372036"}},
		{big30, []string{"100000000000000000000000000000", "1000000000000000", "9223372036854775807", "1e+30"}},
		{3.75e25, []string{"0.0", "4e+25", "1e+25", "3.75", "37500000000000.0", "3.75e+22", "3.75e+24"}},
		{math.Copysign(0, -1), []string{"0.0"}},
		{math.NaN(), []string{"0.0"}},
		{1.5, []string{"0.0", "1.0", "2.0"}},
	}
	for _, tt := range tests {
		var out []any
		switch x := tt.in.(type) {
		case int64:
			out = int64Steps(x, out)
			if slow := intSteps(big.NewInt(x), nil); !slices.EqualFunc(out, slow, value.Equal) {
				t.Errorf("int64Steps(%d) = %v, intSteps %v", x, out, slow)
			}
			out = append(out, float64(x))
		case *big.Int:
			out = intSteps(x, out)
			f, _ := new(big.Float).SetInt(x).Float64()
			out = append(out, f, int64(1<<63-1))
		case float64:
			out = floatSteps(x, out)
		}
		var texts []string
		for _, v := range out {
			texts = append(texts, string(value.AppendText(nil, v)))
		}
		for _, w := range tt.want {
			if !slices.Contains(texts, w) {
				t.Errorf("%v: steps %v lack %s", tt.in, texts, w)
			}
		}
	}
}
