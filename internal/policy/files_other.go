//go:build !unix

package policy

import "os"

// openRegular opens a file for reading only if it is a regular file (see
// files_unix.go).
func openRegular(p string) (*os.File, error) {
	if st, err := os.Stat(p); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, &os.PathError{Op: "open", Path: p, Err: errNotRegular}
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: p, Err: errNotRegular}
	}
	return f, nil
}
