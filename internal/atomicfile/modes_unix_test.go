//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// New files and folders are the people's to read, less the umask; a file
// written over keeps its mode; no temporary file is left behind.
func TestModes(t *testing.T) {
	tests := []struct {
		name              string
		umask             int
		old               fs.FileMode // 0: no file there before
		wantFile, wantDir fs.FileMode
	}{
		{"new", 0o022, 0, 0o644, 0o755},
		{"new, strict umask", 0o077, 0, 0o600, 0o700},
		{"new, no umask", 0, 0, 0o644, 0o755},
		{"over a 0640 file", 0o022, 0o640, 0o640, 0o755},
		{"over a 0664 file, strict umask", 0o077, 0o664, 0o664, 0o700},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer syscall.Umask(syscall.Umask(tt.umask))
			dir := filepath.Join(t.TempDir(), "out")
			path := filepath.Join(dir, "report.json")
			if tt.old != 0 {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte("old"), tt.old); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, tt.old); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(dir, tt.wantDir); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteAll(path, []byte("new")); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(path); string(b) != "new" {
				t.Errorf("content %q", b)
			}
			if m := perm(t, path); m != tt.wantFile {
				t.Errorf("file mode %v, want %v", m, tt.wantFile)
			}
			if m := perm(t, dir); m != tt.wantDir {
				t.Errorf("folder mode %v, want %v", m, tt.wantDir)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("folder holds %d entries, want the file alone", len(ents))
			}
		})
	}
}

func perm(t *testing.T, path string) fs.FileMode {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}
