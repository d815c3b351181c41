package adapter

import (
	"errors"
	"sync"

	"github.com/difffuzz/difffuzz/contract"
)

// inProcess makes the adapter of a Spec with InProcess set. Package
// inprocess registers it when it is linked in, so that this package, and the
// lanes above it, do not import the Go implementation under test.
var inProcess struct {
	sync.Mutex
	new func(name string, c contract.Contract) (Adapter, error)
}

// RegisterInProcess sets how NewInProcess makes the in-process adapter, the
// Go implementation following contract c; the package that holds it calls
// it from its init.
func RegisterInProcess(f func(name string, c contract.Contract) (Adapter, error)) {
	inProcess.Lock()
	defer inProcess.Unlock()
	inProcess.new = f
}

// errNoInProcess reports a program built without the in-process adapter.
var errNoInProcess = errors.New("no in-process adapter in this program (import github.com/difffuzz/difffuzz/harness/inprocess)")

// NewInProcess returns the in-process adapter (the Go implementation in the
// driver's process) under name, following this project's contract.
func NewInProcess(name string) (Adapter, error) {
	return NewInProcessFor(name, contract.Default)
}

// NewInProcessFor returns the in-process adapter following contract c (a
// zero Contract is this project's): the reference of a run judged by c.
func NewInProcessFor(name string, c contract.Contract) (Adapter, error) {
	inProcess.Lock()
	f := inProcess.new
	inProcess.Unlock()
	if f == nil {
		return nil, errNoInProcess
	}
	if c.Name == "" {
		c = contract.Default
	}
	return f(name, c)
}
