package kit_test

import (
	"encoding/json"
	"runtime"

	"github.com/difffuzz/difffuzz/kits/go/kit"
	"lukechampine.com/blake3"
)

// mysdk stands for a team's SDK in the examples: the package doc's samples
// call it by that name.
var mysdk sdk

type sdk struct{}

// Canonical is the SDK's canonical text of v, a value as encoding/json
// decodes it.
func (sdk) Canonical(v any) ([]byte, error) { return json.Marshal(v) }

// AppendCanonicalText appends the canonical text of the JSON text in, which
// the SDK parses itself.
func (sdk) AppendCanonicalText(dst, in []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(in, &v); err != nil {
		return dst, err
	}
	b, err := json.Marshal(v)
	return append(dst, b...), err
}

// Sign is the SDK's canonical text of v and its own BLAKE3 digest of it.
func (sdk) Sign(v any) (text, digest []byte, err error) {
	text, err = json.Marshal(v)
	sum := blake3.Sum256(text)
	return text, sum[:], err
}

// A worker of an SDK that takes what encoding/json decodes: the package
// doc's first sample. (Examples without output are compiled, not run: Main
// serves until the driver closes its input.)
func Example() {
	kit.Main(kit.Options{Name: "my-sdk", Version: "1.2.0"}, kit.Native(kit.Float64),
		func(dst []byte, v any) ([]byte, error) {
			b, err := mysdk.Canonical(v)
			return append(dst, b...), err
		})
}

// A worker of the text model is handed the case as a []byte of JSON text,
// which its SDK parses itself: the package doc's second sample.
func ExampleMain_text() {
	opts := kit.Options{Name: "my-sdk", Version: "1.2.0"}
	kit.Main(opts, kit.Text, func(dst, text []byte) ([]byte, error) {
		return mysdk.AppendCanonicalText(dst, text)
	})
}

// A signing SDK returns its text with its own digest of it: the package
// doc's third sample.
func ExampleMain_signed() {
	opts := kit.Options{Name: "my-sdk", Version: "1.2.0"}
	kit.Main(opts, kit.Exact, func(dst []byte, v any) (kit.Signed, error) {
		text, digest, err := mysdk.Sign(v)
		return kit.Signed{Canonical: append(dst, text...), Digest: digest}, err
	})
}

// The Go sample of docs/your-sdk.md (kits/go/example/main.go): Go's naive
// baseline, encoding/json on the map[string]any an SDK decodes, in the
// native model.
func ExampleMain_encodingJSON() {
	opts := kit.Options{Name: "encoding-json", Version: runtime.Version()}
	kit.Main(opts, kit.Native(kit.Float64), func(dst []byte, v any) ([]byte, error) {
		b, err := json.Marshal(v)
		return append(dst, b...), err
	})
}

// A spec error is the spec's answer for a case, by its code: the same name
// in every kit.
func ExampleSpecError() {
	opts := kit.Options{Name: "my-sdk", Version: "1.2.0"}
	kit.Main(opts, kit.Exact, func(dst []byte, v any) ([]byte, error) {
		if o, ok := v.(kit.Object); ok && len(o) > 1 && o[0].Key == o[1].Key {
			return dst, &kit.SpecError{Code: "duplicate_key", Message: "key " + o[0].Key + " is repeated"}
		}
		return append(dst, "null"...), nil
	})
}
