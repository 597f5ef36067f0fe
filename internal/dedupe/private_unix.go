//go:build unix

package dedupe

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// private refuses a claims directory that another user could write in.
// In shared temporary storage, anyone may create hookshim-UID before us;
// answers read from a directory they own could be answers they wrote.
// st is dir's own Lstat: a symbolic link is refused, not followed.
func private(dir string, st fs.FileInfo) error {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !st.IsDir() || !ok || int(sys.Uid) != os.Getuid() || st.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is not a directory only this user can write in", dir)
	}
	return nil
}
