package scaffold

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile writes data to dir/name, making its folders.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// tarGz is a gzipped tar of files (name -> content), in the order given:
// npm's tarballs and cargo's crates are this.
func tarGz(t *testing.T, files ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for i := 0; i < len(files); i += 2 {
		h := &tar.Header{Name: files[i], Mode: 0o644, Size: int64(len(files[i+1])), Typeflag: tar.TypeReg}
		if strings.HasSuffix(files[i], "/") {
			h.Typeflag, h.Size = tar.TypeDir, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(files[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// wheel is a zip with a wheel's metadata, as pip wheel writes it.
func wheel(t *testing.T, version string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.Create("difffuzz_kit-" + version + ".dist-info/METADATA")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("Name: difffuzz-kit\nVersion: " + version + "\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func crate(t *testing.T, version string) []byte {
	top := "difffuzz-kit-" + version + "/"
	return tarGz(t, top, "", top+"Cargo.toml", "[package]\nname = \"difffuzz-kit\"\nversion = \""+version+"\"\n", top+"src/lib.rs", "//! the kit\n")
}

// goProxy writes a module proxy folder at dir serving the difffuzz module
// at versions.
func goProxy(t *testing.T, dir string, versions ...string) {
	at := escapeModule(GoKitModule) + "/@v/"
	writeFile(t, dir, at+"list", []byte(strings.Join(versions, "\n")+"\n"))
	for _, v := range versions {
		writeFile(t, dir, at+v+".mod", []byte("module "+GoKitModule+"\n"))
		writeFile(t, dir, at+v+".zip", []byte("PK"))
	}
}

// packagesFolder is a folder as make packages leaves out/packages/: the
// four kits' packages, two versions of each, and the proxy.
func packagesFolder(t *testing.T, dir string) {
	for _, v := range []string{"0.9.0", "0.10.0"} {
		writeFile(t, dir, "difffuzz_kit-"+v+"-py3-none-any.whl", wheel(t, v))
		writeFile(t, dir, "difffuzz-kit-"+v+".tgz", tarGz(t, "package/package.json", `{"name": "@difffuzz/kit"}`))
		writeFile(t, dir, "difffuzz-kit-"+v+".crate", crate(t, v))
	}
	goProxy(t, filepath.Join(dir, goProxyFolder), "v0.9.0", "v0.10.0-dev", "v0.10.0")
}

// Each package kind, alone or picked from a folder of packages, is named
// in its manifest as the language's installer takes it: by its path,
// relative to the worker inside the team's repository and absolute outside
// it; a .crate unpacked into the skeleton; the Go module's version from
// the proxy, whose environment go.mod states.
func TestKitPackages(t *testing.T) {
	tmp := t.TempDir()
	team := filepath.Join(tmp, "team") // a git repository, with the packages in it
	writeFile(t, team, ".git/HEAD", []byte("ref: refs/heads/main\n"))
	packagesFolder(t, filepath.Join(team, "third_party/difffuzz"))
	outside := filepath.Join(tmp, "downloads") // the packages beside it
	packagesFolder(t, outside)
	writeFile(t, outside, "single/difffuzz-kit-0.3.0-rc.1.crate", crate(t, "0.3.0-rc.1"))
	worker := filepath.Join(team, "worker")
	env := "GOPROXY=file://" + outside + "/goproxy,https://proxy.golang.org GONOSUMDB=" + GoKitModule

	tests := []struct {
		name, lang, source, file string
		want                     []string // lines of file
		vendored                 []string // files under vendor/, with their content's first line
	}{
		{"wheel", "python", outside + "/difffuzz_kit-0.9.0-py3-none-any.whl", "requirements.txt",
			[]string{outside + "/difffuzz_kit-0.9.0-py3-none-any.whl"}, nil},
		{"wheel in the team's repository", "python", team + "/third_party/difffuzz/difffuzz_kit-0.9.0-py3-none-any.whl", "requirements.txt",
			[]string{"../third_party/difffuzz/difffuzz_kit-0.9.0-py3-none-any.whl"}, nil},
		{"folder of wheels", "python", outside, "requirements.txt",
			[]string{outside + "/difffuzz_kit-0.10.0-py3-none-any.whl"}, nil},
		{"tarball", "ts", outside + "/difffuzz-kit-0.9.0.tgz", "package.json",
			[]string{`    "@difffuzz/kit": "file:` + outside + `/difffuzz-kit-0.9.0.tgz"`}, nil},
		{"folder of tarballs in the team's repository", "ts", team + "/third_party/difffuzz", "package.json",
			[]string{`    "@difffuzz/kit": "file:../third_party/difffuzz/difffuzz-kit-0.10.0.tgz"`}, nil},
		{"crate", "rust", outside + "/single/difffuzz-kit-0.3.0-rc.1.crate", "Cargo.toml",
			[]string{`difffuzz-kit = { path = "vendor/difffuzz-kit-0.3.0-rc.1", features = ["serde_json"] }`, `exclude = ["vendor"]`},
			[]string{"vendor/difffuzz-kit-0.3.0-rc.1/Cargo.toml", "vendor/difffuzz-kit-0.3.0-rc.1/src/lib.rs"}},
		{"folder of crates", "rust", outside, "Cargo.toml",
			[]string{`difffuzz-kit = { path = "vendor/difffuzz-kit-0.10.0", features = ["serde_json"] }`},
			[]string{"vendor/difffuzz-kit-0.10.0/Cargo.toml", "vendor/difffuzz-kit-0.10.0/src/lib.rs"}},
		{"go proxy", "go", outside + "/goproxy", "go.mod",
			[]string{"require " + GoKitModule + " v0.10.0", "//\t" + env}, nil},
		{"folder holding the go proxy", "go", outside, "go.mod",
			[]string{"require " + GoKitModule + " v0.10.0", "//\t" + env}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := Files(Config{Lang: tt.lang, Dir: worker, KitSource: tt.source})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			var vendored []string
			for _, f := range files {
				got[f.Path] = string(f.Data)
				if strings.HasPrefix(f.Path, VendorDir+"/") {
					vendored = append(vendored, f.Path)
				}
			}
			lines := "\n" + got[tt.file] + "\n"
			for _, w := range tt.want {
				if !strings.Contains(lines, "\n"+w+"\n") {
					t.Errorf("%s has no line %q:\n%s", tt.file, w, got[tt.file])
				}
			}
			if strings.Join(vendored, " ") != strings.Join(tt.vendored, " ") {
				t.Errorf("vendored %q, want %q", vendored, tt.vendored)
			}
			if tt.vendored == nil && strings.Contains(got[tt.file], "exclude") {
				t.Errorf("%s excludes a vendor folder it has not:\n%s", tt.file, got[tt.file])
			}
		})
	}
}

// The files of an unpacked crate are the crate's, and init lists its
// folder once; a Go proxy's environment is in the next steps too.
func TestCrateFilesAndGoEnv(t *testing.T) {
	dir := t.TempDir()
	packagesFolder(t, dir)
	worker := filepath.Join(dir, "w")
	files, err := Files(Config{Lang: "rust", Dir: worker, KitSource: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Path == "vendor/difffuzz-kit-0.10.0/src/lib.rs" && string(f.Data) != "//! the kit\n" {
			t.Errorf("%s holds %q", f.Path, f.Data)
		}
	}
	want := ".gitignore Cargo.toml difffuzz.toml known-failures.txt src/main.rs vendor/difffuzz-kit-0.10.0/"
	if got := strings.Join(Paths(files), " "); got != want {
		t.Errorf("Paths: %s, want %s", got, want)
	}
	steps := NextSteps(Config{Lang: "go", Dir: worker, KitSource: dir})
	if !strings.Contains(steps, "\n       export GOPROXY=file://"+dir+"/goproxy,https://proxy.golang.org GONOSUMDB="+GoKitModule+"\n") {
		t.Errorf("NextSteps says no GOPROXY:\n%s", steps)
	}
	if steps := NextSteps(Config{Lang: "go", Dir: worker}); strings.Contains(steps, "GOPROXY") {
		t.Errorf("NextSteps without -kit-source says GOPROXY:\n%s", steps)
	}
}

func TestKitSourceErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "other/README.md", nil)
	writeFile(t, dir, "other/difffuzz-kit-0.1.0.tgz", nil)
	writeFile(t, dir, "evil/difffuzz-kit-0.1.0.crate", tarGz(t, "difffuzz-kit-0.1.0/../../x", "x"))
	writeFile(t, dir, "outside/difffuzz-kit-0.1.0.crate", tarGz(t, "other-0.1.0/Cargo.toml", "x"))
	writeFile(t, dir, "nomanifest/difffuzz-kit-0.1.0.crate", tarGz(t, "difffuzz-kit-0.1.0/src/lib.rs", "x"))
	writeFile(t, dir, "notgz/difffuzz-kit-0.1.0.crate", []byte("this is no gzip stream"))
	writeFile(t, dir, "nozip/goproxy/"+escapeModule(GoKitModule)+"/@v/list", []byte("v0.1.0\n"))
	writeFile(t, dir, "emptylist/"+escapeModule(GoKitModule)+"/@v/list", nil)
	tests := []struct {
		lang, source, want string
	}{
		{"python", "nosuch", "-kit-source " + dir + "/nosuch: no such file or folder (want a wheel difffuzz_kit-VERSION-*.whl, a folder holding one"},
		{"python", "other", "-kit-source " + dir + "/other: no python kit in it (want a wheel difffuzz_kit-VERSION-*.whl, a folder holding one (make packages' out/packages/, a release's assets), or the kit's folder, kits/python of a difffuzz checkout with its pyproject.toml); it holds README.md, difffuzz-kit-0.1.0.tgz"},
		{"python", "other/difffuzz-kit-0.1.0.tgz", "other/difffuzz-kit-0.1.0.tgz: not a python kit's package (want a wheel"},
		{"ts", "other/README.md", "not a ts kit's package (want an npm tarball difffuzz-kit-VERSION.tgz"},
		{"go", "other/difffuzz-kit-0.1.0.tgz", "not a go kit's package (want a Go module proxy folder holding " + GoKitModule},
		{"go", "other", "no go kit in it or above it (want a Go module proxy folder"},
		{"go", "nozip", "the module proxy lists " + GoKitModule + "@v0.1.0 but lacks its .mod"},
		{"go", "emptylist", "/@v/list lists no version"},
		{"rust", "empty", "no rust kit in it (want a crate difffuzz-kit-VERSION.crate, a folder holding one (make packages' out/packages/, a release's assets), or the kit's folder, kits/rust of a difffuzz checkout with its Cargo.toml); it holds nothing"},
		{"rust", "evil", `"difffuzz-kit-0.1.0/../../x" is not a file of difffuzz-kit-0.1.0/`},
		{"rust", "outside", `"other-0.1.0/Cargo.toml" is not a file of difffuzz-kit-0.1.0/`},
		{"rust", "nomanifest", "no difffuzz-kit-0.1.0/Cargo.toml in it: not a .crate"},
		{"rust", "notgz", "difffuzz-kit-0.1.0.crate: gzip: invalid header"},
	}
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	for _, tt := range tests {
		_, err := Files(Config{Lang: tt.lang, Dir: filepath.Join(dir, "w"), KitSource: filepath.Join(dir, tt.source)})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s -kit-source %s: %v, want %q", tt.lang, tt.source, err, tt.want)
		}
	}
}

func TestVersionLess(t *testing.T) {
	ordered := []string{"0.0.0-dev", "0.1.0rc1", "0.1.0", "0.1.1", "0.2", "0.9.0", "0.10.0-alpha", "0.10.0-beta", "0.10.0", "v1.0.0", "1.0.0.1"}
	for i, a := range ordered {
		for j, b := range ordered {
			if got := versionLess(a, b); got != (i < j) {
				t.Errorf("versionLess(%q, %q) = %v", a, b, got)
			}
		}
	}
}

func TestManifestPath(t *testing.T) {
	repo := t.TempDir()
	writeFile(t, repo, ".git", []byte("gitdir: elsewhere\n")) // a worktree's
	other := t.TempDir()
	tests := []struct{ worker, target, want string }{
		{repo + "/w", repo + "/pkgs/a.whl", "../pkgs/a.whl"},
		{repo + "/w", repo + "/w/pkgs/a.whl", "./pkgs/a.whl"},
		{repo + "/a/b/w", repo + "/a", "../.."},
		{repo + "/w", other + "/a.whl", other + "/a.whl"},
		{other + "/w", other + "/a.whl", other + "/a.whl"}, // no repository
	}
	for _, tt := range tests {
		if got := manifestPath(tt.worker, tt.target); got != tt.want {
			t.Errorf("manifestPath(%s, %s) = %s, want %s", tt.worker, tt.target, got, tt.want)
		}
	}
}
