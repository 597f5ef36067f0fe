//go:build !unix

package dedupe

import "io/fs"

// private: per-user temporary directories are the system's to protect.
func private(dir string, st fs.FileInfo) error { return nil }
