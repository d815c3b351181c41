// Command jcsnumbers checks the Go implementation's number text against
// Node's String(x), the ECMAScript Number::toString that RFC 8785 §3.2.2.3
// and this project's spec (docs/canonical-json.md §4.5) require, over many
// doubles: every boundary class (powers of ten around the layout switches
// at 1e-7 and 1e21, every power of two, subnormals, the largest and
// smallest doubles, integers around 2^53, with their neighbours, both
// signs) and then random bit patterns up to -n in all.
//
//	go run ./adapters/go/jcsnumbers [-n 10000000] [-seed S] [-node node]
//
// The doubles stream to a node process (tostring.mjs, embedded) as 8-byte
// little-endian words while a goroutine reads its lines back and compares
// each with canonjson's text, so both sides work at once and nothing is
// held in memory but the doubles in flight. It prints one summary line and
// the first mismatches, and exits 1 if there is any. `make jcs-numbers`
// runs it; it is not part of make test (it needs node and takes seconds).
package main

import (
	"bufio"
	_ "embed"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"time"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
)

//go:embed tostring.mjs
var toStringJS string

// config is the command line.
type config struct {
	n      int    // doubles in all, boundary classes included
	seed   uint64 // of the random bit patterns; printed, so a run can be repeated
	node   string // the node binary
	stdout io.Writer
}

func main() {
	c := config{stdout: os.Stdout}
	flag.IntVar(&c.n, "n", 10_000_000, "doubles to check in all (the boundary classes first, then random bit patterns)")
	flag.Uint64Var(&c.seed, "seed", uint64(time.Now().UnixNano()), "seed of the random bit patterns")
	flag.StringVar(&c.node, "node", "node", "the node binary")
	flag.Parse()
	mismatches, err := run(c)
	if err != nil {
		fmt.Fprintf(os.Stderr, "jcs-numbers: %v\n", err)
		os.Exit(2)
	}
	if mismatches > 0 {
		os.Exit(1)
	}
}

// run streams the doubles through node and compares; it returns the count
// of mismatches.
func run(c config) (int, error) {
	boundary := boundaryDoubles()
	if c.n < len(boundary) {
		c.n = len(boundary)
	}
	cmd := exec.Command(c.node, "--input-type=module", "--eval", toStringJS)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("start node: %w", err)
	}
	// The doubles in flight, in order: more than write's buffer holds, so
	// that node always has what compare waits for.
	doubles := make(chan float64, 8*writeBuffer/8)
	type verdict struct {
		mismatches int
		err        error
	}
	done := make(chan verdict, 1)
	go func() {
		m, err := compare(out, doubles, c.stdout)
		done <- verdict{m, err}
	}()
	werr := write(in, doubles, boundary, c.n, c.seed)
	v := <-done
	werr = errors.Join(werr, cmd.Wait())
	if err := errors.Join(werr, v.err); err != nil {
		return v.mismatches, err
	}
	version, _ := exec.Command(c.node, "--version").Output()
	fmt.Fprintf(c.stdout, "jcs-numbers: %d doubles (%d boundary, %d random, seed %d) against node %s String(x): %d mismatches, %.1fs\n",
		c.n, len(boundary), c.n-len(boundary), c.seed, strings.TrimSpace(string(version)), v.mismatches, time.Since(start).Seconds())
	return v.mismatches, nil
}

// writeBuffer is the bytes of doubles written to node at once.
const writeBuffer = 64 << 10

// write sends the boundary doubles, then random bit patterns up to n in
// all, to node's stdin and, in the same order, to doubles for compare.
func write(in io.WriteCloser, doubles chan<- float64, boundary []float64, n int, seed uint64) error {
	defer close(doubles)
	w := bufio.NewWriterSize(in, writeBuffer)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var word [8]byte
	for i := range n {
		var x float64
		if i < len(boundary) {
			x = boundary[i]
		} else {
			x = math.Float64frombits(rng.Uint64())
		}
		binary.LittleEndian.PutUint64(word[:], math.Float64bits(x))
		if _, err := w.Write(word[:]); err != nil {
			return fmt.Errorf("write to node: %w", err)
		}
		doubles <- x
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write to node: %w", err)
	}
	return in.Close()
}

// compare reads node's lines and checks each against canonjson's text of
// the next double; it prints the first mismatches.
func compare(out io.Reader, doubles <-chan float64, report io.Writer) (int, error) {
	lines := bufio.NewScanner(bufio.NewReaderSize(out, 1<<20))
	var buf []byte
	mismatches := 0
	for x := range doubles {
		if !lines.Scan() {
			for range doubles { // let write finish; node's error explains
			}
			return mismatches, fmt.Errorf("node's output ended early: %v", lines.Err())
		}
		var err error
		buf, err = canonjson.AppendCanonicalValue(buf[:0], x)
		if err != nil {
			return mismatches, fmt.Errorf("canonjson rejected %v: %w", x, err)
		}
		if want := lines.Bytes(); string(buf) != string(want) {
			mismatches++
			if mismatches <= 10 {
				fmt.Fprintf(report, "mismatch: bits %016x: canonjson %s, node %s\n", math.Float64bits(x), buf, want)
			}
		}
	}
	if lines.Scan() {
		return mismatches, fmt.Errorf("node wrote more lines than doubles sent: %q", lines.Text())
	}
	return mismatches, nil
}

// boundaryDoubles are the doubles where Number::toString's layout or the
// shortest digits are hardest, each with its neighbours, both signs.
func boundaryDoubles() []float64 {
	var xs []float64
	near := func(x float64, k int) { // x and k neighbours on each side
		xs = append(xs, x)
		lo, hi := x, x
		for range k {
			lo, hi = math.Nextafter(lo, math.Inf(-1)), math.Nextafter(hi, math.Inf(1))
			xs = append(xs, lo, hi)
		}
	}
	for e := -325; e <= 309; e++ { // d * 10^e: every digit, every power of ten
		for d := 1.0; d <= 9; d++ {
			near(d*math.Pow(10, float64(e)), 4)
		}
	}
	for _, x := range []float64{1e-7, 1e-6, 1e20, 1e21, 1e22} { // the layout switches
		near(x, 2000)
	}
	for e := -1074; e <= 1023; e++ { // every power of two, subnormal ones too
		near(math.Ldexp(1, e), 2)
	}
	near(1<<53, 2000) // where integers stop being exact
	near(1<<54, 100)
	for m := uint64(1); m <= 2000; m++ { // the smallest subnormals, the largest ones
		xs = append(xs, math.Float64frombits(m), math.Float64frombits(1<<52-m))
	}
	near(math.SmallestNonzeroFloat64, 10)
	near(0x1p-1022, 100) // the smallest normal
	near(math.MaxFloat64, 100)
	xs = append(xs, 0, math.Inf(1), math.NaN())
	n := len(xs)
	for _, x := range xs[:n] {
		xs = append(xs, -x)
	}
	return xs
}
