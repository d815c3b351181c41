// Go-dupkeys is impl.DupKeys as a difffuzz worker in the text model.
package main

import (
	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/triagebench/go/impl"
)

func main() {
	kit.Main(kit.Options{Name: "go-dupkeys", Version: "0.1.0", Model: kit.Text}, func(dst []byte, v any) ([]byte, error) {
		return impl.DupKeys(dst, v.([]byte))
	})
}
