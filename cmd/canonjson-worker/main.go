// Canonjson-worker serves the Go canonical JSON package over the adapter
// protocol (docs/adapter-protocol.md), out of process, on the Go worker kit.
// It exists to show that the protocol carries everything the in-process path
// does: difffuzz can run it beside the in-process "go" adapter, and any
// difference is a protocol bug.
//
//	canonjson-worker [-contract NAME_OR_FILE]
//
// -contract makes it follow another contract (docs/canonical-json.md §7): a
// built-in (difffuzz, the default; rfc8785) or a contract file.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/difffuzz/difffuzz/adapters/go/worker"
	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/kits/go/kit"
)

func main() {
	name := flag.String("contract", "", "the contract to follow: a built-in's name or a contract file (default difffuzz)")
	flag.Parse()
	c, err := contract.Resolve(*name, ".")
	if err == nil {
		var fn kit.Func[[]byte]
		if fn, err = worker.FuncFor(c); err == nil {
			kit.Main(worker.Options, worker.Model, fn)
		}
	}
	fmt.Fprintf(os.Stderr, "canonjson-worker: %v\n", err)
	os.Exit(2)
}
