package main

import "os"

// dirWritable says whether this process may create files in the folder dir.
// Windows has no access(2) that reads the folder's ACL, so it tries: it
// creates a file there and removes it.
func dirWritable(dir string) bool {
	f, err := os.CreateTemp(dir, ".difffuzz-writable-*")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}
