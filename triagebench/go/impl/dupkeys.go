package impl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// DupKeys is the SDK that refuses a repeated key itself, as a Go JCS
// library does, while it reads a tool call's arguments token by token
// (json.Decoder, UseNumber): its error is a plain fmt.Errorf that names
// the key as it read it, unquoted ("Duplicate key: a b"), no type, no spec
// code, a new message for every key. What it accepts it writes back as
// Offsets does: keys sorted, strings through json.Marshal, numbers as the
// text spelled them; a syntax error is encoding/json's own.
func DupKeys(dst, text []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	v, err := readValue(dec)
	if err != nil {
		return dst, err
	}
	return appendDecoded(dst, v)
}

// readValue reads the next value of dec, refusing an object's repeated key.
func readValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err == io.EOF {
		return nil, io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		return readObject(dec)
	case json.Delim('['):
		return readArray(dec)
	}
	return tok, nil
}

// readObject reads an object's members after its '{'.
func readObject(dec *json.Decoder) (any, error) {
	obj := map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string) // the decoder gives an object's keys as strings
		if _, ok := obj[key]; ok {
			//lint:ignore ST1005 the library's own words, capital and all
			return nil, fmt.Errorf("Duplicate key: %s", key)
		}
		if obj[key], err = readValue(dec); err != nil {
			return nil, err
		}
	}
	_, err := dec.Token() // '}'
	return obj, err
}

// readArray reads an array's elements after its '['.
func readArray(dec *json.Decoder) (any, error) {
	arr := []any{}
	for dec.More() {
		v, err := readValue(dec)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
	_, err := dec.Token() // ']'
	return arr, err
}
