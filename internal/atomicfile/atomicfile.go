// Package atomicfile writes files whole or not at all, so that a crash, a
// full disk or a Ctrl-C never leaves a torn corpus entry, report or fixture
// list for the next run to choke on.
//
// The files are a person's to read and share, like any a tool writes: a
// new one gets mode 0644 and a folder 0755, less the umask (os.CreateTemp
// would make them 0600); a file written over keeps its permissions.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

// Modes of what the package makes, before the umask.
const (
	FileMode fs.FileMode = 0o644
	DirMode  fs.FileMode = 0o755
)

// Write writes data to a temporary file beside path, syncs it, renames it
// into place and syncs the folder, so that the rename itself survives a
// crash.
func Write(path string, data []byte) error {
	if err := write(path, data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// WriteAll is Write after making path's folder.
func WriteAll(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), DirMode); err != nil {
		return err
	}
	return Write(path, data)
}

func write(path string, data []byte) error {
	mode, old := FileMode, false
	if st, err := os.Stat(path); err == nil {
		mode, old = st.Mode().Perm(), true
	}
	f, err := createTemp(path, mode)
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil && old {
		// The old file's mode, exactly: OpenFile's is cut by the umask.
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}

var tempSeq atomic.Uint64

// createTemp creates a new file beside path, with a name no one else
// uses, in mode perm less the umask: os.CreateTemp's is always 0600.
func createTemp(path string, perm fs.FileMode) (*os.File, error) {
	dir, base := filepath.Split(path)
	seed := uint64(time.Now().UnixNano()) ^ uint64(os.Getpid())<<32
	for range 100 {
		name := filepath.Join(dir, "."+base+".tmp"+strconv.FormatUint(seed+tempSeq.Add(1), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("no free temporary name beside %s", path)
}

// syncDir flushes a folder's entries, a rename among them, to the disk.
// A file system that cannot sync a folder is no error: there is nothing
// more to do there.
func syncDir(dir string) error {
	if dir == "" {
		dir = "."
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, errors.ErrUnsupported) {
		return nil
	}
	return err
}
