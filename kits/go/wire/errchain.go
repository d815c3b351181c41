package wire

import "fmt"

// maxChain bounds an error's chain: a wrapper that wraps itself (a bug of
// the SDK's) must not hang the worker.
const maxChain = 64

// errorChain is err's chain of wrapped errors, outermost first, as
// ErrorType reads it. It follows Unwrap() error, as errors.Unwrap does,
// and also Unwrap() []error (fmt.Errorf with several %w, errors.Join),
// which errors.Unwrap does not: there it goes on into the first wrapped
// error whose own chain holds more than a message (see plainErrors), else
// into the first, so that fmt.Errorf("%w: %w", errBad, &json.SyntaxError{})
// names the syntax error as a single %w would.
func errorChain(err error) []error {
	var chain []error
	for err != nil && len(chain) < maxChain {
		chain = append(chain, err)
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			err = firstTyped(u.Unwrap())
		default:
			err = nil
		}
	}
	return chain
}

// firstTyped is the first of errs whose chain holds an error of a type of
// its own, else the first of errs (nil for none).
func firstTyped(errs []error) error {
	for _, e := range errs {
		for _, c := range errorChain(e) {
			if !plainErrors[fmt.Sprintf("%T", c)] {
				return e
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs[0]
}
