// Package tomlstrict decodes the project's TOML files (difffuzz.toml, a
// contract file) strictly: a key the schema does not declare is an error, as
// a misspelt key silently ignored would leave a user wondering why a setting
// did nothing. Errors start with "LINE:COL: " (or a space, when TOML gives
// no position) so that a caller can prefix the file's path and a colon.
package tomlstrict

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Decode decodes data into v, refusing unknown keys.
func Decode(data []byte, v any) error {
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return describe(err)
	}
	return nil
}

// describe renders a decoding error as "LINE:COL: what".
func describe(err error) error {
	var de *toml.DecodeError
	var sm *toml.StrictMissingError
	switch {
	case errors.As(err, &sm) && len(sm.Errors) > 0:
		e := sm.Errors[0]
		row, col := e.Position()
		return fmt.Errorf("%d:%d: unknown key %q", row, col, strings.Join(e.Key(), "."))
	case errors.As(err, &de):
		row, col := de.Position()
		return fmt.Errorf("%d:%d: %s", row, col, de.Error())
	}
	return fmt.Errorf(" %w", err)
}
