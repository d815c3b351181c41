// The difffuzz worker of my-sdk (difffuzz init go wrote it). Add your
// SDK's module with go get, or a replace to your checkout; then go mod tidy.
module my-sdk-difffuzz-worker

go 1.23

require github.com/difffuzz/difffuzz/kits/go v0.1.0
