package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
)

// composeInfo is what later checks need from docker-compose.yml.
type composeInfo struct {
	image string
}

// checkCompose loads docker-compose.yml as `docker compose config` does
// (compose-go: the Compose Specification's JSON schema, interpolation,
// normalization), then checks the difffuzz service: built from this
// Dockerfile, the image's `difffuzz run` ENTRYPOINT kept, a command of flags
// only (so that `docker compose run difffuzz -duration 1h` replaces them
// and keeps the output flags), and a named volume at /data.
func checkCompose(r *repo) (string, []string) {
	var p problems
	const file = "docker-compose.yml"
	if !r.exists(file) {
		p.add("%s is missing", file)
		return "", p
	}
	project, err := loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  r.root,
		ConfigFiles: []types.ConfigFile{{Filename: r.path(file)}},
		Environment: types.Mapping{},
	}, func(o *loader.Options) {
		o.SetProjectName("difffuzz", false)
		o.ResolvePaths = true
	})
	if err != nil {
		p.add("%s: %v", file, err)
		return "", p
	}
	svc, err := project.GetService("difffuzz")
	if err != nil {
		p.add("%s: no service difffuzz: %v", file, err)
		return "", p
	}
	r.composeInfo = &composeInfo{image: svc.Image}
	if svc.Image == "" {
		p.add("service difffuzz: no image name (the Kubernetes manifests run the same image)")
	}
	if svc.Build == nil {
		p.add("service difffuzz: no build section")
	} else {
		ctx, _ := filepath.Rel(r.root, svc.Build.Context)
		if ctx != "." {
			p.add("service difffuzz: build context %q, want the repository root", svc.Build.Context)
		}
		df := svc.Build.Dockerfile
		if df == "" {
			df = "Dockerfile"
		}
		if !filepath.IsAbs(df) {
			df = filepath.Join(svc.Build.Context, df)
		}
		if rel, _ := filepath.Rel(r.root, df); rel != "Dockerfile" {
			p.add("service difffuzz: builds %s, want Dockerfile", rel)
		}
	}

	// The command line `docker compose run` gives difffuzz: the image's
	// ENTRYPOINT unless the service replaces it, then the service's command
	// (the image's CMD when neither is set), or the arguments after the
	// service name instead of it.
	entrypoint := []string(svc.Entrypoint)
	if svc.Entrypoint == nil {
		if r.dockerfile == nil || len(r.dockerfile.entrypoint) == 0 {
			p.add("service difffuzz inherits the image's ENTRYPOINT, but the Dockerfile has none")
			return "", p
		}
		entrypoint = r.dockerfile.entrypoint
	}
	if len(entrypoint) < 2 || filepath.Base(entrypoint[0]) != "difffuzz" || entrypoint[1] != "run" {
		p.add("service difffuzz: the entrypoint must be difffuzz run, got %q", entrypoint)
		return "", p
	}
	command := []string(svc.Command)
	if len(command) == 0 {
		p.add("service difffuzz: want a default command of flags (e.g. [\"-duration\", \"10m\"])")
	} else if !strings.HasPrefix(command[0], "-") {
		p.add("service difffuzz: command %q must be flags of difffuzz run: it follows the entrypoint", command)
	}
	base := append([]string{}, entrypoint[1:]...)
	r.invocations = append(r.invocations,
		invocation{where: file + " (docker compose run difffuzz)", args: literals(append(base, command...))},
		invocation{where: file + " (docker compose run difffuzz -duration 1h)", args: literals(append(base, "-duration", "1h"))})

	var data *types.ServiceVolumeConfig
	for i, v := range svc.Volumes {
		if v.Target == "/data" {
			data = &svc.Volumes[i]
		}
	}
	switch {
	case data == nil:
		p.add("service difffuzz: no volume mounted at /data")
	case data.Type != types.VolumeTypeVolume:
		p.add("service difffuzz: /data is a %s mount, want a named volume", data.Type)
	default:
		if _, ok := project.Volumes[data.Source]; !ok {
			p.add("service difffuzz: volume %q is not declared under volumes:", data.Source)
		}
	}
	if data == nil {
		return "", p
	}
	return fmt.Sprintf("compose-spec schema ok; service difffuzz builds %s, runs `%s` + %q, volume %s at /data", svc.Image, strings.Join(entrypoint[:2], " "), command, data.Source), p
}
