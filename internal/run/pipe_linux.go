package run

import (
	"os"
	"syscall"
)

// growPipe asks for a pipe buffer of n bytes (F_SETPIPE_SZ), capped at
// the system's limit (/proc/sys/fs/pipe-max-size, 1 MiB by default for a
// user). Refusal leaves the default 64 KiB: slower, not wrong.
func growPipe(w *os.File, n int) {
	const setPipeSize = 1031 // F_SETPIPE_SZ
	const max = 1 << 20
	if n > max {
		n = max
	}
	rc, err := w.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, fd, setPipeSize, uintptr(n))
	})
}
