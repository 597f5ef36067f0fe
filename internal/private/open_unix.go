//go:build unix

package private

import (
	"os"
	"syscall"
)

// Open is os.OpenFile for a regular file, with one open(2). os.OpenFile
// also hands the descriptor to the runtime's network poller, whose first
// use in a process sets it up (epoll, an eventfd) and which then learns,
// in four more system calls, that a regular file cannot be polled:
// measured, a third of what writing a log record cost a call that runs no
// handler.
func Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
