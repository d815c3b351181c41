package testworker

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// SaysEnv names the file a fake worker appends a line to at each point of
// its life a test may wait for, as "PID WHAT": "serving" at its first case
// (its hello is done; in the modes that serve the Go implementation),
// "hanging" before it hangs on a marked case,
// "stubborn: input ended" when its input ended and it stays. Without the
// variable it says nothing. A test waits for these lines (Said) rather
// than sleep and hope the worker got there.
const SaysEnv = "FAKEWORKER_SAYS"

// Said waits until the file at path holds n lines saying what, and returns
// the pids of the workers that said them, in order. It fails the test if a
// minute goes by first: a bound on a failure, never reached by a passing
// test.
func Said(t testing.TB, path, what string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if pids := said(path, what); len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			data, _ := os.ReadFile(path)
			t.Fatalf("no %d workers said %q within a minute; %s holds:\n%s", n, what, path, data)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// said lists the pids of the whole lines of the file saying what.
func said(path, what string) []int {
	data, _ := os.ReadFile(path)
	lines := strings.Split(string(data), "\n")
	var pids []int
	for _, line := range lines[:len(lines)-1] { // the last is not whole yet
		pid, said, _ := strings.Cut(line, " ")
		if n, err := strconv.Atoi(pid); err == nil && said == what {
			pids = append(pids, n)
		}
	}
	return pids
}
