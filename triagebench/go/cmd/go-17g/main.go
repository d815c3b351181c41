// Go-17g is impl.Seventeen as a difffuzz worker in the native model, its
// integers as json.Number.
package main

import (
	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/triagebench/go/impl"
)

func main() {
	kit.Main(kit.Options{Name: "go-17g", Version: "0.1.0"}, kit.Native(kit.JSONNumber), impl.Seventeen)
}
