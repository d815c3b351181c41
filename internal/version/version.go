// Package version is difffuzz's own version, defined once: the CLI prints
// it and every JSON report records it, so that a finding says which
// difffuzz found it.
package version

import (
	"runtime/debug"
	"strings"
)

// Version is the release of difffuzz. A release build stamps it from the
// tag (.goreleaser.yaml: -X with the tag's version); `go install
// ...@vX.Y.Z` leaves it and String takes the module's version instead. It
// is the kits' version too: one tag releases all of it
// (docs/releasing.md; harness/scaffold's TestOneNameAndVersion holds them
// equal).
var Version = "0.1.0"

// String is the version with the commit the binary was built from, when
// the build recorded one: "0.1.0 (e45ec50)".
func String() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Version
	}
	return describe(Version, info.Main.Version, info.Settings)
}

// describe is String from the build's facts: the module's version when it
// is a release's (a module download: go install ...@vX.Y.Z), else v; then
// the commit, marked when the tree was modified.
func describe(v, moduleVersion string, settings []debug.BuildSetting) string {
	if strings.HasPrefix(moduleVersion, "v") && !strings.ContainsAny(moduleVersion, "-+") {
		v = strings.TrimPrefix(moduleVersion, "v")
	}
	rev, dirty := "", false
	for _, s := range settings {
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
		return v
	case dirty:
		return v + " (" + rev + ", modified)"
	}
	return v + " (" + rev + ")"
}
