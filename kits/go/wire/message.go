package wire

// Message types, the "type" field of every frame.
const (
	TypeHello   = "hello"
	TypeBatch   = "batch"
	TypeResults = "results"
	TypeBench   = "bench"
	TypeError   = "error"
)

// ErrorInternal is the result code a worker gives when its implementation
// failed on a case (an exception, a caught panic). It is a finding against the
// implementation, unlike a TypeError message, which is a transport failure.
const ErrorInternal = "internal"

// ErrorCodes lists every code of a result's "error", in the order of the
// protocol page: the spec's (SpecCodes, for a case the implementation
// rejects), then ErrorInternal.
var ErrorCodes = append(SpecCodes[:len(SpecCodes):len(SpecCodes)], ErrorInternal)

// DigestSize is the length of a BLAKE3-256 digest.
const DigestSize = 32

// Hello is a worker's first frame: who it is, so that findings record which
// implementation and version disagreed.
type Hello struct {
	Protocol int
	Language string
	Name     string
	Version  string
	// Model is the value model the worker hands its implementation:
	// ModelExact (also when empty: a version 1 worker), ModelNative or
	// ModelText.
	Model string
	// Inexpressible lists the reasons a native worker may answer
	// instead of a result: what its model cannot hold.
	Inexpressible []string
}

// TakesText reports whether the driver sends the worker its cases as JSON
// text it spelled (version 4, docs/adapter-protocol.md "The text model's
// bytes"), rather than as values: a worker of the text model on the
// descriptors at version 4.
func (h Hello) TakesText() bool {
	return h.Model == ModelText && h.Protocol >= FDProtocolVersion
}

// Value models a worker may declare in its hello.
const (
	ModelExact  = "exact"
	ModelNative = "native"
	ModelText   = "text" // the case as JSON text, for an SDK that parses it itself
)

// Models lists the value models a hello may declare.
var Models = []string{ModelExact, ModelNative, ModelText}

// Reasons of an inexpressible result: what a case holds that a native value
// model cannot. The protocol page has the table.
const (
	ReasonDuplicateKey  = "duplicate_key"
	ReasonLoneSurrogate = "lone_surrogate"
	ReasonBigInt        = "big_int"
	ReasonNonFinite     = "non_finite"
	ReasonNonStringKey  = "non_string_key"
	ReasonUnsupported   = "unsupported_value"
)

// Reasons lists every reason of an inexpressible result, in the order of the
// protocol page.
var Reasons = []string{ReasonDuplicateKey, ReasonLoneSurrogate, ReasonBigInt, ReasonNonFinite, ReasonNonStringKey, ReasonUnsupported}

// SupportedProtocol reports whether the driver speaks protocol version v
// on a worker's standard streams (fds false) or on the descriptors it
// offers (fds true, see FDsEnv): there versions 3 and 4 (FDProtocolVersion;
// a worker of version 3 is older, and still spoken to); on the standard
// streams version 2 and version 1, which lacks only version 2's additions.
func SupportedProtocol(v int, fds bool) bool {
	if fds {
		return v == OldestFDProtocol || v == FDProtocolVersion
	}
	return v == 1 || v == ProtocolVersion
}

// Result is one case's outcome from one worker: either Digest, with
// Canonical unless the batch was digest_only, or Error (a spec error code, or
// ErrorInternal) and Message, or Inexpressible (a reason: the case cannot be
// held by the worker's native model, so its implementation never saw it) and
// Message.
type Result struct {
	Canonical     []byte
	Digest        []byte
	Error         string
	Inexpressible string
	Message       string
	// ErrorType and Frames say what failed and where, for an
	// ErrorInternal result of a version 4 worker (both optional): the
	// driver buckets the failure by them, not by Message, which quotes
	// the input.
	ErrorType string
	Frames    []Frame
}

// Frame is one place in the implementation's own code that a failure
// passed through (version 4): innermost first in Result.Frames. A run of
// the standard library's frames is one Frame, its entry point, with Line 0
// and File "".
type Frame struct {
	File     string
	Function string
	Line     int
}

// MaxFrames caps Result.Frames: a bucket is keyed by the first three, and
// a report shows a few more.
const MaxFrames = 8

// Message is any decoded frame. Which fields are set depends on Type.
type Message struct {
	Type string
	ID   uint64

	Hello Hello // TypeHello

	Cases      []any // TypeBatch, TypeBench requests
	Rounds     int   // TypeBench request
	DigestOnly bool  // TypeBatch request: results may leave out Canonical

	Results []Result // TypeResults
	// BatchCPUNS is the CPU time a worker says it spent on the batch
	// (TypeResults, version 2, optional; 0 if not said): decoding the
	// cases, converting, canonicalizing and hashing them, but not reading,
	// encoding or writing frames. The bench charges it to the
	// implementation and the rest of the worker's CPU to the harness.
	BatchCPUNS uint64

	Bench BenchTimes // TypeBench response

	Text string // TypeError: the "message" field
}

// BenchTimes is a worker's answer to a bench request. The version 2 fields
// are zero from a version 1 worker.
type BenchTimes struct {
	Count     uint64 // rounds × cases
	ElapsedNS uint64 // wall time of the canonicalize+hash loop
	CPUNS     uint64 // CPU time of the same loop (version 2)
	// DecodeElapsedNS and DecodeCPUNS time a second loop that also decodes
	// the cases from the frame's bytes each round (version 2).
	DecodeElapsedNS uint64
	DecodeCPUNS     uint64
}
