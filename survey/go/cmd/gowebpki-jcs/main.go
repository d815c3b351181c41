// Gowebpki-jcs serves github.com/gowebpki/jcs (RFC 8785) to the survey, as
// an SDK would use it: encoding/json writes the map[string]any, and
// jcs.Transform canonicalizes that text.
package main

import (
	"encoding/json"

	"github.com/difffuzz/difffuzz/survey/go/internal/modver"
	"github.com/gowebpki/jcs"

	"github.com/difffuzz/difffuzz/kits/go/kit"
)

func main() {
	opts := kit.Options{Name: "gowebpki/jcs", Version: modver.Of("github.com/gowebpki/jcs")}
	kit.Main(opts, kit.Native(kit.Float64), func(dst []byte, v any) ([]byte, error) {
		text, err := json.Marshal(v) // NaN and ±Inf fail here: internal results
		if err != nil {
			return nil, err
		}
		out, err := jcs.Transform(text)
		return append(dst, out...), err
	})
}
