//go:build unix

package private

import (
	"fmt"
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// Dir refuses a directory that another user could write in. In shared
// storage anyone may create a directory in our place before us; what is
// read from a directory they own, or may write in, could be what they
// wrote. st is dir's own Lstat: a symbolic link is refused, not followed.
func Dir(dir string, st fs.FileInfo) error {
	if !st.IsDir() || !mine(st) {
		return fmt.Errorf("%s is not a directory only this user can write in", dir)
	}
	return nil
}

// File refuses a file that another user could have written: one they
// own or may write to, or a symbolic link (which may point at such a
// file). st is path's own Lstat.
func File(path string, st fs.FileInfo) error {
	if !st.Mode().IsRegular() || !mine(st) {
		return fmt.Errorf("%s is not a file only this user can write to", path)
	}
	return nil
}

func mine(st fs.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == uid() && st.Mode().Perm()&0o022 == 0
}

// uid is this process's user, asked once: every call checks a few of its
// folders and files, each a system call more. (A sync.Once, not
// sync.OnceValue, whose closure every process would allocate at start.)
func uid() int {
	uidOnce.Do(func() { uidValue = os.Getuid() })
	return uidValue
}

var (
	uidOnce  sync.Once
	uidValue int
)
