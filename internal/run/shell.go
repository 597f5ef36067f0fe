package run

import (
	"runtime"

	"github.com/hookshim/hookshim/internal/config"
)

// argv is what a handler's command line starts as on the system goos: a
// line that needs no shell is split with shell quoting rules and run
// directly (one process fewer on every call; direct is true); any other
// runs under the system's shell, sh on Unix and cmd.exe on Windows, as the
// tools themselves run their hooks there.
func argv(goos, line string) (args []string, direct bool) {
	if args, ok := config.ArgvOn(goos, line); ok {
		return args, true
	}
	if goos == "windows" {
		return []string{"cmd", "/C", line}, false
	}
	return []string{"/bin/sh", "-c", line}, false
}

// argvHere is argv on this system.
func argvHere(line string) ([]string, bool) { return argv(runtime.GOOS, line) }
