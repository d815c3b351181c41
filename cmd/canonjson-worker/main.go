// Canonjson-worker serves the Go canonical JSON package over the adapter
// protocol (docs/adapter-protocol.md), out of process, on the Go worker kit.
// It exists to show that the protocol carries everything the in-process path
// does: difffuzz can run it beside the in-process "go" adapter, and any
// difference is a protocol bug.
package main

import (
	"github.com/difffuzz/difffuzz/adapters/go/worker"
	"github.com/difffuzz/difffuzz/kits/go/kit"
)

func main() { kit.Main(worker.Options, worker.Func) }
