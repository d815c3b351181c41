// Example is a difffuzz worker for Go's naive baseline, encoding/json on the
// map[string]any an SDK decodes, in the native model.
package main

import (
	"encoding/json"
	"runtime"

	"github.com/difffuzz/difffuzz/kits/go/kit"
)

func main() {
	opts := kit.Options{Name: "encoding-json", Version: runtime.Version()}
	kit.Main(opts, kit.Native(kit.Float64), func(dst []byte, v any) ([]byte, error) {
		b, err := json.Marshal(v)
		return append(dst, b...), err
	})
}
