package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// Debian's python3 by release: the runtime image's Python comes from there.
var debianPython = map[string]string{"bullseye": "3.9", "bookworm": "3.11", "trixie": "3.13"}

var (
	goDirective = regexp.MustCompile(`(?m)^go ([0-9]+\.[0-9]+)`)
	minVersion  = regexp.MustCompile(`>=\s*([0-9]+)(\.[0-9]+)?`)
)

// checkVersions holds the toolchains of the workflows and the Dockerfile to
// the project's own declarations: Go from go.mod, Python from
// adapters/python/pyproject.toml, Node from adapters/ts/package.json.
func checkVersions(r *repo) (string, []string) {
	var p problems
	goVer, pyVer, nodeVer := "", "", ""
	if data, err := r.read("go.mod"); err != nil {
		p.add("%v", err)
	} else if m := goDirective.FindSubmatch(data); m != nil {
		goVer = string(m[1])
	}
	if data, err := r.read("adapters/python/pyproject.toml"); err != nil {
		p.add("%v", err)
	} else {
		var py struct {
			Project struct {
				RequiresPython string `toml:"requires-python"`
			} `toml:"project"`
		}
		if err := toml.Unmarshal(data, &py); err != nil {
			p.add("pyproject.toml: %v", err)
		} else if m := minVersion.FindStringSubmatch(py.Project.RequiresPython); m != nil {
			pyVer = m[1] + m[2]
		}
	}
	if data, err := r.read("adapters/ts/package.json"); err != nil {
		p.add("%v", err)
	} else {
		var pkg struct {
			Engines struct {
				Node string `json:"node"`
			} `json:"engines"`
		}
		if err := json.Unmarshal(data, &pkg); err != nil {
			p.add("package.json: %v", err)
		} else if m := minVersion.FindStringSubmatch(pkg.Engines.Node); m != nil {
			nodeVer = m[1]
		}
	}
	if goVer == "" || pyVer == "" || nodeVer == "" {
		p.add("could not read the project's versions (go.mod %q, requires-python %q, engines.node %q)", goVer, pyVer, nodeVer)
		return "", p
	}

	wfs, _ := loadWorkflows(r)
	for _, w := range wfs {
		for _, s := range w.steps() {
			uses := str(s.m["uses"])
			check := func(key, want string) {
				if got := str(get(s.m, "with", key)); got != want {
					p.add("%s: job %s: %s %s: %q, want %q", w.file, s.job, uses, key, got, want)
				}
			}
			switch {
			case strings.HasPrefix(uses, "actions/setup-go@"):
				check("go-version", goVer)
			case strings.HasPrefix(uses, "actions/setup-python@"):
				check("python-version", pyVer)
			case strings.HasPrefix(uses, "actions/setup-node@"):
				check("node-version", nodeVer)
			}
		}
	}

	if r.dockerfile != nil {
		codenames := map[string]bool{}
		for _, st := range r.dockerfile.stages {
			image, tag, _ := strings.Cut(st.BaseName, ":")
			for name := range debianPython {
				if strings.Contains(tag, name) {
					codenames[name] = true
				}
			}
			switch image {
			case "golang":
				if !strings.HasPrefix(tag, goVer+"-") && tag != goVer {
					p.add("Dockerfile: FROM %s, want Go %s (go.mod)", st.BaseName, goVer)
				}
			case "node":
				if !strings.HasPrefix(tag, nodeVer+"-") && tag != nodeVer {
					p.add("Dockerfile: FROM %s, want Node %s (package.json engines)", st.BaseName, nodeVer)
				}
			}
		}
		switch len(codenames) {
		case 1:
			for name := range codenames {
				if debianPython[name] != pyVer {
					p.add("Dockerfile: Debian %s has Python %s, the project wants %s", name, debianPython[name], pyVer)
				}
			}
		default:
			p.add("Dockerfile: base images from %d Debian releases: the build and runtime stages must share one (the virtualenv's python3)", len(codenames))
		}
	}
	return fmt.Sprintf("Go %s, Python %s, Node %s in every workflow and the Dockerfile", goVer, pyVer, nodeVer), p
}
