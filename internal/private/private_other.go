//go:build !unix

package private

import "io/fs"

// Dir: per-user directories are the system's to protect.
func Dir(dir string, st fs.FileInfo) error { return nil }

// File: per-user files are the system's to protect.
func File(path string, st fs.FileInfo) error { return nil }
