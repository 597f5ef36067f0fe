package config

import (
	"slices"
	"strings"

	"github.com/mattn/go-shellwords"
)

// SimpleCommands calls fn with the words of each simple command of a shell
// line, in order: the line is cut at ; & && || | and after a redirection's
// file name. It stops at syntax shellwords does not follow (subshells,
// here-documents...), which is the shell's business. Both the handler check
// and the trust pins read commands through it, so that they agree on what
// a command line names.
func SimpleCommands(line string, fn func(words []string)) {
	command := true // the next words start a simple command
	for rest := line; strings.TrimSpace(rest) != ""; {
		p := shellwords.NewParser()
		words, err := p.Parse(rest)
		if err != nil {
			return
		}
		if command {
			fn(words)
		}
		if p.Position < 0 {
			return
		}
		rest = string([]rune(rest)[p.Position:]) // Position counts runes
		after := strings.TrimLeft(strings.TrimLeft(rest, "0123456789"), ";&|<>")
		op := rest[:len(rest)-len(after)]
		if op == "" {
			return
		}
		rest = after
		// After a redirection comes a file name, then more of the same
		// command; after ; & && || | a new command.
		command = !strings.ContainsAny(op, "<>")
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
