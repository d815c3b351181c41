// Package modver tells a survey worker the version of the library it
// serves, from the module versions built into the binary, so that the
// version in the hello (and in docs/survey.md) is the one that ran and
// cannot drift from go.mod.
package modver

import "runtime/debug"

// Of is the version of module path in this binary, or "unknown".
func Of(path string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == path {
				return m.Version
			}
		}
	}
	return "unknown"
}
