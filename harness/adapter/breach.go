package adapter

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// breachError is a worker's output that is no frame but looks like text:
// most often an implementation printing to stdout in a worker that speaks
// the protocol there (version 2). It says what was written, which a
// frame length of 1684365941 bytes (the bytes "debu") does not; it wraps
// the error it explains, so that it is classified alike.
type breachError struct {
	text string
	fds  bool
	err  error
}

func (e *breachError) Error() string {
	if e.fds {
		return fmt.Sprintf("the worker wrote `%s` to its protocol stream (descriptor %d)", e.text, wire.ResponseFD)
	}
	return fmt.Sprintf("the worker wrote `%s` to its protocol stream, stdout (a worker of protocol 2 may print to stderr alone; a kit of protocol 3 keeps the protocol off stdout)", e.text)
}

func (e *breachError) Unwrap() error { return e.err }

// breach explains err, a frame the worker broke, by what it wrote when that
// looks like text: body, the frame's body, or for a length out of range the
// four bytes read as one and whatever follows them in the stream now.
func (p *process) breach(err error, body []byte) error {
	var fse *wire.FrameSizeError
	if errors.As(err, &fse) {
		body = append(fse.Header[:], p.peek(200)...)
	}
	if text, ok := asText(body); ok {
		return &breachError{text: text, fds: p.fds, err: err}
	}
	return err
}

// peek reads up to n bytes the worker has written to resp and not yet been
// read, waiting a moment at most.
func (p *process) peek(n int) []byte {
	b := make([]byte, n)
	p.resp.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	k, _ := p.resp.Read(b)
	return b[:k]
}

// maxText is how many characters of a worker's text a message quotes.
const maxText = 100

// asText returns the first line of b when it looks like text a program
// printed: UTF-8 (but for a character cut off at b's end) holding no
// control character but tabs. What follows the line (a frame, after a
// debug line) does not matter.
func asText(b []byte) (string, bool) {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	s := string(line)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			if utf8.FullRuneInString(s[i:]) {
				return "", false
			}
			s = s[:i] // a character cut off at the end
			break
		}
		if unicode.IsControl(r) && r != '\t' && r != '\r' {
			return "", false
		}
		i += size
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false
	}
	if utf8.RuneCountInString(s) > maxText {
		s = string([]rune(s)[:maxText]) + "…"
	}
	return s, true
}
