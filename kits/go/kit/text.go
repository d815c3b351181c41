package kit

import (
	"fmt"

	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Text is the model of an SDK that receives a tool call's arguments as JSON
// text and parses them with its own parser, as production SDKs do: fn gets
// the case as a []byte of JSON text, exactly the bytes the driver sent
// (protocol 4, docs/adapter-protocol.md "The text model's bytes"). The
// driver spells every case, in the varied spellings of docs/your-sdk.md
// ("The text model"), for every language alike; the kit has no JSON writer.
// What JSON text cannot spell (bin data, another value outside the spec, a
// non-string key) the driver never sends: it records the case as
// inexpressible itself, for the reasons this model declares.
//
// On stdin and stdout (protocol 2: no driver's offer, so an older driver
// that sends values) a text worker answers every case with an internal
// result saying that the text model needs a driver of protocol 4.
var Text Model[[]byte] = text{}

type text struct{}

func (text) Name() string      { return wire.ModelText }
func (text) Reasons() []string { return []string{wire.ReasonNonStringKey, wire.ReasonUnsupported} }

// Convert hands the driver's text on unchanged. Text's case is the
// driver's bin, and a driver of protocol 4 sends nothing else, so anything
// else is a driver's or a test's mistake, which fn must not see: an
// internal result.
func (text) Convert(v any) ([]byte, error) {
	if b, ok := v.([]byte); ok {
		return b, nil
	}
	return nil, fmt.Errorf("the text model's case is the driver's JSON text (bin), not a %T", v)
}

// textNeedsDriver is the message of every case of a worker of Text whose
// channel is older than protocol 4, where the driver sends values, not
// texts: "" for any other worker.
func textNeedsDriver[T any](m Model[T], h wire.Hello) string {
	if any(m) != any(Text) || h.Protocol >= wire.FDProtocolVersion {
		return ""
	}
	return fmt.Sprintf("the text model needs a driver of protocol %d, which spells each case as JSON text; "+
		"this worker speaks protocol %d (no %s offer)", wire.FDProtocolVersion, h.Protocol, wire.FDsEnv)
}
