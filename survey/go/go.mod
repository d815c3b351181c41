module github.com/difffuzz/difffuzz/survey/go

go 1.26.0

require (
	github.com/cyberphone/json-canonicalization v0.0.0-20241213102144-19d51d7fe467
	github.com/gowebpki/jcs v1.0.2
)

require (
	github.com/difffuzz/difffuzz/kits/go v0.1.0
	github.com/klauspost/cpuid/v2 v2.0.9 // indirect
	github.com/vmihailenco/msgpack/v5 v5.4.1 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
	lukechampine.com/blake3 v1.4.1 // indirect
)

replace github.com/difffuzz/difffuzz/kits/go => ../../kits/go
