package conform

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/inprocess"
	"github.com/difffuzz/difffuzz/kits/go/wire"

	"lukechampine.com/blake3"

	"github.com/difffuzz/difffuzz/internal/clip"
)

// want is the answer a case must get: canonical text, or an error code.
type want struct {
	canonical []byte // the expected text; nil when code is set
	code      string // the expected error code; "" when canonical is set
}

// wantText expects canonical text.
func wantText(s string) want { return want{canonical: []byte(s)} }

// wantCode expects an error code.
func wantCode(code string) want { return want{code: code} }

// wantGo is what the in-process Go implementation answers for v.
func wantGo(v any) want {
	r := inprocess.Compute(v)
	if r.Error != "" {
		return want{code: r.Error}
	}
	return want{canonical: r.Canonical}
}

// mismatch says how got differs from w, naming the first difference, or
// returns "" when it does not differ. A canonical result must also carry
// BLAKE3 of its own text as its digest; a digest_only answer (a digest and
// no text) is judged by its digest alone.
func mismatch(got wire.Result, w want) string {
	switch {
	case got.Inexpressible != "":
		return fmt.Sprintf("answered inexpressible (%s: %s) for a case every value model holds", got.Inexpressible, clip.String(got.Message, 80))
	case got.Error != "" && w.code == "":
		return fmt.Sprintf("got error %s (%s), want %s", got.Error, clip.String(got.Message, 120), excerpt(w.canonical, 0))
	case got.Error != "" && got.Error != w.code:
		return fmt.Sprintf("got error %s (%s), want error %s", got.Error, clip.String(got.Message, 120), w.code)
	case got.Error != "":
		return ""
	case got.Canonical == nil && w.code != "":
		return fmt.Sprintf("got a digest and no text, want error %s", w.code)
	case w.code != "":
		return fmt.Sprintf("got %s, want error %s", excerpt(got.Canonical, 0), w.code)
	case got.Canonical == nil:
		return digestMismatch(got.Digest, w.canonical)
	}
	if off := compare.FirstDiff(got.Canonical, w.canonical); off >= 0 {
		kind := compare.Classify(w.canonical, got.Canonical, off)
		return fmt.Sprintf("canonical text differs at byte %d (%s): got %s, want %s",
			off, kind, excerpt(got.Canonical, off), excerpt(w.canonical, off))
	}
	if d := blake3.Sum256(got.Canonical); !bytes.Equal(got.Digest, d[:]) {
		return fmt.Sprintf("digest %s is not BLAKE3 of the canonical text (%s)", hex.EncodeToString(got.Digest), hex.EncodeToString(d[:]))
	}
	return ""
}

// digestMismatch judges a digest_only answer, which stands for its text by
// its digest alone: a digest other than BLAKE3 of the wanted text says that
// the text differs, or that the digest is not its text's, which cannot be
// told apart without the text.
func digestMismatch(digest, want []byte) string {
	if d := blake3.Sum256(want); !bytes.Equal(digest, d[:]) {
		return fmt.Sprintf("digest %s differs from BLAKE3 of the wanted text %s (%s): the text differs, or the digest is not its BLAKE3 (no text came with it)",
			hex.EncodeToString(digest), excerpt(want, 0), hex.EncodeToString(d[:]))
	}
	return ""
}

// excerpt shows b around byte off: up to 30 bytes either side, the
// difference marked with >>> (at 0, the first 60 bytes unmarked), in backquotes, or quoted when it is not
// printable ASCII.
func excerpt(b []byte, off int) string {
	lo, hi := max(0, off-30), min(len(b), off+30)
	off = min(off, len(b))
	s := string(b[lo:off]) + ">>>" + string(b[off:hi])
	if off == 0 {
		hi = min(len(b), 60)
		s = string(b[:hi])
	}
	if lo > 0 {
		s = "..." + s
	}
	if hi < len(b) {
		s += "..."
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e || s[i] == '`' {
			return strconv.QuoteToASCII(s)
		}
	}
	return "`" + s + "`"
}
