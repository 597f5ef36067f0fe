//go:build !unix

package once

// private: per-user temporary directories are the system's to protect.
func private(dir string) error { return nil }
