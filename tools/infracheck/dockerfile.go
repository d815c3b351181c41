package main

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/moby/buildkit/client/llb"
	"github.com/moby/buildkit/client/llb/sourceresolver"
	"github.com/moby/buildkit/frontend/dockerfile/dockerfile2llb"
	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/moby/buildkit/frontend/dockerui"
	digest "github.com/opencontainers/go-digest"

	"github.com/difffuzz/difffuzz/harness/adapterfile"
)

// dockerfileInfo is what later checks need from the Dockerfile.
type dockerfileInfo struct {
	stages     []instructions.Stage
	entrypoint []string // the final stage's, exec form
	cmd        []string
	workdir    string
}

// offlineResolver stands in for a registry: every base image resolves to an
// empty linux/amd64 image with the usual PATH, which is all the build checks
// read from it.
type offlineResolver struct{}

func (offlineResolver) ResolveImageConfig(_ context.Context, ref string, _ sourceresolver.Opt) (string, digest.Digest, []byte, error) {
	cfg := []byte(`{"architecture":"amd64","os":"linux","config":{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]},"rootfs":{"type":"layers","diff_ids":[]}}`)
	return ref, digest.FromBytes(cfg), cfg, nil
}

// checkDockerfileLint runs BuildKit's own Dockerfile frontend over the file,
// as `docker build --check` does, with base images resolved offline: a parse
// or conversion error, or any build-check warning, fails.
func checkDockerfileLint(r *repo) (string, []string) {
	var p problems
	dt, err := r.read("Dockerfile")
	if err != nil {
		p.add("%v", err)
		return "", p
	}
	res, err := dockerfile2llb.DockerfileLint(context.Background(), dt, dockerfile2llb.ConvertOpt{
		Config:       dockerui.Config{},
		SourceMap:    &llb.SourceMap{Filename: "Dockerfile", Language: "Dockerfile", Data: dt, Definition: &llb.Definition{}},
		MetaResolver: offlineResolver{},
	})
	if err != nil {
		p.add("%v", err)
		return "", p
	}
	if res.Error != nil {
		p.add("Dockerfile: %s", res.Error.Message)
	}
	for _, w := range res.Warnings {
		line := 0
		if w.Location != nil && len(w.Location.Ranges) > 0 {
			line = int(w.Location.Ranges[0].Start.Line)
		}
		p.add("Dockerfile:%d: %s: %s (%s)", line, w.RuleName, w.Detail, w.URL)
	}
	return "BuildKit frontend parse and build checks, no warnings", p
}

// checkDockerfileLayout checks the stages this project relies on: a build
// stage running `make build`, and a runtime stage laid out as the
// repository at the same folder, holding each worker difffuzz.toml names,
// running as a user other than root, with its output volume and
// `difffuzz run` entrypoint.
func checkDockerfileLayout(r *repo) (string, []string) {
	var p problems
	dt, err := r.read("Dockerfile")
	if err != nil {
		p.add("%v", err)
		return "", p
	}
	ast, err := parser.Parse(bytes.NewReader(dt))
	if err != nil {
		p.add("Dockerfile: %v", err)
		return "", p
	}
	stages, _, err := instructions.Parse(ast.AST, nil)
	if err != nil {
		p.add("Dockerfile: %v", err)
		return "", p
	}
	info := &dockerfileInfo{stages: stages}
	r.dockerfile = info
	if len(stages) < 2 {
		p.add("want a multi-stage build (build and runtime), got %d stage(s)", len(stages))
		return "", p
	}
	names := map[string]bool{}
	for _, s := range stages {
		if s.Name != "" {
			names[s.Name] = true
		}
	}

	// The build stage: the one that runs make build.
	var build *instructions.Stage
	buildWorkdir := ""
	for i := range stages {
		wd := ""
		for _, c := range stages[i].Commands {
			switch c := c.(type) {
			case *instructions.WorkdirCommand:
				wd = c.Path
			case *instructions.RunCommand:
				if strings.Contains(strings.Join(c.CmdLine, " "), "make build") {
					build, buildWorkdir = &stages[i], wd
				}
			}
		}
	}
	if build == nil {
		p.add("no stage runs `make build` (the Makefile is the build recipe)")
		return "", p
	}
	if build.Name == "" {
		p.add("the build stage (FROM %s) has no name to copy from", build.BaseName)
	}

	final := stages[len(stages)-1]
	if final.Name == build.Name || names[final.BaseName] {
		p.add("the final stage must start from a base image, not from another stage (FROM %s)", final.BaseName)
	}
	var user string
	var volumes []string
	copied := map[string]bool{} // destination paths in the runtime image, absolute
	for _, c := range final.Commands {
		switch c := c.(type) {
		case *instructions.WorkdirCommand:
			info.workdir = c.Path
		case *instructions.UserCommand:
			user = c.User
		case *instructions.VolumeCommand:
			volumes = append(volumes, c.Volumes...)
		case *instructions.EntrypointCommand:
			if c.PrependShell {
				p.add("ENTRYPOINT must use the exec form, [\"difffuzz\", \"run\", ...], so that arguments append to it")
			}
			info.entrypoint = c.CmdLine
		case *instructions.CmdCommand:
			if c.PrependShell {
				p.add("CMD must use the exec form, a JSON list of flags")
			}
			info.cmd = c.CmdLine
		case *instructions.CopyCommand:
			for _, src := range c.SourcePaths {
				dest := c.DestPath
				if !path.IsAbs(dest) {
					dest = path.Join(info.workdir, dest)
				}
				if strings.HasSuffix(c.DestPath, "/") || len(c.SourcePaths) > 1 {
					dest = path.Join(dest, path.Base(src))
				}
				copied[path.Clean(dest)] = true
			}
		}
	}
	if buildWorkdir == "" || info.workdir != buildWorkdir {
		p.add("the runtime WORKDIR (%q) must be the build stage's (%q): the virtualenv and the editable install hold absolute paths", info.workdir, buildWorkdir)
	}
	if user == "" || user == "root" || user == "0" || strings.HasPrefix(user, "root:") || strings.HasPrefix(user, "0:") {
		p.add("the runtime stage must run as a user other than root (USER, got %q)", user)
	}
	if !slices.Contains(volumes, "/data") {
		p.add("the runtime stage must declare VOLUME /data for the corpus and reports")
	}
	if len(info.entrypoint) < 2 || path.Base(info.entrypoint[0]) != "difffuzz" || info.entrypoint[1] != "run" {
		p.add("ENTRYPOINT must start with difffuzz run, got %q", info.entrypoint)
	} else {
		ep := literals(info.entrypoint[2:])
		for _, f := range []string{"corpus", "report", "junit", "summary"} {
			if v, ok := flagValue(ep, f); !ok || !strings.HasPrefix(v.text, "/data/") {
				p.add("ENTRYPOINT must set -%s under /data/ (the volume)", f)
			}
		}
		if v, ok := flagValue(ep, "known"); !ok {
			p.add("ENTRYPOINT must pass -known, the image's known-divergences.txt")
		} else if !copied[path.Clean(v.text)] {
			p.add("ENTRYPOINT's -known %s is not copied into the image", v.text)
		}
		r.invocations = append(r.invocations, invocation{where: "Dockerfile ENTRYPOINT+CMD",
			args: literals(append(append([]string{}, info.entrypoint[1:]...), info.cmd...))})
	}
	if len(info.cmd) > 0 && !strings.HasPrefix(info.cmd[0], "-") {
		p.add("CMD must hold only flags of difffuzz run (it follows the ENTRYPOINT), got %q", info.cmd)
	}

	// Every file each default worker needs, by difffuzz.toml.
	need, err := workerFiles(r)
	if err != nil {
		p.add("%v", err)
	}
	need = append(need, "difffuzz.toml", "bin/difffuzz", "corpus")
	for _, rel := range need {
		abs := path.Join(info.workdir, rel)
		if !coveredBy(copied, abs) {
			p.add("the runtime stage does not copy %s (needed at %s)", rel, abs)
		}
	}
	if !coveredBy(copied, "/usr/local/bin/node") {
		p.add("the runtime stage has no node (/usr/local/bin/node) for the TypeScript worker")
	}
	return fmt.Sprintf("%d stages; %q runs make build in %s; runtime runs as %s with /data and %d worker paths", len(stages), build.Name, buildWorkdir, user, len(need)-3), p
}

// coveredBy says whether abs or a folder above it was copied.
func coveredBy(copied map[string]bool, abs string) bool {
	for d := path.Clean(abs); ; d = path.Dir(d) {
		if copied[d] {
			return true
		}
		if d == "/" || d == "." {
			return false
		}
	}
}

// workerFiles lists the relative paths in the argv of every adapter of
// difffuzz.toml that runs by default: the files the image must hold.
func workerFiles(r *repo) ([]string, error) {
	data, err := r.read("difffuzz.toml")
	if err != nil {
		return nil, err
	}
	cfg, err := adapterfile.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("difffuzz.toml: %w", err)
	}
	var out []string
	for _, a := range cfg.Adapters {
		if a.InProcess || !a.IsDefault() {
			continue
		}
		for _, arg := range a.Command {
			if strings.Contains(arg, "/") && !path.IsAbs(arg) {
				out = append(out, path.Join(a.Dir, arg))
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("difffuzz.toml names no worker files")
	}
	return out, nil
}
