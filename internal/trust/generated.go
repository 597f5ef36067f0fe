package trust

import "strings"

// Generated reports whether a file or folder by this name, under a pinned
// folder, is written by the tools around the scripts rather than by a
// person: Python's bytecode cache, editors' swap, backup and lock files,
// the Finder's folder settings. Such a file never runs as a policy (Python
// checks its cache against the source it was compiled from; an editor's
// swap file is no script), yet it appears the moment a script runs or is
// opened: counted as a change, it would end an allowance by itself. So
// the digest, the allowed copy and the list of changes all leave it out.
func Generated(name string) bool {
	switch {
	case name == "__pycache__", name == ".DS_Store":
		return true
	case strings.HasSuffix(name, ".pyc"), strings.HasSuffix(name, ".pyo"):
		return true
	case strings.HasSuffix(name, ".swp"), strings.HasSuffix(name, ".swo"), strings.HasSuffix(name, ".swx"):
		return true // vim
	case strings.HasSuffix(name, "~"):
		return true // emacs, vim and others: backup files
	case strings.HasPrefix(name, ".#"):
		return true // emacs: lock files (a link)
	case len(name) > 2 && strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"):
		return true // emacs: auto-save files
	}
	return false
}
