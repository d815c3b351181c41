package kit

import (
	"io"
	"os"

	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// Channel is where a worker serves the protocol, and the hello's version
// there (Serve says wire.ProtocolVersion, stdin and stdout's, if 0).
type Channel struct {
	In       io.Reader
	Out      io.Writer
	Protocol int
}

// OpenChannel returns the channel the driver offers in wire.FDsEnv: its two
// descriptors, so that the implementation may print to stdout, or stdin and
// stdout when there is no offer (a driver of version 2, a test). A
// malformed offer is an error rather than a fall back to stdout.
func OpenChannel() (Channel, error) {
	req, resp, ok, err := wire.ParseFDs(os.Getenv(wire.FDsEnv))
	if err != nil || !ok {
		return Channel{In: os.Stdin, Out: os.Stdout, Protocol: wire.ProtocolVersion}, err
	}
	return Channel{In: os.NewFile(uintptr(req), "requests"), Out: os.NewFile(uintptr(resp), "responses"),
		Protocol: wire.FDProtocolVersion}, nil
}
