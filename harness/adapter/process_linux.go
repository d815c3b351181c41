package adapter

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// The Linux side of a worker process: the parent-death signal, pipes grown
// to pipeSize, and frames handed to the pipe by vmsplice. The other systems'
// fallbacks are in process_unixother.go, process_windows.go and
// process_other.go; what a worker sees differ is in docs/adapter-protocol.md
// ("Process").

// sysProcAttr puts the worker in a process group of its own, which
// signalGroup signals as one, and has the kernel kill it if the driver dies
// without cleaning up.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// pipeSize is the capacity asked for each of a worker's pipes: a batch's
// frame (about 1.5 MB on average at the fuzzing loop's default batch of
// 2,048, 190 KB at 256) then crosses in two writes and wake-ups of the
// reader, or one, instead of two dozen at the default 64 KiB. It is the
// kernel's default pipe-max-size; an unprivileged process may ask for no
// more.
const pipeSize = 1 << 20

// growPipe asks for pipeSize on f's pipe; where the kernel refuses (its
// limits, another system), the pipe keeps its size, which only costs speed.
func growPipe(f *os.File) {
	if rc, err := f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) { unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeSize) })
	}
}

// writeParts writes the parts of one frame to f, as f.Write of their
// concatenation would (its deadline included), without copying them: into
// a pipe, vmsplice hands the pipe the parts' pages by reference, and the
// reader copies straight out of them. A batch's cases, encoded once and
// shared by the lane's workers, are then copied neither into each worker's
// frame nor into each pipe (what that saves the driver is in
// docs/performance.md).
// So the parts must stay unchanged until the reader has read them, which a
// worker has once it answers (see Batch.Release). Where f is not a pipe, a
// vectored write copies them.
func writeParts(f *os.File, parts ...[]byte) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var werr error
	splice := true
	err = rc.Write(func(fd uintptr) bool {
		for len(parts) > 0 {
			var n int
			var err error
			if splice {
				n, err = unix.Vmsplice(int(fd), iovecs(parts), unix.SPLICE_F_NONBLOCK)
				switch err {
				case unix.EBADF, unix.EINVAL, unix.ENOSYS, unix.EPERM:
					// Not a pipe, no vmsplice here, or a sandbox's
					// syscall filter refuses it.
					splice = false
					continue
				}
			} else {
				n, err = unix.Writev(int(fd), parts)
			}
			switch {
			case err == unix.EINTR:
				continue
			case err == unix.EAGAIN:
				return false // the poller waits for room, or the deadline
			case err != nil:
				werr = err
				return true
			}
			parts = skip(parts, n)
		}
		return true
	})
	if err == nil {
		err = werr
	}
	if err != nil {
		return &os.PathError{Op: "write", Path: f.Name(), Err: err}
	}
	return nil
}

// iovecs describes the non-empty parts for vmsplice.
func iovecs(parts [][]byte) []unix.Iovec {
	iov := make([]unix.Iovec, 0, len(parts))
	for _, p := range parts {
		if len(p) > 0 {
			v := unix.Iovec{Base: &p[0]}
			v.SetLen(len(p))
			iov = append(iov, v)
		}
	}
	return iov
}

// skip drops the first n bytes of parts.
func skip(parts [][]byte, n int) [][]byte {
	for n > 0 && len(parts) > 0 {
		k := min(n, len(parts[0]))
		parts[0], n = parts[0][k:], n-k
		if len(parts[0]) == 0 {
			parts = parts[1:]
		}
	}
	for len(parts) > 0 && len(parts[0]) == 0 {
		parts = parts[1:]
	}
	return parts
}
