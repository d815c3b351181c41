// Package impl holds the triage benchmark's Go implementations of
// canonical JSON (docs/triage.md, "Triage benchmark"), written the way
// hand-rolled SDK code is written, bugs and all. They know nothing of the
// protocol: each has a worker of a few lines under triagebench/go/cmd. The
// bugs each one has are listed in triagebench/impls/NAME.toml.
package impl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// Offsets is the SDK that parses a tool call's arguments with a
// json.Decoder (UseNumber, so that integers stay exact) and writes them
// back with keys sorted and each string through json.Marshal. A syntax
// error is reported as its byte offset, as such SDKs do.
func Offsets(dst, text []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return dst, fmt.Errorf("invalid character at offset %d", syntax.Offset)
		}
		return dst, fmt.Errorf("decode arguments: %w", err)
	}
	return appendDecoded(dst, v)
}

// appendDecoded writes what encoding/json decoded with UseNumber.
func appendDecoded(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			kb, _ := json.Marshal(k) // a string always marshals
			dst = append(append(dst, kb...), ':')
			var err error
			if dst, err = appendDecoded(dst, v[k]); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case []any:
		dst = append(dst, '[')
		for i, x := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendDecoded(dst, x); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case json.Number:
		return append(dst, v...), nil // as the text spelled it
	default: // string, bool, nil
		b, err := json.Marshal(v)
		return append(dst, b...), err
	}
}
