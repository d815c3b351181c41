package kit

import (
	"bufio"
	"fmt"
	"slices"
	"time"

	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// server is one worker's loop state; every buffer in it is reused between
// frames, so a long run makes no garbage per batch beyond the results.
type server struct {
	out     *bufio.Writer
	enc     *wire.Encoder
	dec     *wire.Decoder
	hello   wire.Hello
	call    wire.Call // the model's conversion and the implementation
	msg     wire.Message
	results []wire.Result
	scratch wire.Scratch
	// refusal, if not "", is every case's internal result: a text model
	// on a channel where the driver sends values (textNeedsDriver).
	refusal string
}

// newServer serves fn, behind the model m, on ch.
func newServer[T any, O Output](ch Channel, opts Options, m Model[T], fn func(dst []byte, v T) (O, error)) *server {
	h := hello(opts, m.Name(), m.Reasons(), ch.Protocol)
	return &server{out: bufio.NewWriterSize(ch.Out, 1<<16), enc: wire.NewEncoder(), dec: wire.NewDecoder(),
		hello: h, call: call(m, fn), refusal: textNeedsDriver(m, h)}
}

// compute is one case through the server's implementation.
func (s *server) compute(c any, digestOnly bool) wire.Result {
	if s.refusal != "" {
		return wire.Result{Error: wire.ErrorInternal, Message: s.refusal}
	}
	return wire.Answer(s.call, c, digestOnly, &s.scratch)
}

// send writes one encoded frame and flushes it: the driver waits for it.
func (s *server) send(frame []byte, err error) error {
	if err != nil {
		return err
	}
	if _, err := s.out.Write(frame); err != nil {
		return err
	}
	return s.out.Flush()
}

// handle answers one request frame. Only a failure to write is an error: a
// request that cannot be read is answered with an error response.
func (s *server) handle(body []byte) error {
	start := selfCPU()
	if err := s.dec.Decode(body, &s.msg); err != nil {
		return s.send(s.enc.Error(0, err.Error()))
	}
	switch s.msg.Type {
	case wire.TypeBatch:
		return s.batch(start)
	case wire.TypeBench:
		return s.bench(body)
	}
	return s.send(s.enc.Error(s.msg.ID, fmt.Sprintf("unknown request type %q", s.msg.Type)))
}

// batch answers a batch request whose decoding began at start (this
// process's CPU clock), and says what it cost from there (batch_cpu_ns).
func (s *server) batch(start time.Duration) error {
	cases := s.msg.Cases
	s.results = slices.Grow(s.results[:0], len(cases))[:len(cases)]
	for i, c := range cases {
		s.results[i] = s.compute(c, s.msg.DigestOnly)
	}
	cpu := max(selfCPU()-start, 1) // 0 would say "not timed"
	frame, err := s.enc.TimedResults(s.msg.ID, s.results, uint64(cpu))
	if err != nil { // a response over the cap: say so, keep serving
		frame, err = s.enc.Error(s.msg.ID, fmt.Sprintf("results: %v", err))
	}
	return s.send(frame, err)
}

// bench times the implementation alone, then decoding included, each by
// the wall clock and by this process's CPU clock.
func (s *server) bench(body []byte) error {
	id, rounds, cases := s.msg.ID, s.msg.Rounds, s.msg.Cases
	t := wire.BenchTimes{Count: uint64(rounds * len(cases))}
	t.ElapsedNS, t.CPUNS = timed(func() {
		for range rounds {
			for _, c := range cases {
				s.compute(c, true)
			}
		}
	})
	body = slices.Clone(body) // the frame reader reuses its buffer
	var msg wire.Message
	t.DecodeElapsedNS, t.DecodeCPUNS = timed(func() {
		for range rounds {
			if s.dec.Decode(body, &msg) != nil {
				return
			}
			for _, c := range msg.Cases {
				s.compute(c, true)
			}
		}
	})
	return s.send(s.enc.BenchResult(id, t))
}

// timed runs f and returns its wall and CPU time in nanoseconds.
func timed(f func()) (wallNS, cpuNS uint64) {
	cpu, start := selfCPU(), time.Now()
	f()
	return uint64(time.Since(start)), uint64(selfCPU() - cpu)
}
