// Package version is difffuzz's own version, defined once: the CLI prints
// it and every JSON report records it, so that a finding says which
// difffuzz found it.
package version

import "runtime/debug"

// Version is the release of difffuzz.
const Version = "0.3.0"

// String is Version with the commit the binary was built from, when the
// build recorded one: "0.3.0 (e45ec50)".
func String() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Version
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	switch {
	case rev == "":
		return Version
	case dirty:
		return Version + " (" + rev + ", modified)"
	}
	return Version + " (" + rev + ")"
}
