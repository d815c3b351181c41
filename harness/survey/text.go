package survey

import "strings"

// lastLine is the last non-empty line of s, for one-line messages.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
