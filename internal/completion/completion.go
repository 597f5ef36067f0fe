// Package completion writes the shell completion scripts of `hookshim
// completion`. It reads them from the usage text the command line runs on:
// each command's synopsis gives its flags and the words a flag or an
// argument takes, and the placeholders of the synopses (ID, POLICY, FILE,
// COMMAND) stand for the provider registry, the policy pack, file names and
// the commands. A command, flag, tool or policy added there is completed
// with no edit here.
package completion

import (
	"strings"

	"github.com/hookshim/hookshim/internal/policy"
	"github.com/hookshim/hookshim/internal/provider"
)

// Shells are the shells a script is written for.
var Shells = []string{"bash", "zsh", "fish"}

// Arg is what a flag's value or a command's argument completes to: words,
// or file names (Files), or nothing (a free value).
type Arg struct {
	Words []string
	Files bool
}

func (a *Arg) add(b *Arg) {
	if b != nil {
		a.Words = append(a.Words, b.Words...)
		a.Files = a.Files || b.Files
	}
}

// Flag is one flag of a command; Arg is nil for a flag without value.
type Flag struct {
	Name string // with its dashes: --provider
	Arg  *Arg
}

// Command is one command: its flags and what its arguments complete to.
type Command struct {
	Name  string
	Flags []Flag
	Args  Arg
}

// Commands reads the usage blocks of the commands, in their order: each
// block is a synopsis ("  hookshim NAME [--flag VALUE] ARG", continued on
// lines indented deeper than the description) followed by its description
// (indented by six spaces), which is not read.
func Commands(blocks []string) []Command {
	var names []string
	for _, b := range blocks {
		names = append(names, blockName(b))
	}
	words := func(placeholder string) *Arg {
		switch placeholder {
		case "ID":
			return &Arg{Words: provider.IDs()}
		case "POLICY":
			return &Arg{Words: policy.Names()}
		case "FILE", "PATH", "DIR":
			return &Arg{Files: true}
		case "COMMAND":
			return &Arg{Words: names}
		}
		return nil // a free value: NAME, JSON, N
	}
	var cmds []Command
	for _, b := range blocks {
		cmds = append(cmds, parse(b, words))
	}
	return cmds
}

func blockName(block string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(block, "  hookshim "), " ")
	return strings.TrimSpace(name)
}

// synopsis is the tokens of a block's synopsis after "hookshim NAME".
func synopsis(block string) []string {
	var tokens []string
	for i, line := range strings.Split(strings.TrimRight(block, "\n"), "\n") {
		if i > 0 && strings.HasPrefix(line, "      ") && len(line) > 6 && line[6] != ' ' {
			break
		}
		tokens = append(tokens, strings.Fields(line)...)
	}
	if len(tokens) < 2 {
		return nil
	}
	return tokens[2:]
}

func parse(block string, words func(string) *Arg) Command {
	cmd := Command{Name: blockName(block)}
	tokens := synopsis(block)
	for i := 0; i < len(tokens); i++ {
		for _, alt := range strings.Split(strings.Trim(tokens[i], "[]"), "|") {
			switch {
			case isFlag(alt):
				// A flag takes a value when the next token is not another
				// flag, a "|" or an argument block of its own, and no "]"
				// closes the flag's own.
				if strings.HasSuffix(tokens[i], "]") || i+1 == len(tokens) || strings.ContainsAny(tokens[i+1][:1], "[-|") {
					cmd.Flags = append(cmd.Flags, Flag{Name: alt})
					continue
				}
				i++
				arg, more := flagValue(tokens[i], words)
				cmd.Flags = append(cmd.Flags, Flag{Name: alt, Arg: arg})
				for _, m := range more {
					cmd.Flags = append(cmd.Flags, Flag{Name: m})
				}
			case isWord(alt):
				cmd.Args.Words = append(cmd.Args.Words, alt)
			case alt != "" && strings.ToUpper(alt) == alt:
				cmd.Args.add(words(alt))
			}
		}
	}
	return cmd
}

// flagValue is what a flag's value token completes to: lower-case
// alternatives (project|user) are the words themselves; placeholders what
// they stand for (FILE|off: files, and off). An alternative that is a flag
// (--provider ID|--all) is returned as a flag of its own.
func flagValue(tok string, words func(string) *Arg) (a *Arg, flags []string) {
	a = &Arg{}
	for _, alt := range strings.Split(strings.TrimRight(tok, "]"), "|") {
		switch {
		case isWord(alt):
			a.Words = append(a.Words, alt)
		case isFlag(alt):
			flags = append(flags, alt)
		default:
			a.add(words(alt))
		}
	}
	return a, flags
}

// isFlag reports whether a token is a long flag (--dry-run); isWord
// whether it is a literal word (project). No regexp: hookshim compiles
// nothing at start (initcost_test.go).
func isFlag(s string) bool {
	rest, ok := strings.CutPrefix(s, "--")
	return ok && isWord(rest)
}

func isWord(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == ""
}
