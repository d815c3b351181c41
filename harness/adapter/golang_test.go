package adapter

import (
	"strings"
	"testing"

	"difffuzz/harness/wire"
)

// A panic inside the implementation is one case's internal error, with the
// stack for the report, in both the text and the digest-only paths.
func TestInternalOnPanic(t *testing.T) {
	r := func() (r wire.Result) {
		defer internalOnPanic(&r)
		panic("boom")
	}()
	if r.Error != wire.ErrorInternal || !strings.Contains(r.Message, "panic: boom") || !strings.Contains(r.Message, "golang_test.go") {
		t.Errorf("result %+v, want an internal error naming the panic and its stack", r)
	}
	if r := func() (r wire.Result) { defer internalOnPanic(&r); return wire.Result{Error: "too_deep"} }(); r.Error != "too_deep" {
		t.Errorf("without a panic the result changed: %+v", r)
	}
}
