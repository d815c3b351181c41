package kit

import "github.com/difffuzz/difffuzz/kits/go/wire"

// Call is fn behind m as a worker calls it (wire.Answer's Call), for the
// tests of package kit_test; it is no export of the kit's.
func Call[T any, O Output](m Model[T], fn func(dst []byte, v T) (O, error)) wire.Call {
	return call(m, fn)
}

// Compute is one case through fn behind m, as a worker answers it.
func Compute[T any, O Output](m Model[T], fn func(dst []byte, v T) (O, error), v any, digestOnly bool, s *wire.Scratch) wire.Result {
	return wire.Answer(call(m, fn), v, digestOnly, s)
}
