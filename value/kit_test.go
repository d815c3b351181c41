package value_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// The Go kit is a module of its own, which imports nothing of the driver's,
// so it states the spec's error codes, its depth limit and the reasons of
// the protocol itself: they must be the driver's.
func TestKitAgreesWithValue(t *testing.T) {
	var codes []string
	for _, c := range value.Codes {
		codes = append(codes, string(c))
	}
	if !slices.Equal(codes, wire.SpecCodes) {
		t.Errorf("value.Codes %q, wire.SpecCodes %q", codes, wire.SpecCodes)
	}
	if kit.MaxDepth != value.MaxDepth {
		t.Errorf("kit.MaxDepth %d, value.MaxDepth %d", kit.MaxDepth, value.MaxDepth)
	}
	// The driver steers its generator by value.Reasons, parsed from the
	// names a hello declares: they must be the protocol's, in its order.
	if got, want := value.AllReasons.String(), strings.Join(wire.Reasons, ","); got != want {
		t.Errorf("value's reasons %s, the protocol's %s", got, want)
	}
}
