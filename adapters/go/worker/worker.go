// Package worker joins the Go implementation of canonical JSON to the Go
// worker kit: how it presents itself and how the kit calls it. Both the
// out-of-process worker (cmd/canonjson-worker) and the driver's in-process
// adapter use it, so the two paths cannot answer differently. The library
// itself (package canonjson) knows nothing of the protocol.
package worker

import (
	"fmt"

	canonjson "github.com/difffuzz/difffuzz/adapters/go"
	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Version is the Go implementation's version, reported in its hello.
const Version = "0.1.0"

// Options is the Go implementation's hello, in the exact value model
// (Model).
var Options = kit.Options{Name: "canonjson-go", Version: Version, Language: "go"}

// Model is the value model the Go implementation takes: the exact one.
var Model = kit.Exact

// Hello is the hello the Go implementation's worker sends at protocol
// version 2 (on stdin and stdout), what the driver's in-process adapter
// says of itself.
func Hello() wire.Hello {
	return wire.Hello{Protocol: wire.ProtocolVersion, Language: Options.Language, Name: Options.Name,
		Version: Options.Version, Model: Model.Name(), Inexpressible: Model.Reasons()}
}

// Func is the Go implementation as the kit calls it, under this project's
// contract (contract.Default).
func Func(dst []byte, v any) ([]byte, error) { return canonjson.AppendCanonical(dst, v) }

// FuncFor is the Go implementation as the kit calls it, following the
// contract c: Func for contract.Default.
func FuncFor(c contract.Contract) (kit.Func[[]byte], error) {
	enc, err := canonjson.For(c)
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	return enc.AppendCanonical, nil
}
