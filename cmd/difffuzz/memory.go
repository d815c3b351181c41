package main

import (
	"flag"

	"github.com/difffuzz/difffuzz/internal/memlimit"
)

// maxMemoryFlag registers -max-memory on fs, its value in *bytes (left at
// 0 for "the default" unless the flag is given).
func maxMemoryFlag(fs *flag.FlagSet, bytes *int64) {
	fs.Func("max-memory", "the driver's memory budget, a `size` such as 1GiB or 512MiB (default "+memlimit.Size(memlimit.Default).String()+
		"; 0 or none: no budget): the Go runtime's memory limit, the batches and candidates held at once, and the resident set past which it stops and says so",
		func(s string) error {
			if s == "none" || s == "0" {
				*bytes = -1
				return nil
			}
			var z memlimit.Size
			if err := z.Set(s); err != nil {
				return err
			}
			*bytes = int64(z)
			return nil
		})
}
