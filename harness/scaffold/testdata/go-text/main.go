// Text is a difffuzz worker for Go's naive baseline in the text model: the
// case arrives as JSON text, as a tool call's arguments do, and is read by
// json.Unmarshal into an any (numbers as float64, the last repeated key
// kept) before encoding/json writes it, as an SDK that parses its input
// would.
package main

import (
	"encoding/json"
	"runtime"

	"github.com/difffuzz/difffuzz/kits/go/kit"
)

func main() {
	opts := kit.Options{Name: "encoding-json-text", Version: runtime.Version()}
	kit.Main(opts, kit.Text, func(dst, text []byte) ([]byte, error) {
		var x any
		if err := json.Unmarshal(text, &x); err != nil {
			return dst, err
		}
		b, err := json.Marshal(x)
		return append(dst, b...), err
	})
}
