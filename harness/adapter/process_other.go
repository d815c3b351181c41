//go:build !linux

package adapter

import (
	"net"
	"os"
)

// growPipe leaves f's pipe at the system's size: only Linux lets a process
// ask for more (F_SETPIPE_SZ), and a smaller pipe only costs speed.
func growPipe(*os.File) {}

// writeParts writes the parts of one frame to f, one plain write each, as
// f.Write of their concatenation would, its deadline included. Outside
// Linux there is no vmsplice: the pipe gets copies, so the parts may
// change as soon as writeParts returns.
func writeParts(f *os.File, parts ...[]byte) error {
	bufs := net.Buffers(parts)
	_, err := bufs.WriteTo(f)
	return err
}
