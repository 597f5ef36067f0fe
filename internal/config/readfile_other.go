//go:build !unix

package config

import (
	"io"
	"os"
)

// ReadFile reads a whole small file (see readfile_unix.go).
func ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }

// ReadFileMax is ReadFile refusing a file larger than max bytes (see
// readfile_unix.go).
func ReadFileMax(path string, max int64) ([]byte, error) {
	if max < 0 {
		return os.ReadFile(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > max {
		return nil, &TooLargeError{Path: path, Size: st.Size(), Max: max}
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		return nil, &TooLargeError{Path: path, Size: int64(len(b)), Max: max}
	}
	return b, err
}
