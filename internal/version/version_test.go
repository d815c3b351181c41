package version

import (
	"runtime/debug"
	"testing"
)

func TestDescribe(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "e45ec50d1f"}, {Key: "vcs.modified", Value: "false"}}
	dirty := []debug.BuildSetting{{Key: "vcs.revision", Value: "e45ec50d1f"}, {Key: "vcs.modified", Value: "true"}}
	tests := []struct {
		name, v, module string
		settings        []debug.BuildSetting
		want            string
	}{
		{"a checkout's build", "0.1.0", "(devel)", rev, "0.1.0 (e45ec50)"},
		{"a modified checkout", "0.1.0", "(devel)", dirty, "0.1.0 (e45ec50, modified)"},
		{"go install @v0.2.0", "0.1.0", "v0.2.0", nil, "0.2.0"},
		{"a pseudo-version is not a release", "0.1.0", "v0.1.1-0.20261204150000-e45ec50d1f00", nil, "0.1.0"},
		{"a modified tree at a tag", "0.1.0", "v0.1.0+dirty", dirty, "0.1.0 (e45ec50, modified)"},
		{"GoReleaser's stamp", "0.2.0-snapshot+abc", "", nil, "0.2.0-snapshot+abc"},
	}
	for _, tt := range tests {
		if got := describe(tt.v, tt.module, tt.settings); got != tt.want {
			t.Errorf("%s: describe(%q, %q) = %q, want %q", tt.name, tt.v, tt.module, got, tt.want)
		}
	}
}
