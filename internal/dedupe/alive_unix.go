//go:build unix

package dedupe

import (
	"errors"
	"syscall"
)

// alive reports whether a process with this id exists. Signal 0 checks
// without sending anything; EPERM is a process of another user's, alive.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
