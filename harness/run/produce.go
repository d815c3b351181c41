package run

import (
	"context"
	"sync"

	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/gen"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// batch is a run of consecutive case numbers of this shard.
type batch struct {
	n       uint64 // the batch's number: it holds cases n*Batch onward
	indexes []uint64
	cases   []any
	classes []gen.Classes
	cov     gen.Coverage   // the (class × context) cells its cases hit
	wire    *adapter.Batch // the cases as sent, digest-only, encoded by the producer
	held    int64          // bytes it counts against the memory budget (memory.go)
}

// producers is how many goroutines generate batches ahead of the lanes.
const producers = 2

// produce generates batches off the lanes' goroutines, so that no worker
// waits while its next batch is made; the channel is closed when the case
// count is reached or ctx ends. It is unbuffered: each producer holds the
// batch it made until a lane takes it, which is ahead enough (a batch takes
// a producer a tenth of the time it takes a lane), and at most a batch per
// lane and per producer is alive, which bounds the driver's memory.
func (r *runner) produce(ctx context.Context) <-chan batch {
	out := make(chan batch)
	r.storage = make(chan []byte, len(r.lanes)+producers)
	var wg sync.WaitGroup
	for range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				n := r.next.Add(1) - 1
				if r.nbatch > 0 && n >= r.nbatch {
					return
				}
				b := r.makeBatch(n)
				if !r.mem.hold(ctx, &b) {
					return
				}
				select {
				case out <- b:
				case <-ctx.Done():
					r.mem.pool.Release(b.held)
				}
			}
		}()
	}
	go func() { wg.Wait(); close(out) }()
	return out
}

// makeBatch generates batch n: this shard's case numbers n*Batch.. onward.
func (r *runner) makeBatch(n uint64) batch {
	size := uint64(r.cfg.Batch)
	first := n * size
	if r.cfg.Cases > 0 && first+size > r.cfg.Cases {
		size = r.cfg.Cases - first
	}
	b := batch{n: n, indexes: make([]uint64, size), cases: make([]any, size), classes: make([]gen.Classes, size)}
	// Each case is encoded as soon as it is made, while its values are
	// still in the caches (wire.CaseEncoder), here rather than on a lane,
	// and on a long-lived goroutine whose stack has already grown for the
	// deepest cases. An error shows when a worker asks for the encoding.
	enc := wire.NewCaseEncoder(r.takeStorage(), int(size))
	for i := range b.cases {
		idx := (first+uint64(i))*r.cfg.Shards + r.cfg.Shard
		b.indexes[i] = idx
		var cells gen.Cells
		b.cases[i], b.classes[i], cells = r.gen.CaseCells(idx)
		enc.Add(b.cases[i], b.classes[i].ValidUTF8())
		b.cov.Add(&cells)
	}
	b.wire = &adapter.Batch{Cases: b.cases, DigestOnly: true}
	encoded, err := enc.Bytes()
	b.wire.UseEncoding(encoded, err)
	b.held = batchBytes(len(encoded))
	return b
}

// takeStorage is a finished batch's encoding buffer, or nil if none is
// free yet.
func (r *runner) takeStorage() []byte {
	select {
	case s := <-r.storage:
		return s
	default:
		return nil
	}
}

// recycle keeps a finished batch's encoding buffer for the next batch made,
// unless it is more than keepSlack times larger than this batch needed;
// b must not be sent again.
func (r *runner) recycle(b *adapter.Batch) {
	used, _ := b.Encoded()
	buf := b.Release()
	if cap(buf) > keepSlack*len(used) {
		return // grown by a batch of outliers: let it go
	}
	select {
	case r.storage <- buf:
	default: // as many spare as batches can be alive: let it go
	}
}

// keepSlack bounds a recycled buffer by the batch that used it last. Kept
// whatever their size, each of the buffers (one a lane and a producer)
// would grow, one batch of the largest cases at a time, to the largest
// batch of the run so far and stay live for the rest of it, live heap that
// the driver's GC percent of 400 lets stand five times over in its
// resident set. A buffer grows by doubling (bytes.Buffer), so a fit one can
// be up to about three times its batch.
const keepSlack = 4
