package corpus

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"strconv"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"
)

// Marshal renders the entry as extended JSON, one field a line. An input
// that plain extended JSON cannot write (a non-string key; bin data, which
// only difffuzz's own reader takes as {"$bin": ...}) is kept losslessly as
// base64 msgpack in "input_msgpack", with "input" null and a rendering for
// people in "input_text".
func (e *Entry) Marshal() []byte {
	version := FormatVersion
	if e.Before != nil {
		version = SequenceVersion
	}
	b := []byte("{\n  \"" + formatKey + "\": " + strconv.Itoa(version))
	for i, c := range e.Before {
		b = writeInput(b, fmt.Sprintf("before_%d", i), c)
	}
	b = writeInput(b, "input", e.Input)
	b = field(b, "kind", e.Kind)
	b = field(b, "signature", e.Signatures.String())
	b = field(b, "contract", e.Contract)
	b = field(b, "contract_file", e.ContractFile)
	if e.Generated {
		b = fmt.Appendf(b, ",\n  \"seed\": %d,\n  \"index\": %d", e.Seed, e.Index)
	}
	b = field(b, "minimized_from", e.MinimizedFrom)
	b = outcomes(b, "outcomes", e.Outcomes)
	if e.Twin != nil {
		b = writeInput(b, "twin", e.Twin)
		if e.Generated {
			b = fmt.Appendf(b, ",\n  \"twin_index\": %d", e.TwinIndex)
		}
		b = outcomes(b, "twin_outcomes", e.TwinOutcomes)
	}
	b = outcomes(b, "earlier_outcomes", e.Earlier)
	return append(b, "\n}\n"...)
}

// writeInput writes the member name holding v, and, when extended JSON cannot
// write v, v as base64 msgpack in name_msgpack (name null) with a
// rendering for people in name_text.
func writeInput(b []byte, name string, v any) []byte {
	b = append(b, ",\n  \""+name+"\": "...)
	raw, ok := rawInput(v)
	if !ok {
		return value.AppendText(b, v)
	}
	b = append(b, "null"...)
	b = field(b, name+"_msgpack", raw)
	return field(b, name+"_text", string(value.AppendText(nil, v)))
}

// outcomes writes the member name holding each adapter's outcome, if any.
func outcomes(b []byte, name string, outs []Outcome) []byte {
	if len(outs) == 0 {
		return b
	}
	b = append(b, ",\n  \""+name+"\": {"...)
	for i, o := range outs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		b = value.AppendText(b, o.Adapter)
		b = append(b, ": "...)
		b = value.AppendText(b, o.object())
	}
	return append(b, "\n  }"...)
}

func field(b []byte, name, text string) []byte {
	if text == "" {
		return b
	}
	b = append(b, ",\n  \""+name+"\": "...)
	return value.AppendText(b, text)
}

func (o Outcome) object() value.Object {
	var obj value.Object
	for _, kv := range [][2]string{{"impl", o.Impl}, {"version", o.Version}, {"canonical", o.Canonical},
		{"digest", o.Digest}, {"error", o.Error}, {"failure", o.Failure}, {"inexpressible", o.Inexpressible}, {"stderr", o.Stderr}} {
		if kv[1] != "" {
			obj = append(obj, value.Member{Key: kv[0], Value: kv[1]})
		}
	}
	return obj
}

// Unmarshal reads an entry, or a bare input (any extended JSON value that is
// not an object with the "difffuzz_corpus" member).
func Unmarshal(data []byte) (*Entry, error) {
	v, err := value.Parse(data)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(value.Object)
	if !ok || lookup(obj, formatKey) == nil {
		return &Entry{Input: v}, nil
	}
	ver, _ := lookup(obj, formatKey).(int64)
	if ver != FormatVersion && ver != SequenceVersion {
		return nil, fmt.Errorf("corpus format %v, this difffuzz reads %d and %d", lookup(obj, formatKey), FormatVersion, SequenceVersion)
	}
	if !has(obj, "input") {
		return nil, errNoInput
	}
	e := &Entry{}
	if e.Input, err = inputOf(obj, "input"); err != nil {
		return nil, err
	}
	e.Kind, _ = lookup(obj, "kind").(string)
	if err := e.readSignatures(obj); err != nil {
		return nil, err
	}
	e.Contract, _ = lookup(obj, "contract").(string)
	e.ContractFile, _ = lookup(obj, "contract_file").(string)
	e.MinimizedFrom, _ = lookup(obj, "minimized_from").(string)
	e.Seed, e.Generated = uintField(obj, "seed")
	e.Index, _ = uintField(obj, "index")
	e.Outcomes = outcomesOf(obj, "outcomes")
	if has(obj, "twin") {
		if e.Twin, err = inputOf(obj, "twin"); err != nil {
			return nil, err
		}
		e.TwinIndex, _ = uintField(obj, "twin_index")
		e.TwinOutcomes = outcomesOf(obj, "twin_outcomes")
	}
	e.Earlier = outcomesOf(obj, "earlier_outcomes")
	if ver == SequenceVersion {
		if e.Before, err = beforeOf(obj); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// readSignatures reads the "signature" member into e.Signatures; a
// signature of the form before causes only sets e.OldSignature, so that
// the entry can still be replayed.
func (e *Entry) readSignatures(obj value.Object) error {
	text, _ := lookup(obj, "signature").(string)
	err := e.Signatures.UnmarshalText([]byte(text))
	if errors.Is(err, compare.ErrOldSignature) {
		e.Signatures, e.OldSignature = nil, true
		return nil
	}
	if err != nil {
		return fmt.Errorf("signature: %w", err)
	}
	return nil
}

// inputOf reads what writeInput wrote under name.
func inputOf(obj value.Object, name string) (any, error) {
	raw, ok := lookup(obj, name+"_msgpack").(string)
	if !ok {
		return lookup(obj, name), nil
	}
	v, err := decodeRaw(raw)
	if err != nil {
		return nil, fmt.Errorf("%s_msgpack: %w", name, err)
	}
	return v, nil
}

func outcomesOf(obj value.Object, name string) []Outcome {
	var out []Outcome
	if outs, ok := lookup(obj, name).(value.Object); ok {
		for _, m := range outs {
			o, _ := m.Value.(value.Object)
			out = append(out, outcome(m.Key, o))
		}
	}
	return out
}

func outcome(name string, o value.Object) Outcome {
	s := func(k string) string { v, _ := lookup(o, k).(string); return v }
	return Outcome{Adapter: name, Impl: s("impl"), Version: s("version"), Canonical: s("canonical"),
		Digest: s("digest"), Error: s("error"), Failure: s("failure"), Inexpressible: s("inexpressible"), Stderr: s("stderr")}
}

func uintField(obj value.Object, key string) (uint64, bool) {
	switch v := lookup(obj, key).(type) {
	case int64:
		return uint64(v), v >= 0
	case *big.Int:
		if v.IsUint64() {
			return v.Uint64(), true
		}
	}
	return 0, false
}

func lookup(obj value.Object, key string) any {
	for _, m := range obj {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

func has(obj value.Object, key string) bool {
	for _, m := range obj {
		if m.Key == key {
			return true
		}
	}
	return false
}

// Representable reports whether plain extended JSON, the text every
// language's reader takes (the golden fixtures'), can write v: it holds no
// map with a non-string key, no bin data (value.BinKey is difffuzz's own)
// and no other value outside the model.
func Representable(v any) bool {
	switch v := v.(type) {
	case value.RawObject, []byte, wire.Unsupported:
		return false
	case []any:
		for _, x := range v {
			if !Representable(x) {
				return false
			}
		}
	case value.Object:
		for _, m := range v {
			if !Representable(m.Value) {
				return false
			}
		}
	}
	return true
}

// rawInput is v's lossless form when extended JSON cannot write it.
func rawInput(v any) (string, bool) {
	if Representable(v) {
		return "", false
	}
	data, err := wire.EncodeValue(v)
	if err != nil {
		return "", false // written as text, visibly invalid, rather than lost
	}
	return base64.StdEncoding.EncodeToString(data), true
}

func decodeRaw(s string) (any, error) {
	data, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	return wire.DecodeValue(data)
}

// beforeOf reads the calls Marshal wrote as before_0, before_1, ... in
// order; an entry of SequenceVersion has at least one.
func beforeOf(obj value.Object) ([]any, error) {
	var out []any
	for i := 0; has(obj, fmt.Sprintf("before_%d", i)) || has(obj, fmt.Sprintf("before_%d_msgpack", i)); i++ {
		v, err := inputOf(obj, fmt.Sprintf("before_%d", i))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, errors.New(`corpus format 2 without "before_0": no call to run first`)
	}
	return out, nil
}
