package run

import (
	"fmt"
	"strings"

	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// genConfig is the generator's configuration once the lanes have said
// hello: cfg.Gen, drawn for the run's contract (gen.Config.Contract) and
// steered away from what the native models under test cannot hold
// (gen.Config.Avoid), so that their share of the cases the run compares
// is not half what the status line's rate suggests. The hellos
// are the same in every lane and in every run with the same adapters, so
// the cases stay a function of the seed and the index; a repeat line
// repeats them.
func (r *runner) genConfig() gen.Config {
	cfg := r.cfg.Gen
	cfg.Contract = r.cfg.contract()
	cfg.Avoid = avoided(r.lanes[0].Hellos())
	if cfg.Avoid != 0 {
		fmt.Fprintf(r.cfg.Stderr, "difffuzz: every implementation under test is native: cases drawn to need none of %s, but one in ten as drawn\n",
			strings.ReplaceAll(cfg.Avoid.String(), ",", ", "))
	}
	return cfg
}

// avoided is the union of the reasons the native models declared, when
// every implementation under test (every adapter but the reference, the
// first) has one; none otherwise, so that an exact implementation keeps
// every case it can be tested on, and a run of exact models has exactly
// the generator's own cases. A reason this driver does not know is left
// out (value.ParseReasons): the cases holding it are counted as before.
func avoided(hellos []wire.Hello) value.Reasons {
	if len(hellos) < 2 {
		return 0
	}
	var avoid value.Reasons
	for i, h := range hellos {
		if h.Model != wire.ModelNative {
			if i == 0 {
				continue // an exact reference can hold anything
			}
			return 0
		}
		r, _ := value.ParseReasons(h.Inexpressible)
		avoid |= r
	}
	return avoid
}
