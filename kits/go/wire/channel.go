package wire

import (
	"fmt"
	"strconv"
	"strings"
)

// The protocol's channel. A worker of version 1 or 2 speaks on its stdin
// and stdout, so an implementation that prints to stdout breaks the frames.
// The driver therefore offers every worker two descriptors of their own,
// named in the environment variable FDsEnv as "3,4": the worker reads
// requests from the first and writes responses to the second, and says
// FDProtocolVersion in its hello there. A worker that ignores the offer
// says hello on stdout, as before, and the driver speaks to it there; what a
// worker on the descriptors prints, on stdout or stderr, is its log.
const (
	// FDsEnv names the environment variable of the offer.
	FDsEnv = "DIFFFUZZ_FDS"
	// FDProtocolVersion is the hello's version on the descriptors:
	// version 2's messages on a channel of their own (version 3), with an
	// internal result's error_type and frames, and the text model's cases
	// as JSON text the driver spells (version 4).
	FDProtocolVersion = 4
	// OldestFDProtocol is the oldest version the driver accepts on the
	// descriptors: a version 3 worker gets version 3's messages.
	OldestFDProtocol = 3
	// RequestFD and ResponseFD are the descriptors the driver offers.
	RequestFD, ResponseFD = 3, 4
)

// FDsOffer is FDsEnv's value for the driver's descriptors.
var FDsOffer = fmt.Sprintf("%d,%d", RequestFD, ResponseFD)

// ParseFDs reads FDsEnv's value: the request and response descriptors. An
// empty value is no offer (ok false); a malformed one is an error, so that a
// worker does not silently fall back to stdout when it was asked not to.
func ParseFDs(s string) (req, resp int, ok bool, err error) {
	if s == "" {
		return 0, 0, false, nil
	}
	a, b, found := strings.Cut(s, ",")
	req, err1 := strconv.Atoi(a)
	resp, err2 := strconv.Atoi(b)
	if !found || err1 != nil || err2 != nil || req < 0 || resp < 0 || req == resp {
		return 0, 0, false, fmt.Errorf("%s=%q: want two descriptors, as %q", FDsEnv, s, FDsOffer)
	}
	return req, resp, true, nil
}
