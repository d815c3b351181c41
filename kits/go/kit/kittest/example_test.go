package kittest_test

import (
	"encoding/json"
	"fmt"

	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/kits/go/kit/kittest"
)

// A team's test asks its function what the driver would, and reads each
// answer as the driver does.
func ExampleRun() {
	canonical := func(dst []byte, v any) ([]byte, error) {
		b, err := json.Marshal(v)
		return append(dst, b...), err
	}
	answers, err := kittest.Run(kit.Native(kit.Float64), canonical,
		kit.Object{{Key: "b", Value: 1.0}, {Key: "a", Value: "x"}}, kit.Object{{Key: "k", Value: 1.0}, {Key: "k", Value: 2.0}})
	if err != nil {
		panic(err)
	}
	for _, a := range answers {
		if a.Inexpressible != "" {
			fmt.Println("inexpressible:", a.Inexpressible)
			continue
		}
		fmt.Printf("%s\n", a.Canonical)
	}
	// Output:
	// {"a":"x","b":1}
	// inexpressible: duplicate_key
}
