//go:build !unix

package private

import "os"

// Open is os.OpenFile (open_unix.go says why it is not, there).
func Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}
