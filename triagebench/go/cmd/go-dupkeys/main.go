// Go-dupkeys is impl.DupKeys as a difffuzz worker in the text model.
package main

import (
	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/triagebench/go/impl"
)

func main() {
	kit.Main(kit.Options{Name: "go-dupkeys", Version: "0.1.0"}, kit.Text, impl.DupKeys)
}
