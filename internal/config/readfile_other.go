//go:build !unix

package config

import "os"

// ReadFile reads a whole small file (see readfile_unix.go).
func ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }
