module github.com/difffuzz/difffuzz/kits/go

go 1.23

// The kit's two dependencies at the lowest releases it builds and passes its
// tests with (msgpack's first v5 release, and BLAKE3's oldest on the proxy):
// in Go a requirement is a minimum, so a worker takes these or whatever
// newer ones the rest of its build asks for (the driver's build, v5.4.1 and
// v1.4.1).
require (
	github.com/vmihailenco/msgpack/v5 v5.3.4
	lukechampine.com/blake3 v1.1.6
)

require (
	github.com/klauspost/cpuid/v2 v2.0.9 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
)
