// Mutant serves one of the mutant zoo's one-bug implementations of canonical
// JSON as a difffuzz worker (docs/adapter-protocol.md), on the Go worker kit:
//
//	mutant NAME     serve mutant NAME on stdin and stdout ("ok": no bug)
//	mutant A+B+...  serve one implementation with the bugs of A, B, ... at once
//	mutant -list    print NAME<TAB>description for every mutant
//
// Hunt one with difffuzz against the in-process Go implementation:
//
//	difffuzz run -adapters go,mutant -adapter 'mutant=bin/mutant utf16-key-order' -duration 60s
//
// `make mutants` (cmd/mutanthunt) hunts them all. The zoo itself is
// package zoo (adapters/go/zoo).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/difffuzz/difffuzz/adapters/go/zoo"
	"github.com/difffuzz/difffuzz/kits/go/kit"
)

func main() {
	list := flag.Bool("list", false, "print NAME<TAB>description for every mutant")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: mutant NAME[+NAME...] | mutant -list")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *list {
		for _, m := range zoo.Mutants {
			fmt.Printf("%s\t%s\n", m.Name, m.Desc)
		}
		return
	}
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	m, err := zoo.Combine(strings.Split(flag.Arg(0), "+")...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mutant: %v\n", err)
		os.Exit(2)
	}
	kit.Main(kit.Options{Name: "mutant-" + m.Name, Version: "0"}, kit.Exact, m.Func())
}
