//go:build unix

package cli

import (
	"os"
	"syscall"
	"time"
)

// pollable returns stdin as a file the runtime's poller serves, so that
// reads take deadlines, and a function that puts the descriptor back in
// blocking mode; nil when it cannot be had (a descriptor the poller does
// not take). The file description may be shared with the tool, which is
// why its mode is restored. The new File is kept for the life of the
// process: collecting it would close the descriptor.
func pollable(f *os.File) (*os.File, func()) {
	fd := int(f.Fd())
	if err := syscall.SetNonblock(fd, true); err != nil {
		return nil, nil
	}
	pf := os.NewFile(uintptr(fd), f.Name())
	if pf == nil || pf.SetReadDeadline(time.Time{}) != nil {
		_ = syscall.SetNonblock(fd, false)
		return nil, nil
	}
	keptStdin = pf
	return pf, func() { _ = syscall.SetNonblock(fd, false) }
}

var keptStdin *os.File
