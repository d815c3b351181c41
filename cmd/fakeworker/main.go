// Fakeworker is a worker that misbehaves on cue, for the fault tests of the
// driver. It is the Go worker kit serving the Go implementation, with one
// deliberate fault: a spec bug in the implementation it hands the kit, or a
// tampering of the frames the kit writes, as its argument says.
//
// Usage: fakeworker MODE [MARK | SHARE]
//
//	ok            a correct worker
//	native        a correct worker on the kit's native model (map[string]any, integers as json.Number)
//	native-float64 the same with every number a float64, as encoding/json decodes into any: integers past ±2^53 are inexpressible too
//	keyorder      sorts object keys by UTF-16 code unit (the JavaScript trap)
//	number        prints floats of 1e21 and up without an exponent
//	stubborn      a correct worker that ignores SIGINT and does not exit when stdin closes
//	differ        answers every case with the same wrong text, so every case diverges
//	diverge SHARE answers about SHARE (0 to 1) of the cases with a wrong text, otherwise as ok
//	unique-errors fails every case with a message that names it in words no triage normalizes away,
//	              so every finding is a root cause of its own
//	crash MARK    exits with status 3 on a case whose text contains MARK
//	abort MARK    kills itself with SIGABRT on such a case
//	hang MARK     never answers a batch holding such a case
//	garbage       answers every batch with bytes that are not msgpack
//	exit-at-start exits with status 1 before its hello
//	bad-hello     says hello with protocol version 99
//	lie-digest    sends a digest that is not BLAKE3 of its output
//	wrong-id      answers with another id
//	wrong-count   answers with one result too few
//	oversized     answers with a frame length over the cap
//	truncated     answers with half a frame, then exits
//	overclaim     a native worker that calls every object inexpressible
//	text          a correct worker on the kit's text model (the spec's reader, then canonjson)
//	textclaim     a text worker that calls every object's repeated key inexpressible, as only a native model may
//	signed        a correct worker whose SDK returns its own digest (kit.Signed)
//	sign-astral   a signing SDK that hashes its (right) text with each escaped surrogate pair
//	              (a character past U+FFFF) unescaped to UTF-8
//	v1            a correct worker that says hello in protocol version 1 (no model, no batch_cpu_ns)
//	v2            a correct worker of protocol version 2: it ignores the driver's descriptors and serves on stdin and stdout
//	chatty        a correct worker that prints a line to stdout at start, and whose implementation prints
//	              a line to stdout and one to stderr on every case
//	v2-chatty     chatty in protocol version 2, so its lines break the frames on stdout
//	text-echo     a text worker whose "canonical text" is the JSON text it received, byte for byte
//	v3            a correct worker that says hello in protocol version 3 on the descriptors (no error_type, no frames)
//	v3-text       a text worker of protocol version 3: it gets values from the driver and spells them itself
//	quoting-panics panics on every case, in one of two functions chosen by a hash of the case, with a
//	              message that quotes the case ('\udcee', \', U+ code points): two places, a message a case
//
// With FAKEWORKER_SAYS=FILE in its environment (testworker.SaysEnv), the
// worker appends a line to FILE at the points of its life a test waits
// for: serving its first case, hanging, staying after its input ended.
//
// Every mode but v1, v2 and v2-chatty serves on the descriptors the driver
// offers (kit.OpenChannel), as the kit's workers do.
//
// The diverge mode is for measuring a run that finds divergences, as make
// bench does with 10% of its cases diverging: a run against it must judge,
// re-ask and bucket as it would against a real bug. Which cases diverge
// depends on the case alone (a hash of its extended JSON text), so a case
// diverges in every run, batch and retry. Its one bug is a space after the
// canonical text, of which the digest is taken as usual: every divergence
// has the signature "structure: whitespace where want the end of the text:
// NAME", one bucket. Only a text that is an
// object, an array or a string gets the space (after a number or a literal
// the difference would read as a number's); the share is of those cases,
// nearly all of the generator's. A case the reference rejects is rejected
// alike.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/difffuzz/difffuzz/adapters/go/worker"
	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: fakeworker MODE [MARK | SHARE]")
		os.Exit(2)
	}
	mode, arg := os.Args[1], ""
	if len(os.Args) > 2 {
		arg = os.Args[2]
	}
	os.Exit(serve(mode, arg))
}

// serve runs the worker of mode; arg is its MARK or SHARE.
func serve(mode, arg string) int {
	if mode == "diverge" {
		return serveDiverging(arg)
	}
	mark := arg
	switch mode {
	case "exit-at-start":
		fmt.Fprintln(os.Stderr, "fakeworker: refusing to start")
		return 1
	case "stubborn":
		signal.Ignore(syscall.SIGINT, syscall.SIGTERM)
	}
	opts := worker.Options
	opts.Name, opts.Version = "fakeworker-"+mode, "0.0.1"
	// The model of values, or textModel for the modes of the text model,
	// whose function takes the case's JSON text.
	model, textModel := worker.Model, kit.Model[[]byte](nil)
	switch mode {
	case "native":
		model = kit.Native(kit.JSONNumber)
	case "native-float64":
		model = kit.Native(kit.Float64)
	case "overclaim":
		model = overclaim{kit.Native(kit.JSONNumber)}
	case "text", "text-echo":
		textModel = kit.Text
	case "textclaim":
		textModel = textclaim{kit.Text}
	case "v3-text":
		textModel = selfSpelled{}
	}
	fn, textFn := implementation(mode, mark), textFunc
	switch mode {
	case "native", "native-float64", "overclaim":
		fn = nativeFunc
	case "text-echo":
		textFn = func(dst, text []byte) ([]byte, error) { return append(dst, text...), nil }
	case "quoting-panics":
		fn = quotingPanic
	}
	ch, err := channel(mode)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakeworker: %v\n", err)
		return 1
	}
	if mode == "chatty" {
		fmt.Println("debug: starting")
	}
	if tampers[mode] {
		ch.Out = &tamper{w: ch.Out, mode: mode}
	}
	var code int
	switch {
	case textModel != nil:
		code = kit.Serve(ch, os.Stderr, opts, textModel, textFn)
	case mode == "signed" || mode == "sign-astral":
		code = kit.Serve(ch, os.Stderr, opts, model, signer(mode, fn))
	default:
		code = kit.Serve(ch, os.Stderr, opts, model, fn)
	}
	if mode == "stubborn" {
		say("stubborn: input ended")
		time.Sleep(time.Hour)
	}
	return code
}

// parseShare reads diverge's SHARE, a fraction of the cases from 0 to 1.
func parseShare(s string) (float64, error) {
	share, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("share %q: %w", s, err)
	}
	if !(share >= 0 && share <= 1) {
		return 0, fmt.Errorf("share %v: want a fraction from 0 to 1", share)
	}
	return share, nil
}

// serveDiverging runs the diverge mode's worker over SHARE of the cases.
func serveDiverging(arg string) int {
	share, err := parseShare(arg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakeworker: diverge: %v\n", err)
		return 2
	}
	opts := worker.Options
	opts.Name, opts.Version = "fakeworker-diverge", "0.0.1"
	ch, err := channel("diverge")
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakeworker: %v\n", err)
		return 1
	}
	return kit.Serve(ch, os.Stderr, opts, worker.Model, diverging(share))
}

// channel is where mode serves: the driver's descriptors when it offers
// them, except for the modes of an older protocol, which know nothing of
// them.
func channel(mode string) (kit.Channel, error) {
	switch mode {
	case "v1", "v2", "v2-chatty":
		return kit.Channel{In: os.Stdin, Out: os.Stdout, Protocol: wire.ProtocolVersion}, nil
	}
	ch, err := kit.OpenChannel()
	if (mode == "v3" || mode == "v3-text") && ch.Protocol == wire.FDProtocolVersion {
		ch.Protocol = wire.OldestFDProtocol
	}
	return ch, err
}
