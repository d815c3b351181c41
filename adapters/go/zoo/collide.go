package zoo

import "strings"

// collisionMutants merge two values that the spec writes apart: each gives
// two calls one digest (docs/triage.md, "Collisions"), the failure a
// deduplicating system cannot see. The generator's twins are made to meet
// them.
var collisionMutants = []Mutant{
	{"key-unescaped", "keys written between quotes as they are, with no escaping (a template)", func(e *Enc) {
		e.String = func(e *Enc, dst []byte, s string, key bool) []byte {
			if !key {
				return e.Quote(dst, s)
			}
			return append(append(append(dst, '"'), s...), '"')
		}
	}},
	{"value-quote-raw", "a '\"' in a string value (not a key) written unescaped", func(e *Enc) {
		e.String = func(e *Enc, dst []byte, s string, key bool) []byte {
			if key {
				return e.Quote(dst, s)
			}
			return e.QuoteWith(dst, s, func(dst []byte, r rune, _, _ int) []byte {
				if r == '"' {
					return append(dst, '"')
				}
				return e.char(dst, r)
			})
		}
	}},
	{"backslash-raw", "a '\\' written unescaped (the other escapes kept)", func(e *Enc) {
		e.Char = func(dst []byte, r rune) []byte {
			if r == '\\' {
				return append(dst, '\\')
			}
			return Escape(dst, r)
		}
	}},
	{"nfc-composed", "strings and keys composed before writing (e + U+0301 -> é: a partial NFC)", func(e *Enc) {
		e.String = func(e *Enc, dst []byte, s string, _ bool) []byte { return e.Quote(dst, compose(s)) }
	}},
}

// collisionNames are the mutants hunted for a collision rather than a
// first divergence: the ones above, and those of Mutants whose bug merges
// values too.
var collisionNames = map[string]bool{"key-quote-raw": true, "bigint-double": true, "lone-surrogate-fffd": true}

func init() {
	Mutants = append(Mutants, collisionMutants...)
	for _, m := range collisionMutants {
		collisionNames[m.Name] = true
	}
}

// Collides reports whether mutant name (one of the zoo, not a combination)
// merges values: its hunt waits for a collision, not the first divergence.
func Collides(name string) bool { return collisionNames[name] }

// composed are the precomposed forms of a letter and a combining accent
// (grave, acute, circumflex, tilde, diaeresis, ring above, cedilla).
var composed = func() map[[2]rune]rune {
	m := map[[2]rune]rune{}
	for _, row := range []struct {
		accent rune
		pairs  string // letter, precomposed, letter, precomposed, ...
	}{
		{0x300, "AÀEÈIÌOÒUÙaàeèiìoòuù"},
		{0x301, "AÁEÉIÍOÓUÚYÝaáeéiíoóuúyý"},
		{0x302, "AÂEÊIÎOÔUÛaâeêiîoôuû"},
		{0x303, "AÃNÑOÕaãnñoõ"},
		{0x308, "AÄEËIÏOÖUÜaäeëiïoöuüyÿ"},
		{0x30a, "AÅaå"},
		{0x327, "CÇcç"},
	} {
		rs := []rune(row.pairs)
		for i := 0; i+1 < len(rs); i += 2 {
			m[[2]rune{rs[i], row.accent}] = rs[i+1]
		}
	}
	return m
}()

// compose replaces each letter followed by a combining accent it has a
// precomposed form with by that form.
func compose(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := decode(s, i)
		if next, m := decode(s, i+n); i+n < len(s) {
			if c, ok := composed[[2]rune{r, next}]; ok {
				b.WriteRune(c)
				i += n + m
				continue
			}
		}
		b.WriteString(s[i : i+n]) // as it was: a lone surrogate's bytes too
		i += n
	}
	return b.String()
}
