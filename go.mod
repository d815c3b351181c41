module github.com/difffuzz/difffuzz

go 1.26.0

require (
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b
	github.com/difffuzz/difffuzz/kits/go v0.1.0
	github.com/google/go-cmp v0.7.0
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/rogpeppe/go-internal v1.16.0
	github.com/vmihailenco/msgpack/v5 v5.4.1
	golang.org/x/sync v0.25.0
	golang.org/x/sys v0.26.0
	golang.org/x/term v0.25.0
	lukechampine.com/blake3 v1.4.1
)

require (
	github.com/klauspost/cpuid/v2 v2.0.9 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
