//go:build unix

package cli

import (
	"os"
	"syscall"
	"time"
)

// pollable returns stdin as a file the runtime's poller serves, so that
// reads take deadlines, and a function that undoes what it changed; nil
// when it cannot be had.
//
// A stdin that was non-blocking when the process started is served
// already. A blocking pipe is switched to non-blocking mode and opened
// again as a new File, which the poller takes; its mode is restored
// afterwards, because the file description may be shared with the tool.
// The new File is kept for the life of the process, whatever happens:
// collecting it would close the descriptor.
func pollable(f *os.File) (*os.File, func()) {
	if f.SetReadDeadline(time.Time{}) == nil {
		return f, func() {}
	}
	fd := int(f.Fd())
	if err := syscall.SetNonblock(fd, true); err != nil {
		return nil, nil
	}
	pf := os.NewFile(uintptr(fd), f.Name())
	keptStdin = append(keptStdin, pf)
	if pf == nil || pf.SetReadDeadline(time.Time{}) != nil {
		_ = syscall.SetNonblock(fd, false)
		return nil, nil
	}
	return pf, func() { _ = syscall.SetNonblock(fd, false) }
}

var keptStdin []*os.File
