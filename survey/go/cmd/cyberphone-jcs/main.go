// Cyberphone-jcs serves the Go package of
// github.com/cyberphone/json-canonicalization (the RFC 8785 authors' own) to
// the survey: encoding/json writes the map[string]any, and
// jsoncanonicalizer.Transform canonicalizes that text.
package main

import (
	"encoding/json"

	"github.com/cyberphone/json-canonicalization/go/src/webpki.org/jsoncanonicalizer"
	"github.com/difffuzz/difffuzz/survey/go/internal/modver"

	"github.com/difffuzz/difffuzz/kits/go/kit"
)

func main() {
	opts := kit.Options{Name: "cyberphone/json-canonicalization", Version: modver.Of("github.com/cyberphone/json-canonicalization")}
	kit.Main(opts, kit.Native(kit.Float64), func(dst []byte, v any) ([]byte, error) {
		text, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out, err := jsoncanonicalizer.Transform(text)
		return append(dst, out...), err
	})
}
