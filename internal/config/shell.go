package config

import (
	"slices"

	"github.com/hookshim/hookshim/internal/shellcmd"
)

// SimpleCommands calls fn with the words of each simple command of a shell
// line, in order, as internal/shellcmd reads it: commands after ; & && ||
// | and newlines, inside subshells, blocks, functions, $(…), sh -c '…' and
// the wrappers it unwraps (sudo, env, nice, …) are each one command; words
// are quote-removed, variables kept as written ($HOME, $CLAUDE_PROJECT_DIR).
// At a syntax error it stops, after the commands read before it. Both the
// handler check and the trust pins read commands through it, so that they
// agree with the policies on what a command line names.
func SimpleCommands(line string, fn func(words []string)) {
	cmds, _ := shellcmd.Commands(line)
	for _, c := range cmds {
		if len(c.Args) > 0 {
			fn(c.Args)
		}
	}
}

// SkipWrappers drops leading variable assignments and the wrappers that
// run the command after them (exec, command, nohup, time).
func SkipWrappers(words []string) []string {
	for len(words) > 0 && (isAssignment(words[0]) || slices.Contains(wrappers, words[0])) {
		words = words[1:]
	}
	return words
}
