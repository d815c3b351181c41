// Package inprocess is the Go implementation of canonical JSON run in the
// driver's process, as an adapter.Adapter. It is the one harness package that
// imports an implementation under test (through its worker, so that it answers
// exactly as cmd/canonjson-worker does); it registers itself with package
// adapter when linked in, so that the lanes, the bench and the survey can
// start an in-process adapter without importing the implementation:
//
//	import _ "github.com/difffuzz/difffuzz/harness/inprocess"
package inprocess

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/difffuzz/difffuzz/adapters/go/worker"
	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/internal/procstat"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Go is the in-process adapter for the Go implementation. It is safe for
// concurrent use: its one mutable state is a counter.
type Go struct {
	name     string
	contract string       // the name of the contract fn follows
	call     wire.Call    // the implementation under that contract, as the kit calls it
	batchCPU atomic.Int64 // see BatchCPU
}

func init() {
	adapter.RegisterInProcess(func(name string, c contract.Contract) (adapter.Adapter, error) { return NewFor(name, c) })
}

// New returns the in-process Go adapter under the given name ("go" if
// empty), following this project's contract (contract.Default).
func New(name string) *Go {
	if name == "" {
		name = "go"
	}
	return &Go{name: name, contract: contract.Default.Name, call: wire.Plain(worker.Func)}
}

// NewFor returns the in-process Go adapter following the contract c, so
// that a run judged by c (the driver's -contract) asks the Go
// implementation of that contract. It fails when c fails its Check.
func NewFor(name string, c contract.Contract) (*Go, error) {
	fn, err := worker.FuncFor(c)
	if err != nil {
		return nil, fmt.Errorf("inprocess: %w", err)
	}
	g := New(name)
	g.contract, g.call = c.Name, wire.Plain(fn)
	return g, nil
}

// Contract is the name of the contract the adapter follows.
func (g *Go) Contract() string { return g.contract }

// Name implements adapter.Adapter.
func (g *Go) Name() string { return g.name }

// Hello implements adapter.Adapter.
func (g *Go) Hello() wire.Hello { return worker.Hello() }

// RunBatch implements adapter.Adapter. A panic inside the implementation is caught
// per case and answered as an internal error, as a worker would: both run
// wire.Answer, the kit's answer to one case (the exact model converts
// nothing, so the implementation is called as a worker calls it).
func (g *Go) RunBatch(ctx context.Context, b *adapter.Batch, out []wire.Result) error {
	if !b.DigestOnly {
		return g.Run(ctx, b.Cases, out)
	}
	// Digests only: the texts go to one reused buffer, and the digests
	// share one allocation per batch, instead of one of each per case.
	s := scratch.Get().(*wire.Scratch)
	defer scratch.Put(s)
	// Locked to its thread, the goroutine can time itself by the thread's
	// CPU clock, which the rest of the driver does not move.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := procstat.ThreadCPU()
	for i, c := range b.Cases {
		out[i] = wire.Answer(g.call, c, true, s)
	}
	g.batchCPU.Add(int64(procstat.ThreadCPU() - start))
	return ctx.Err()
}

// BatchCPU implements adapter.Adapter: the thread CPU time of the digest-only
// batches, a run's whole load (there is nothing to decode in process). The
// few batches asked again with text are left out.
func (g *Go) BatchCPU() time.Duration { return time.Duration(g.batchCPU.Load()) }

// scratch holds wire.Answer's reused memory for digest-only batches; the Go
// adapter is shared by the lanes, so it cannot live in it.
var scratch = sync.Pool{New: func() any { return new(wire.Scratch) }}

// Run is RunBatch over plain cases.
func (g *Go) Run(ctx context.Context, cases []any, out []wire.Result) error {
	for i, c := range cases {
		out[i] = wire.Answer(g.call, c, false, nil)
	}
	return ctx.Err()
}

// Compute is one case through the Go implementation under this project's
// contract, as a worker answers it.
func Compute(c any) wire.Result { return wire.Answer(plain, c, false, nil) }

// plain is the Go implementation under this project's contract as a worker
// calls it.
var plain = wire.Plain(worker.Func)

// Bench implements adapter.Adapter by timing in this process what a run's
// digest-only batches cost (see RunBatch). There is no decoding in process,
// so the decode-inclusive times are the same loop.
func (g *Go) Bench(ctx context.Context, cases []any, rounds int) (wire.BenchTimes, error) {
	s := new(wire.Scratch)
	cpu, start := procstat.SelfCPU(), time.Now()
	for r := 0; r < rounds; r++ {
		for _, c := range cases {
			wire.Answer(g.call, c, true, s)
		}
	}
	t := wire.BenchTimes{Count: uint64(rounds * len(cases)), ElapsedNS: uint64(time.Since(start)), CPUNS: uint64(procstat.SelfCPU() - cpu)}
	t.DecodeElapsedNS, t.DecodeCPUNS = t.ElapsedNS, t.CPUNS
	return t, ctx.Err()
}

// Close implements adapter.Adapter.
func (g *Go) Close() error { return nil }
