package scaffold

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// kitKind is what a -kit-source is.
type kitKind int

const (
	kitFolder  kitKind = iota // a kit's own folder: kits/LANG of a checkout (Go: the module holding it)
	kitWheel                  // difffuzz_kit-VERSION-*.whl, which pip installs from its path
	kitTarball                // difffuzz-kit-VERSION.tgz (npm pack), which npm installs by file:
	kitCrate                  // difffuzz-kit-VERSION.crate (cargo package), which init unpacks under vendor/
	kitGoProxy                // a module proxy folder in the GOPROXY layout (make packages' goproxy/)
)

// kitSource is a -kit-source resolved: where a skeleton's manifest takes
// the kit from.
type kitSource struct {
	kind    kitKind
	path    string // absolute
	version string // the package's version ("" for a kit folder), as its name or the proxy's list gives it
}

// A package of each language, as make packages and a release name it. The
// first group of each pattern is the version. A wheel's name is
// NAME-VERSION(-BUILD)-PYTHON-ABI-PLATFORM.whl, with the name's - as _; npm
// pack names @SCOPE/NAME's tarball SCOPE-NAME-VERSION.tgz.
var packages = map[string]struct {
	kind    kitKind
	pattern *regexp.Regexp
	want    string // the pattern for people
}{
	"python": {kitWheel, regexp.MustCompile(`^` + strings.ReplaceAll(PythonKit, "-", "_") + `-(\d[^-]*)(-[^-]+)?-[^-]+-[^-]+-[^-]+\.whl$`), "a wheel difffuzz_kit-VERSION-*.whl"},
	"ts":     {kitTarball, regexp.MustCompile(`^` + strings.ReplaceAll(strings.TrimPrefix(TSKit, "@"), "/", "-") + `-(\d.*)\.tgz$`), "an npm tarball difffuzz-kit-VERSION.tgz"},
	"rust":   {kitCrate, regexp.MustCompile(`^` + RustKit + `-(\d.*)\.crate$`), "a crate difffuzz-kit-VERSION.crate"},
}

// kitManifests are the files that make a folder a kit's own (Go's kit is a
// folder of the difffuzz module, found by its go.mod).
var kitManifests = map[string]string{"python": "pyproject.toml", "ts": "package.json", "rust": "Cargo.toml"}

// goProxyFolder is the name make packages gives the module proxy in its
// folder of packages.
const goProxyFolder = "goproxy"

// resolveKitSource finds the kit of lang in -kit-source p, which is, in
// this order: a package of lang (a file; for Go a module proxy folder); a
// kit's own folder (its manifest is in it); a folder holding packages, of
// which it takes the newest of lang; for Go, a folder of the difffuzz
// module. The error names what it found instead.
func resolveKitSource(lang, p string) (kitSource, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return kitSource{}, fmt.Errorf("-kit-source %s: %w", p, err)
	}
	st, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return kitSource{}, fmt.Errorf("-kit-source %s: no such file or folder (want %s)", p, wants(lang))
	}
	if err != nil {
		return kitSource{}, fmt.Errorf("-kit-source %s: %w", p, err)
	}
	if !st.IsDir() {
		return packageFile(lang, p, abs)
	}
	if lang == "go" {
		return goSource(p, abs)
	}
	if _, err := os.Stat(filepath.Join(abs, kitManifests[lang])); err == nil {
		return kitSource{kind: kitFolder, path: abs}, nil
	}
	names, err := folderNames(abs)
	if err != nil {
		return kitSource{}, fmt.Errorf("-kit-source %s: %w", p, err)
	}
	pkg := packages[lang]
	var found []kitSource
	for _, n := range names {
		if m := pkg.pattern.FindStringSubmatch(n); m != nil {
			found = append(found, kitSource{kind: pkg.kind, path: filepath.Join(abs, n), version: m[1]})
		}
	}
	if len(found) == 0 {
		return kitSource{}, fmt.Errorf("-kit-source %s: no %s kit in it (want %s); it holds %s", p, lang, wants(lang), inventory(names))
	}
	return newest(found), nil
}

// wants says what -kit-source takes for lang, for an error.
func wants(lang string) string {
	folder := fmt.Sprintf("the kit's folder, kits/%s of a difffuzz checkout", lang)
	if lang == "go" {
		return fmt.Sprintf("a Go module proxy folder holding %s, a folder holding one as %s/ (make packages' out/packages/), or %s", GoKitModule, goProxyFolder, folder)
	}
	return fmt.Sprintf("%s, a folder holding one (make packages' out/packages/, a release's assets), or %s with its %s", packages[lang].want, folder, kitManifests[lang])
}

// packageFile is -kit-source naming a package file, which must be one of lang.
func packageFile(lang, p, abs string) (kitSource, error) {
	pkg, ok := packages[lang] // not Go's, a folder
	var m []string
	if ok {
		m = pkg.pattern.FindStringSubmatch(filepath.Base(abs))
	}
	if m == nil {
		return kitSource{}, fmt.Errorf("-kit-source %s: not a %s kit's package (want %s)", p, lang, wants(lang))
	}
	return kitSource{kind: pkg.kind, path: abs, version: m[1]}, nil
}

// goSource is a folder as Go's -kit-source: a module proxy holding the
// kit's module (the folder itself, or its goproxy/ as in make packages'
// output), else the kit's module that holds the folder, or the one in
// the driver's checkout that holds it (its kits/go).
func goSource(p, abs string) (kitSource, error) {
	for _, proxy := range []string{abs, filepath.Join(abs, goProxyFolder)} {
		v, err := proxyVersion(proxy)
		if err != nil {
			return kitSource{}, fmt.Errorf("-kit-source %s: %w", p, err)
		}
		if v != "" {
			return kitSource{kind: kitGoProxy, path: proxy, version: v}, nil
		}
	}
	for dir := abs; ; dir = filepath.Dir(dir) {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			if modulePath(mod) == GoDriverModule {
				dir = filepath.Join(dir, filepath.FromSlash(GoKitFolder))
				mod, err = os.ReadFile(filepath.Join(dir, "go.mod"))
			}
			if err != nil || modulePath(mod) != GoKitModule {
				return kitSource{}, fmt.Errorf("-kit-source %s: %s/go.mod is not module %s", p, dir, GoKitModule)
			}
			return kitSource{kind: kitFolder, path: dir}, nil
		}
		if dir == filepath.Dir(dir) {
			names, _ := folderNames(abs)
			return kitSource{}, fmt.Errorf("-kit-source %s: no go kit in it or above it (want %s); it holds %s", p, wants("go"), inventory(names))
		}
	}
}

// modulePath is the path of a go.mod's module directive, "" if it has none.
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], "\"`")
		}
	}
	return ""
}

// proxyVersion is the newest version of the difffuzz module in the module
// proxy folder dir (GOPROXY layout: MODULE/@v/list, and VERSION.mod and
// VERSION.zip beside it), or "" when dir holds no such list.
func proxyVersion(dir string) (string, error) {
	at := filepath.Join(dir, filepath.FromSlash(escapeModule(GoKitModule)), "@v")
	b, err := os.ReadFile(filepath.Join(at, "list"))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var versions []kitSource
	for _, v := range strings.Fields(string(b)) {
		versions = append(versions, kitSource{version: v})
	}
	if len(versions) == 0 {
		return "", fmt.Errorf("%s lists no version", filepath.Join(at, "list"))
	}
	v := newest(versions).version
	for _, ext := range []string{".mod", ".zip"} {
		if _, err := os.Stat(filepath.Join(at, v+ext)); err != nil {
			return "", fmt.Errorf("the module proxy lists %s@%s but lacks its %s: %w", GoKitModule, v, ext, err)
		}
	}
	return v, nil
}

// escapeModule is a module path as a proxy's folders spell it: each upper
// case letter as ! and its lower case (go help goproxy).
func escapeModule(module string) string {
	var b strings.Builder
	for _, r := range module {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// GoProxyEnv is the environment in which the go command finds the difffuzz
// module in the module proxy folder proxy: that folder first, then the
// public proxy for the module's own dependencies; and no checksum database
// for the module, which knows nothing of a version built locally (or knows
// a published one's different sums).
func GoProxyEnv(proxy string) string {
	u := filepath.ToSlash(proxy)
	if !strings.HasPrefix(u, "/") {
		u = "/" + u
	}
	return "GOPROXY=file://" + u + ",https://proxy.golang.org GONOSUMDB=" + GoKitModule
}

// newest is the source of the highest version.
func newest(found []kitSource) kitSource {
	sort.SliceStable(found, func(i, j int) bool { return versionLess(found[i].version, found[j].version) })
	return found[len(found)-1]
}

var versionParts = regexp.MustCompile(`^v?((?:\d+\.)*\d+)(.*)$`)

// versionLess orders the versions of a kit's packages: by their dotted
// release numbers, then a release after any of its pre-releases (1.0.0-rc.1,
// 1.0.0rc1, v1.0.0-dev), pre-releases by their text. It is the common part
// of semantic versioning and PEP 440 that the kits' versions use.
func versionLess(a, b string) bool {
	ma, mb := versionParts.FindStringSubmatch(a), versionParts.FindStringSubmatch(b)
	if ma == nil || mb == nil {
		return a < b
	}
	ra, rb := strings.Split(ma[1], "."), strings.Split(mb[1], ".")
	for i := 0; i < len(ra) || i < len(rb); i++ {
		x, y := 0, 0
		if i < len(ra) {
			x, _ = strconv.Atoi(ra[i])
		}
		if i < len(rb) {
			y, _ = strconv.Atoi(rb[i])
		}
		if x != y {
			return x < y
		}
	}
	switch pa, pb := ma[2], mb[2]; {
	case pa == "" || pb == "":
		return pa != "" && pb == ""
	default:
		return pa < pb
	}
}

// folderNames are the names in dir, sorted, folders with a trailing /.
func folderNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	return names, nil
}

// inventory names a folder's entries in an error: the first ten.
func inventory(names []string) string {
	switch {
	case len(names) == 0:
		return "nothing"
	case len(names) > 10:
		return strings.Join(names[:10], ", ") + fmt.Sprintf(" and %d more", len(names)-10)
	}
	return strings.Join(names, ", ")
}

// VendorDir is the folder of a skeleton into which init unpacks a .crate:
// cargo depends on a crate's folder, not on the .crate file.
const VendorDir = "vendor"

// maxCrate caps an unpacked crate: the kit's source is some hundred KiB.
const maxCrate = 64 << 20

// unpackCrate is the file crate (a gzipped tar whose files are all in
// NAME-VERSION/) as skeleton files under VendorDir/NAME-VERSION/. It takes
// regular files only, and refuses a path out of that folder.
func unpackCrate(crate string) (dir string, files []File, err error) {
	f, err := os.Open(crate)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", crate, err)
	}
	top := strings.TrimSuffix(filepath.Base(crate), ".crate")
	dir = VendorDir + "/" + top
	tr := tar.NewReader(io.LimitReader(zr, maxCrate))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", crate, err)
		}
		rest, ok := strings.CutPrefix(h.Name, top+"/")
		switch {
		case h.Typeflag == tar.TypeDir:
			continue
		case !ok || rest == "" || path.Clean(rest) != rest || strings.HasPrefix(rest, "../"):
			return "", nil, fmt.Errorf("%s: %q is not a file of %s/", crate, h.Name, top)
		case h.Typeflag != tar.TypeReg:
			return "", nil, fmt.Errorf("%s: %s is not a regular file (type %q)", crate, h.Name, h.Typeflag)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return "", nil, fmt.Errorf("%s: %s: %w", crate, h.Name, err)
		}
		files = append(files, File{Path: dir + "/" + rest, Data: b})
	}
	for _, f := range files {
		if f.Path == dir+"/Cargo.toml" {
			return dir, files, nil
		}
	}
	return "", nil, fmt.Errorf("%s: no %s/Cargo.toml in it: not a .crate", crate, top)
}

// manifestPath is target as the manifest of the worker in workerDir names
// it: relative to workerDir (./ or ../, which pip, npm, cargo and go all
// take for a path) when both lie in one git repository, the team's, so
// that the repository reads the same in every clone; else absolute.
func manifestPath(workerDir, target string) string {
	root := repository(workerDir)
	if root == "" || !within(root, target) {
		return target
	}
	rel, err := filepath.Rel(workerDir, target)
	if err != nil {
		return target
	}
	rel = filepath.ToSlash(rel)
	if rel != ".." && !strings.HasPrefix(rel, "../") {
		rel = "./" + rel
	}
	return rel
}

// repository is the root of the git repository holding the absolute path
// dir (which need not exist yet), or "".
func repository(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

// within says whether path is root or below it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}
