package compare

import (
	"fmt"
	"slices"
	"strings"
)

// Signature names one bug: the kind of the first difference and the
// adapters that deviate from the baseline, sorted. Findings are grouped by
// it, the known list and the corpus store it, and its text form,
// "key_order: rust ts", is written by String and read by ParseSignature
// alone.
type Signature struct {
	Kind     Kind
	Deviants []string
}

// String is the signature's text form, "KIND: A B".
func (s Signature) String() string { return string(s.Kind) + ": " + strings.Join(s.Deviants, " ") }

// Equal reports whether s and t name the same bug.
func (s Signature) Equal(t Signature) bool {
	return s.Kind == t.Kind && slices.Equal(s.Deviants, t.Deviants)
}

// Deviates reports whether adapter name is among the deviants.
func (s Signature) Deviates(name string) bool { return slices.Contains(s.Deviants, name) }

// ParseSignature reads a signature's text form.
func ParseSignature(text string) (Signature, error) {
	kind, names, ok := strings.Cut(text, ": ")
	if !ok || kind == "" || strings.TrimSpace(names) == "" {
		return Signature{}, fmt.Errorf("signature %q: want \"KIND: ADAPTER...\"", text)
	}
	s := Signature{Kind: Kind(kind), Deviants: strings.Fields(names)}
	slices.Sort(s.Deviants)
	return s, nil
}

// signatureSep joins the signatures of one finding in a corpus entry.
const signatureSep = "; "

// JoinSignatures is the text form of a finding's signatures, for its corpus
// entry.
func JoinSignatures(sigs []Signature) string {
	parts := make([]string, len(sigs))
	for i, s := range sigs {
		parts[i] = s.String()
	}
	return strings.Join(parts, signatureSep)
}

// SplitSignatures reads JoinSignatures's text; "" is none.
func SplitSignatures(text string) ([]Signature, error) {
	if text == "" {
		return nil, nil
	}
	var sigs []Signature
	for _, part := range strings.Split(text, signatureSep) {
		s, err := ParseSignature(part)
		if err != nil {
			return nil, err
		}
		sigs = append(sigs, s)
	}
	return sigs, nil
}
