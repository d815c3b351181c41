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

// DigestSize is the length of a BLAKE3-256 digest.
const DigestSize = 32

// Hello is a worker's first frame: who it is, so that findings record which
// implementation and version disagreed.
type Hello struct {
	Protocol int
	Language string
	Name     string
	Version  string
}

// Result is one case's outcome from one worker: either Digest, with
// Canonical unless the batch was digest_only, or Error (a spec error code, or
// ErrorInternal) and Message.
type Result struct {
	Canonical []byte
	Digest    []byte
	Error     string
	Message   string
}

// Message is any decoded frame. Which fields are set depends on Type.
type Message struct {
	Type string
	ID   uint64

	Hello Hello // TypeHello

	Cases      []any // TypeBatch, TypeBench requests
	Rounds     int   // TypeBench request
	DigestOnly bool  // TypeBatch request: results may leave out Canonical

	Results []Result // TypeResults

	ElapsedNS uint64 // TypeBench response
	Count     uint64 // TypeBench response

	Text string // TypeError: the "message" field
}
