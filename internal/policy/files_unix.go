//go:build unix

package policy

import (
	"os"
	"syscall"
)

// openRegular opens a file for reading only if it is a regular file.
// O_NONBLOCK makes the open of a FIFO return at once instead of waiting
// for a writer, and the check is made on the descriptor that was opened,
// so a file swapped for a FIFO between a check and the open is still
// refused.
func openRegular(p string) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: p, Err: errNotRegular}
	}
	return f, nil
}
