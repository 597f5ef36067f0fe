package install

import (
	"bytes"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
)

// Diff is a unified diff (three lines of context) from old to new, with
// /dev/null for a side that does not exist. Empty when nothing changes.
func Diff(name string, old []byte, oldExists bool, new []byte, newExists bool) string {
	if oldExists == newExists && bytes.Equal(old, new) {
		return ""
	}
	from, to := "a/"+name, "b/"+name
	if strings.HasPrefix(name, "~/") || strings.HasPrefix(name, "/") {
		from, to = name, name // outside the project: no a/ b/ to strip
	}
	if !oldExists {
		from = "/dev/null"
	}
	if !newExists {
		to = "/dev/null"
	}
	out := diff.Diff(from, old, to, new)
	if out == nil {
		// Only the file's existence changes (an empty file).
		return "--- " + from + "\n+++ " + to + "\n"
	}
	// The library starts with a "diff FROM TO" line, as git does; patch
	// and readers need only the ---/+++ header.
	_, body, _ := bytes.Cut(out, []byte("\n"))
	return string(body)
}
