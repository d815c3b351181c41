package gen

import "github.com/difffuzz/difffuzz/value"

// Bad-envelope variants (see badEnvelope); some of them drop the tool
// name or the args, which are then not generated at all so that the
// reported classes describe the value that is returned.
const (
	badToolScalar = iota
	badToolContainer
	badArgsArray
	badArgsScalar
	badNoTool
	badNoArgs
	badExtraMember
	badTopArray
	badTopScalar
	badEmpty
	badMisspelled
	badVariants
)

func keepsTool(bad int) bool { return bad != badNoTool && bad != badTopScalar && bad != badEmpty }

func keepsArgs(bad int) bool {
	return bad != badArgsScalar && bad != badNoArgs && bad != badTopScalar && bad != badEmpty
}

// plainBad are the bad-envelope variants that add no other class.
var plainBad = []int{badNoArgs, badTopArray, badArgsArray}

// envelopeDuplicate repeats tool_name or args in the envelope: the walk
// reports duplicate_key before the envelope check could object.
func (s *state) envelopeDuplicate(tool string, args any) any {
	o := value.Object{{Key: "tool_name", Value: tool}, {Key: "args", Value: args}}
	s.at(3, 2, 1, false)
	if s.oneIn(2) {
		o = append(o, value.Member{Key: "tool_name", Value: s.toolName()})
	} else {
		s.container(2, 0)
		o = append(o, value.Member{Key: "args", Value: value.Object{}})
	}
	i := s.intn(3)
	o[i], o[2] = o[2], o[i]
	j := 0 // the partner of the repeated member, now at i
	for j == i || o[j].Key != o[i].Key {
		j++
	}
	s.pairHit(ClassDuplicateKey, 3, i, j, 1)
	return o
}

var (
	extraKeys   = []string{"x", "tool", "Tool_name", "tool_name ", "argss", "", "name", "arguments"}
	misspelled  = []string{"toolName", "Tool_name", "tool-name", "tool_name\x00", " tool_name", "tool_nam", "TOOL_NAME"}
	misspelledA = []string{"Args", "arg", "args ", "arguments", "params", "ARGS", "args\x00"}
)

// badEnvelope breaks the envelope around tool and args in variant bad,
// one of the ways spec §3 rejects with bad_envelope.
func (s *state) badEnvelope(bad int, tool string, args any) any {
	switch bad {
	case badToolScalar:
		return envelope(s.scalarNonString(), args)
	case badToolContainer:
		return envelope(s.array(2, s.intn(3)), args)
	case badArgsArray:
		var a []any
		switch o := args.(type) {
		case value.Object:
			for _, m := range o {
				a = append(a, m.Value)
			}
		case value.RawObject: // the non-string key goes: keep it as an element
			for _, m := range o {
				a = append(a, value.RawObject{m})
			}
		}
		s.container(2, len(a))
		return envelope(tool, a)
	case badArgsScalar:
		return envelope(tool, s.scalar())
	case badNoTool:
		return value.Object{{Key: "args", Value: args}}
	case badNoArgs:
		return value.Object{{Key: "tool_name", Value: tool}}
	case badExtraMember:
		k := extraKeys[s.intn(len(extraKeys))]
		return s.insertMember(envelope(tool, args), value.Member{Key: k, Value: s.scalar()})
	case badTopArray:
		return []any{tool, args}
	case badTopScalar:
		return s.scalar()
	case badEmpty:
		s.container(1, 0)
		return value.Object{}
	}
	o := envelope(tool, args)
	if s.oneIn(2) {
		o[0].Key = misspelled[s.intn(len(misspelled))]
	} else {
		o[1].Key = misspelledA[s.intn(len(misspelledA))]
	}
	return o
}

func envelope(tool, args any) value.Object {
	return value.Object{{Key: "tool_name", Value: tool}, {Key: "args", Value: args}}
}
