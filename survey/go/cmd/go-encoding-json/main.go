// Go-encoding-json is the naive Go baseline of the survey: json.Marshal of a
// map[string]any, which sorts map keys, as a team might use it as its
// "canonical" JSON without a library.
package main

import (
	"encoding/json"
	"runtime"

	"github.com/difffuzz/difffuzz/kits/go/kit"
)

func main() {
	opts := kit.Options{Name: "encoding/json", Version: runtime.Version()}
	kit.Main(opts, kit.Native(kit.Float64), func(dst []byte, v any) ([]byte, error) {
		out, err := json.Marshal(v)
		return append(dst, out...), err
	})
}
