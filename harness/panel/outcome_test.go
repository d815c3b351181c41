package panel

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/internal/testworker"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// A Go worker's panic (protocol 4) reaches the panel's outcome with its
// type and the implementation's frames, none of the kit's.
func TestPanicReachesOutcome(t *testing.T) {
	specs := []adapter.Spec{{Name: "panics", Command: testworker.Command(t, "quoting-panics"),
		BatchTimeout: 5 * time.Second, StartTimeout: 10 * time.Second}}
	l, err := Start(context.Background(), specs, 0, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	cases := []any{value.Object{{Key: "a", Value: "it's \U0001F600"}}, []any{"x"}}
	outs := make([][]compare.Outcome, len(cases))
	for i := range outs {
		outs[i] = make([]compare.Outcome, 1)
	}
	ok := make([]bool, len(cases))
	if err := l.Run(context.Background(), &adapter.Batch{Cases: cases}, outs, ok); err != nil {
		t.Fatal(err)
	}
	for i, row := range outs {
		o := row[0]
		if !ok[i] || o.Error != wire.ErrorInternal || o.ErrorType != "panic" || len(o.Frames) < 2 {
			t.Fatalf("case %d: %+v", i, o)
		}
		if f := o.Frames[0].Function; f != "main.escapeChar" && f != "main.formatToken" {
			t.Errorf("case %d: innermost frame %+v", i, o.Frames[0])
		}
		for _, f := range o.Frames {
			if strings.Contains(f.Function, "difffuzz/kits/go/kit.") {
				t.Errorf("case %d: the kit's frame %+v", i, f)
			}
		}
	}
}
