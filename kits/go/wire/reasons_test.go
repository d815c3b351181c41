package wire

import (
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/value"
)

// The driver steers its generator by value.Reasons, parsed from the names a
// hello declares: they must be these, in the same order.
func TestReasonsMatchValue(t *testing.T) {
	if got, want := value.AllReasons.String(), strings.Join(Reasons, ","); got != want {
		t.Errorf("value's reasons %s, the protocol's %s", got, want)
	}
}
