package compare

// Classify names the difference of two canonical texts that first differ at
// off, from what the common prefix says is being written there: a number, a
// string, or an object key (a key that is another key altogether means the
// members come in another order).
func Classify(a, b []byte, off int) Kind {
	st := scan(a[:off])
	switch {
	case st.inString && st.key:
		ka, kb := token(a, st.start), token(b, st.start)
		if unescape(ka) != unescape(kb) {
			return KindKeyOrder
		}
		return KindString
	case st.inString:
		return KindString
	case st.inNumber || numberStart(at(a, off)) || numberStart(at(b, off)):
		return KindNumber
	case st.keyNext && (at(a, off) == '"' || at(b, off) == '"'):
		return KindKeyOrder
	}
	return KindStructure
}

type scanState struct {
	inString bool
	key      bool // the open string is an object key
	keyNext  bool // the next token would be a key
	inNumber bool
	start    int // offset of the open string's quote
}

// scan runs a tiny JSON tokenizer over a prefix of canonical text.
func scan(p []byte) scanState {
	var st scanState
	var stack []byte
	escaped := false
	for i, ch := range p {
		if st.inString {
			switch {
			case escaped:
				escaped = false
			case ch == '\\':
				escaped = true
			case ch == '"':
				st.inString = false
			}
			continue
		}
		st.inNumber = false
		switch ch {
		case '"':
			st.inString, st.start, st.key = true, i, st.keyNext
			st.keyNext = false
		case '{':
			stack = append(stack, ch)
			st.keyNext = true
		case '[':
			stack = append(stack, ch)
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			st.keyNext = len(stack) > 0 && stack[len(stack)-1] == '{'
		case ':':
			st.keyNext = false
		default:
			st.inNumber = true
		}
	}
	return st
}

func at(b []byte, i int) byte {
	if i < len(b) {
		return b[i]
	}
	return 0
}

func numberStart(c byte) bool {
	return c == '-' || c >= '0' && c <= '9' || c == 'N' || c == 'I'
}

// token returns the string token that starts with the quote at b[start].
func token(b []byte, start int) []byte {
	escaped := false
	for i := start + 1; i < len(b); i++ {
		switch {
		case escaped:
			escaped = false
		case b[i] == '\\':
			escaped = true
		case b[i] == '"':
			return b[start : i+1]
		}
	}
	return b[start:]
}

// unescape decodes a string token loosely: enough to tell two keys apart
// from two spellings of one key.
func unescape(tok []byte) string {
	out := make([]rune, 0, len(tok))
	s := string(tok)
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			break
		}
		if c != '\\' || i+1 >= len(s) {
			out = append(out, rune(c))
			continue
		}
		i++
		switch s[i] {
		case 'u':
			if i+4 < len(s) {
				var r rune
				for _, h := range s[i+1 : i+5] {
					r = r*16 + hexval(h)
				}
				out = append(out, r)
				i += 4
			}
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		default:
			out = append(out, rune(s[i]))
		}
	}
	return string(out)
}

func hexval(h rune) rune {
	switch {
	case h >= '0' && h <= '9':
		return h - '0'
	case h >= 'a' && h <= 'f':
		return h - 'a' + 10
	case h >= 'A' && h <= 'F':
		return h - 'A' + 10
	}
	return 0
}
