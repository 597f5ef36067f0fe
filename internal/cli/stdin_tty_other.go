//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd || windows)

package cli

import "os"

// isTerminal: here a character device other than the null device is taken
// for a terminal.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(st, null)
}
