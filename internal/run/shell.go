package run

import (
	"runtime"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
)

// argv is what a handler's command line starts as on the system goos: a
// line that needs no shell is split with shell quoting rules and run
// directly (one process fewer on every call; direct is true); any other
// runs under the system's shell, sh on Unix and cmd.exe on Windows, as the
// tools themselves run their hooks there. On Windows the process is given
// cmdExeLine(args), built from these same words, so that what hookshim
// shows of a handler's process is what it starts.
func argv(goos, line string) (args []string, direct bool) {
	if args, ok := config.ArgvOn(goos, line); ok {
		return args, true
	}
	if goos == "windows" {
		// /D skips the registry's AutoRun commands, whose output would
		// land in the tool's answer; /S: see cmdExeLine.
		return []string{"cmd", "/d", "/s", "/c", line}, false
	}
	return []string{"/bin/sh", "-c", line}, false
}

// cmdExeLine is the command line that has cmd.exe run args, argv's words
// for a line that needs it, with the line as written. cmd.exe does not
// unquote its arguments the way os/exec quotes them (a " in the line
// would reach it as \"), so the line is handed over whole, in the form /S
// reads: the first and the last quote are taken away and the rest runs as
// it is.
func cmdExeLine(args []string) string {
	last := len(args) - 1
	return strings.Join(args[:last], " ") + ` "` + args[last] + `"`
}

// argvHere is argv on this system.
func argvHere(line string) ([]string, bool) { return argv(runtime.GOOS, line) }
