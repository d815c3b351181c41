//go:build unix

package main

import "golang.org/x/sys/unix"

// dirWritable says whether this process may create files in the folder dir.
func dirWritable(dir string) bool { return unix.Access(dir, unix.W_OK) == nil }
