package zoo

import (
	"fmt"
	"reflect"
	"strings"
)

// Combine is one implementation with the bugs of all the named mutants at
// once, as a real SDK has several: tests of triage plant several causes in
// one implementation and expect each as a bucket of its own. The hooks that
// several bugs can share compose (Char and Float try each mutant's and keep
// the first that departs from the spec's; Rewrite and Text run in turn);
// two mutants that set any other part of the encoder cannot be combined,
// and say so.
func Combine(names ...string) (Mutant, error) {
	var parts []*Enc
	var descs []string
	for _, n := range names {
		m, ok := Lookup(n)
		if !ok {
			return Mutant{}, fmt.Errorf("no mutant %q (mutant -list names them)", n)
		}
		e := &Enc{}
		m.Set(e)
		parts, descs = append(parts, e), append(descs, m.Desc)
	}
	merged, err := merge(names, parts)
	if err != nil {
		return Mutant{}, err
	}
	return Mutant{Name: strings.Join(names, "+"), Desc: strings.Join(descs, "; "), Set: func(e *Enc) { *e = *merged }}, nil
}

// merge folds the encoders' settings into one.
func merge(names []string, parts []*Enc) (*Enc, error) {
	out := &Enc{}
	ov := reflect.ValueOf(out).Elem()
	owner := map[string]string{}
	for i, e := range parts {
		ev := reflect.ValueOf(e).Elem()
		for f := 0; f < ev.NumField(); f++ {
			name := ev.Type().Field(f).Name
			if ev.Field(f).IsZero() || name == "Char" || name == "Float" || name == "Rewrite" || name == "Text" {
				continue
			}
			if prev, ok := owner[name]; ok {
				return nil, fmt.Errorf("mutants %s and %s both set %s: they cannot be combined", prev, names[i], name)
			}
			owner[name] = names[i]
			ov.Field(f).Set(ev.Field(f))
		}
	}
	out.Char = chainChar(parts)
	out.Float = chainFloat(parts)
	out.Rewrite = chainRewrite(parts)
	out.Text = chainText(parts)
	return out, nil
}

// chainChar writes a code point with the first mutant's Char that writes
// it otherwise than the spec; nil when no mutant sets one.
func chainChar(parts []*Enc) func(dst []byte, r rune) []byte {
	var chars []func(dst []byte, r rune) []byte
	for _, e := range parts {
		if e.Char != nil {
			chars = append(chars, e.Char)
		}
	}
	if len(chars) == 0 {
		return nil
	}
	return func(dst []byte, r rune) []byte {
		spec := string(Escape(nil, r))
		for _, c := range chars {
			if got := c(nil, r); string(got) != spec {
				return append(dst, got...)
			}
		}
		return append(dst, spec...)
	}
}

// chainFloat is chainChar for floats.
func chainFloat(parts []*Enc) func(dst []byte, x float64) []byte {
	var fs []func(dst []byte, x float64) []byte
	for _, e := range parts {
		if e.Float != nil {
			fs = append(fs, e.Float)
		}
	}
	if len(fs) == 0 {
		return nil
	}
	return func(dst []byte, x float64) []byte {
		spec := string(ECMA.Append(nil, x))
		for _, f := range fs {
			if got := f(nil, x); string(got) != spec {
				return append(dst, got...)
			}
		}
		return append(dst, spec...)
	}
}

func chainRewrite(parts []*Enc) func(v any) any {
	var fs []func(v any) any
	for _, e := range parts {
		if e.Rewrite != nil {
			fs = append(fs, e.Rewrite)
		}
	}
	if len(fs) == 0 {
		return nil
	}
	return func(v any) any {
		for _, f := range fs {
			v = f(v)
		}
		return v
	}
}

func chainText(parts []*Enc) func(text []byte) error {
	var fs []func(text []byte) error
	for _, e := range parts {
		if e.Text != nil {
			fs = append(fs, e.Text)
		}
	}
	if len(fs) == 0 {
		return nil
	}
	return func(text []byte) error {
		for _, f := range fs {
			if err := f(text); err != nil {
				return err
			}
		}
		return nil
	}
}
