// Goproxy writes a Go module folder as a module proxy serves it, so that
// `go install MODULE/cmd/difffuzz@VERSION` works from a file:// GOPROXY with
// no repository host (make packages; scripts/check-install.sh):
//
//	goproxy -dir . -version v0.0.0-dev -o out/goproxy
//
// writes, in the GOPROXY protocol's layout (go help goproxy),
//
//	out/goproxy/<escaped module path>/@v/list
//	out/goproxy/<escaped module path>/@v/v0.0.0-dev.info
//	out/goproxy/<escaped module path>/@v/v0.0.0-dev.mod
//	out/goproxy/<escaped module path>/@v/v0.0.0-dev.zip
//
// The module path is read from dir/go.mod. The zip holds what
// golang.org/x/mod/zip.CreateFromDir would put in it (that package is not in
// the project's go.sum, so its rules are written here): every regular file
// under dir, each named module@version/path, except those in a nested module
// (a folder with its own go.mod), in a vendor folder, or in a version
// control folder (.git, .hg, .svn, .bzr). Pass a folder of the repository's
// tracked files (make packages copies them out with git ls-files) so that
// build outputs stay out, as they would from a proxy reading the repository.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// The limits of golang.org/x/mod/zip: the go command rejects a bigger zip.
const (
	maxZipFile = 500 << 20
	maxGoMod   = 16 << 20
)

func main() {
	dir := flag.String("dir", ".", "the module's root `folder` (holding go.mod)")
	version := flag.String("version", "v0.0.0-dev", "the module `version` to write (semantic, v-prefixed)")
	out := flag.String("o", "out/goproxy", "the proxy `folder` (GOPROXY=file://ABSOLUTE-PATH)")
	flag.Parse()
	if err := write(*dir, *version, *out, time.Now().UTC()); err != nil {
		fmt.Fprintf(os.Stderr, "goproxy: %v\n", err)
		os.Exit(1)
	}
}

var semver = regexp.MustCompile(`^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$`)

// write makes the proxy folder of the module in dir at version.
func write(dir, version, out string, now time.Time) error {
	if !semver.MatchString(version) {
		return fmt.Errorf("version %q is not a semantic version like v0.0.0-dev", version)
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	mod, err := modulePath(gomod)
	if err != nil {
		return err
	}
	esc, err := escape(mod)
	if err != nil {
		return err
	}
	files, err := moduleFiles(dir)
	if err != nil {
		return err
	}
	var zbuf bytes.Buffer
	if err := writeZip(&zbuf, dir, mod+"@"+version, files); err != nil {
		return err
	}
	if zbuf.Len() > maxZipFile {
		return fmt.Errorf("the module zip has %d bytes, more than the go command accepts (%d)", zbuf.Len(), maxZipFile)
	}
	info, _ := json.Marshal(struct {
		Version string
		Time    string
	}{version, now.Format(time.RFC3339)})
	vdir := filepath.Join(out, filepath.FromSlash(esc), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	writes := []struct {
		name string
		data []byte
	}{
		{version + ".mod", gomod},
		{version + ".zip", zbuf.Bytes()},
		{version + ".info", append(info, '\n')},
		{"list", []byte(version + "\n")},
	}
	for _, w := range writes {
		if err := os.WriteFile(filepath.Join(vdir, w.name), w.data, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("%s@%s: %d files, %d bytes zipped, in %s\n", mod, version, len(files), zbuf.Len(), vdir)
	return nil
}

// modulePath is the path of go.mod's module directive.
func modulePath(gomod []byte) (string, error) {
	for _, line := range strings.Split(string(gomod), "\n") {
		line, _, _ = strings.Cut(line, "//")
		fields := strings.Fields(line)
		if len(fields) == 2 && fields[0] == "module" {
			return strings.Trim(fields[1], "\"`"), nil
		}
	}
	return "", errors.New("go.mod has no module directive")
}

// escape is a module path as the proxy protocol spells it: each upper-case
// letter as '!' and its lower case (module.EscapePath).
func escape(mod string) (string, error) {
	var b strings.Builder
	for _, r := range mod {
		switch {
		case r == '!' || r >= 0x80:
			return "", fmt.Errorf("module path %q: %q cannot be escaped", mod, r)
		case 'A' <= r && r <= 'Z':
			b.WriteByte('!')
			b.WriteRune(r + 'a' - 'A')
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), nil
}

// moduleFiles lists the module's files, slash-separated and sorted.
func moduleFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			switch d.Name() {
			case ".git", ".hg", ".svn", ".bzr", "vendor":
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // symlinks and devices are left out, as x/mod/zip does
		}
		if path.Base(rel) == "go.mod" && rel != "go.mod" {
			return nil
		}
		files = append(files, rel)
		return nil
	})
	sort.Strings(files)
	return files, err
}

// writeZip zips files under prefix/.
func writeZip(w io.Writer, dir, prefix string, files []string) error {
	zw := zip.NewWriter(w)
	seen := map[string]string{}
	for _, f := range files {
		low := strings.ToLower(f)
		if other, ok := seen[low]; ok {
			return fmt.Errorf("%s and %s differ only in case, which a module zip cannot hold", other, f)
		}
		seen[low] = f
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return err
		}
		if f == "go.mod" && len(data) > maxGoMod {
			return fmt.Errorf("go.mod has %d bytes, more than %d", len(data), maxGoMod)
		}
		fw, err := zw.Create(prefix + "/" + f)
		if err != nil {
			return err
		}
		if _, err := fw.Write(data); err != nil {
			return err
		}
	}
	return zw.Close()
}
