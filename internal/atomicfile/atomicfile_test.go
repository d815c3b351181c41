package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// A failed write leaves the old file and no temporary one.
func TestWriteFailsWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "list.txt")
	if err := Write(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A folder cannot be renamed over: the rename fails after the write.
	if err := Write(filepath.Join(dir, "sub"), []byte("x")); err == nil {
		t.Fatal("wrote over a folder")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("content %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("folder holds %d entries, want the file and the folder", len(ents))
	}
}

// syncDir flushes an existing folder, and reports one that is not there.
func TestSyncDir(t *testing.T) {
	if err := syncDir(t.TempDir()); err != nil {
		t.Error(err)
	}
	if err := syncDir(filepath.Join(t.TempDir(), "gone")); err == nil {
		t.Error("no error for a missing folder")
	}
}
