package main

import "os"

// abort ends this process as a C abort() does on Windows, which has no
// SIGABRT to send: with exit status 3.
func abort() { os.Exit(3) }
