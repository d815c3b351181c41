module github.com/difffuzz/difffuzz/kits/go

go 1.23

require (
	github.com/vmihailenco/msgpack/v5 v5.4.1
	lukechampine.com/blake3 v1.4.1
)

require (
	github.com/klauspost/cpuid/v2 v2.0.9 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
)
