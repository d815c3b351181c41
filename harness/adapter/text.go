package adapter

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/difffuzz/difffuzz/harness/jsontext"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// A text worker of protocol 4 (wire.Hello.TakesText) gets each case as the
// JSON text the driver spells (package spell), a msgpack bin, not as a
// value: every text worker, whatever its language, then reads the same
// bytes. A case that JSON text cannot spell is never sent; the driver
// answers it as inexpressible on the worker's behalf, and puts the
// worker's results back in the batch's order around it.

// Spelling is a batch's cases as text workers get them. It is made once a
// batch, however many text workers the batch goes to; the conformance
// checks make one for the raw cases they send.
type Spelling struct {
	// encoded is the msgpack array of the texts sent, one bin a case that
	// has a text; it follows a batch head as Batch.Encoded's array does.
	encoded []byte
	sent    int // cases in encoded
	// unsent are the indexes of the cases that have no text, in order,
	// and unspellable their inexpressible results.
	unsent      []int
	unspellable []wire.Result
}

// spelledPerCase is the mean length of the last batch's texts, so that
// the next batch's buffer starts at about the size it needs, however many
// cases it has (a re-asked batch holds a few).
var spelledPerCase atomic.Int64

// Spell spells cases, values of the exact model (what the wire decodes),
// for a text worker: each case into one small buffer, then as a bin into
// the batch's array. The array is made afresh each time, never reused, so
// it stays as it is for as long as a pipe may hold its pages (writeParts).
func Spell(cases []any) (*Spelling, error) {
	perCase := int(spelledPerCase.Load())
	tc := wire.NewTextCases(make([]byte, 0, (perCase+5)*len(cases)*9/8+5))
	sp := &Spelling{}
	var text []byte
	for i, c := range cases {
		var err error
		if text, err = jsontext.Append(text[:0], c); err == nil {
			tc.Add(text)
			continue
		}
		var u *jsontext.Unspellable
		if !errors.As(err, &u) {
			return nil, fmt.Errorf("case %d: %w", i, err)
		}
		sp.unsent = append(sp.unsent, i)
		sp.unspellable = append(sp.unspellable, wire.Result{Inexpressible: u.Reason, Message: u.Msg})
	}
	sp.encoded, sp.sent = tc.Bytes(), tc.Len()
	if len(cases) > 0 {
		spelledPerCase.Store(int64(len(sp.encoded) / len(cases)))
	}
	return sp, nil
}

// Encoded is the msgpack array of the texts sent, to follow a batch head
// (wire.Encoder.BatchHead).
func (sp *Spelling) Encoded() []byte { return sp.encoded }

// Sent is how many cases have a text: the results a worker owes.
func (sp *Spelling) Sent() int { return sp.sent }

// Realign fills out, one result per case spelled, from results, one per
// case sent, and the unspellable cases' own results: inexpressible, with
// the reason JSON text has none.
func (sp *Spelling) Realign(results, out []wire.Result) {
	next, skip := 0, 0
	for i := range out {
		if skip < len(sp.unsent) && sp.unsent[skip] == i {
			out[i] = sp.unspellable[skip]
			skip++
			continue
		}
		out[i] = results[next]
		next++
	}
}

// spellBench is a bench request's cases for a text worker: the texts of
// those that have one.
func spellBench(cases []any) []any {
	texts := make([]any, 0, len(cases))
	for _, c := range cases {
		if t, err := jsontext.Append(nil, c); err == nil {
			texts = append(texts, t)
		}
	}
	return texts
}
