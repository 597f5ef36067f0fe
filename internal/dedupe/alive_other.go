//go:build !unix

package dedupe

import "os"

// alive reports whether a process with this id exists: elsewhere finding
// it opens it, which fails once it has ended.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
