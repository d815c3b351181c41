package adapter

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	canonjson "difffuzz/adapters/go"
	"difffuzz/harness/wire"
)

// GoVersion is the version the in-process adapter reports; the Go package is
// built into the driver, so it is the driver's own version.
const GoVersion = "0.1.0"

// Go is the in-process adapter for the Go implementation. It is safe for
// concurrent use: it keeps no state.
type Go struct{ name string }

// NewGo returns the in-process Go adapter under the given name ("go" if empty).
func NewGo(name string) *Go {
	if name == "" {
		name = "go"
	}
	return &Go{name: name}
}

// Name implements Adapter.
func (g *Go) Name() string { return g.name }

// Hello implements Adapter.
func (g *Go) Hello() wire.Hello {
	return wire.Hello{Protocol: wire.ProtocolVersion, Language: "go", Name: "canonjson-go", Version: GoVersion}
}

// RunBatch implements Adapter. A panic inside the implementation is caught
// per case and answered as an internal error, as a worker would.
func (g *Go) RunBatch(ctx context.Context, b *Batch, out []wire.Result) error {
	if !b.DigestOnly {
		return g.Run(ctx, b.Cases, out)
	}
	// Digests only: the texts go to one reused buffer instead of one
	// allocation per case, and the digests share one allocation per batch.
	buf := scratch.Get().(*[]byte)
	defer scratch.Put(buf)
	digests := make([]byte, len(b.Cases)*wire.DigestSize)
	for i, c := range b.Cases {
		d := digests[i*wire.DigestSize : (i+1)*wire.DigestSize : (i+1)*wire.DigestSize]
		out[i] = computeDigest(c, buf, d)
	}
	return ctx.Err()
}

// scratch holds the canonical-text buffers of digest-only batches; the Go
// adapter is shared by the lanes, so the buffers cannot live in it.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

// maxScratch is the largest buffer put back for reuse, so that one huge
// case does not pin its text for the rest of the run.
const maxScratch = 1 << 20

// computeDigest is Compute keeping only the digest, written to d.
func computeDigest(c any, buf *[]byte, d []byte) (r wire.Result) {
	defer internalOnPanic(&r)
	text, err := canonjson.AppendCanonical((*buf)[:0], c)
	if cap(text) <= maxScratch {
		*buf = text
	}
	if err != nil {
		return errorResult(err)
	}
	sum := canonjson.Digest(text)
	copy(d, sum[:])
	return wire.Result{Digest: d}
}

// internalOnPanic, deferred, answers a panic of the implementation as an
// internal error result, as a worker's loop would.
func internalOnPanic(r *wire.Result) {
	if p := recover(); p != nil {
		*r = wire.Result{Error: wire.ErrorInternal, Message: fmt.Sprintf("panic: %v\n%s", p, debug.Stack())}
	}
}

func errorResult(err error) wire.Result {
	code := wire.ErrorInternal
	if ce, ok := err.(*canonjson.Error); ok {
		code = string(ce.Code)
	}
	return wire.Result{Error: code, Message: err.Error()}
}

// Run is RunBatch over plain cases.
func (g *Go) Run(ctx context.Context, cases []any, out []wire.Result) error {
	for i, c := range cases {
		out[i] = Compute(c)
	}
	return ctx.Err()
}

// Compute is one case through the Go implementation, as a worker answers it.
func Compute(c any) (r wire.Result) {
	defer internalOnPanic(&r)
	b, err := canonjson.Canonical(c)
	if err != nil {
		return errorResult(err)
	}
	d := canonjson.Digest(b)
	return wire.Result{Canonical: b, Digest: d[:]}
}

// Bench implements Adapter by timing Compute in this process.
func (g *Go) Bench(ctx context.Context, cases []any, rounds int) (time.Duration, uint64, error) {
	start := time.Now()
	for r := 0; r < rounds; r++ {
		for _, c := range cases {
			Compute(c)
		}
	}
	return time.Since(start), uint64(rounds * len(cases)), ctx.Err()
}

// Close implements Adapter.
func (g *Go) Close() error { return nil }
