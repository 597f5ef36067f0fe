package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/policy"
	"github.com/hookshim/hookshim/internal/provider"
)

// The shell completion scripts are generated from the tables the CLI runs
// on: the commands table, each command's synopsis in the usage text (its
// flags, and the words a flag or an argument takes), the provider registry
// and the policy pack. A command, flag, tool or policy added there is
// completed with no edit here.

// shells are the shells `hookshim completion` writes a script for.
var shells = []string{"bash", "zsh", "fish"}

func cmdCompletion(args []string, _ io.Reader, stdout, stderr io.Writer, _ func(string) string) int {
	if len(args) != 1 || !slices.Contains(shells, args[0]) {
		errorf(stderr, "completion takes one shell: %s", strings.Join(shells, ", "))
		hintf(stderr, "run 'hookshim completion --help' for its usage")
		return 2
	}
	specs := completionSpecs()
	switch args[0] {
	case "bash":
		fmt.Fprint(stdout, bashCompletion(specs))
	case "zsh":
		fmt.Fprint(stdout, zshCompletion(specs))
	case "fish":
		fmt.Fprint(stdout, fishCompletion(specs))
	}
	return 0
}

// compArg is what a flag's value or a command's argument completes to:
// words, or file names (files), or nothing (a free value).
type compArg struct {
	words []string
	files bool
}

// compFlag is one flag of a command; arg is nil for a flag without value.
type compFlag struct {
	name string // with its dashes: --provider
	arg  *compArg
}

// compSpec is one command: its flags and what its arguments complete to.
type compSpec struct {
	name  string
	flags []compFlag
	args  compArg
}

// placeholders maps the upper-case words of the synopses to what they
// stand for. A placeholder not listed here is a free value.
func placeholders(name string) *compArg {
	switch name {
	case "ID":
		return &compArg{words: provider.IDs()}
	case "NAME":
		return nil
	case "FILE", "PATH", "DIR":
		return &compArg{files: true}
	case "COMMAND":
		return &compArg{words: usageCommands()}
	}
	return nil
}

// isFlag reports whether a token is a long flag (--dry-run); isWord
// whether it is a literal word (project). No regexp: package cli compiles
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

// usageCommands lists the commands of the usage text, in its order. It is
// the commands table's (TestUsageNamesOnlyCommands, and every command has
// its usage block), read from the text because the table holds this
// command.
func usageCommands() []string {
	_, body, _ := strings.Cut(usage, "\nUsage:\n")
	body, _, _ = strings.Cut(body, "\n\n")
	var names []string
	for _, line := range strings.Split(body, "\n") {
		if rest, ok := strings.CutPrefix(line, "  hookshim "); ok {
			name, _, _ := strings.Cut(rest, " ")
			names = append(names, name)
		}
	}
	return names
}

// completionSpecs reads every command's synopsis: the first lines of its
// usage block, down to the first line of description.
func completionSpecs() []compSpec {
	var specs []compSpec
	for _, name := range usageCommands() {
		spec := compSpec{name: name}
		var tokens []string
		for i, line := range strings.Split(strings.TrimRight(commandUsage(name), "\n"), "\n") {
			// Description lines are indented by six spaces; synopsis
			// continuation lines by more.
			if i > 0 && strings.HasPrefix(line, "      ") && line[6] != ' ' {
				break
			}
			tokens = append(tokens, strings.Fields(line)...)
		}
		if len(tokens) > 2 {
			tokens = tokens[2:] // "hookshim NAME"
		} else {
			tokens = nil
		}
		for i := 0; i < len(tokens); i++ {
			for _, alt := range strings.Split(strings.Trim(tokens[i], "[]"), "|") {
				switch {
				case isFlag(alt):
					f := compFlag{name: alt}
					// A flag takes a value when the next token is not
					// another flag, a "|" or an argument block of its
					// own, and no "]" closes the flag's own.
					if !strings.HasSuffix(tokens[i], "]") && i+1 < len(tokens) && !strings.ContainsAny(tokens[i+1][:1], "[-|") {
						i++
						var more []string
						f.arg, more = flagValue(tokens[i])
						spec.flags = append(spec.flags, f)
						for _, m := range more {
							spec.flags = append(spec.flags, compFlag{name: m})
						}
						continue
					}
					spec.flags = append(spec.flags, f)
				case isWord(alt):
					spec.args.words = append(spec.args.words, alt)
				case alt != "" && strings.ToUpper(alt) == alt:
					if a := placeholders(alt); a != nil {
						spec.args.words = append(spec.args.words, a.words...)
						spec.args.files = spec.args.files || a.files
					}
				}
			}
		}
		if name == "policies" {
			// policies NAME names a policy of the pack.
			spec.args.words = append(spec.args.words, policy.Names()...)
		}
		specs = append(specs, spec)
	}
	return specs
}

// flagValue is what a flag's value token completes to: lower-case
// alternatives (project|user) are the words themselves; placeholders what
// they stand for (FILE|off: files, and off). An alternative that is a flag
// (--provider ID|--all) is returned as a flag of its own.
func flagValue(tok string) (a *compArg, flags []string) {
	tok = strings.TrimRight(tok, "]")
	a = &compArg{}
	for _, alt := range strings.Split(tok, "|") {
		switch {
		case isWord(alt):
			a.words = append(a.words, alt)
		case isFlag(alt):
			flags = append(flags, alt)
		default:
			if p := placeholders(alt); p != nil {
				a.words = append(a.words, p.words...)
				a.files = a.files || p.files
			}
		}
	}
	return a, flags
}

func specNames(specs []compSpec) string {
	var names []string
	for _, s := range specs {
		names = append(names, s.name)
	}
	return strings.Join(names, " ")
}

func flagNames(s compSpec) string {
	var names []string
	for _, f := range s.flags {
		names = append(names, f.name)
	}
	return strings.Join(names, " ")
}

func bashCompletion(specs []compSpec) string {
	var b strings.Builder
	b.WriteString(`# bash completion for hookshim, generated by 'hookshim completion bash'.
# Load it with: source <(hookshim completion bash), or save it as
# ~/.local/share/bash-completion/completions/hookshim.
_hookshim() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "` + specNames(specs) + `" -- "$cur"))
        return
    fi
    case "${COMP_WORDS[1]} $prev" in
`)
	for _, s := range specs {
		for _, f := range s.flags {
			if f.arg == nil {
				continue
			}
			fmt.Fprintf(&b, "    %q)\n", s.name+" "+f.name)
			b.WriteString(bashReply(*f.arg))
		}
	}
	b.WriteString("    esac\n    case ${COMP_WORDS[1]} in\n")
	for _, s := range specs {
		fmt.Fprintf(&b, "    %s)\n", s.name)
		if len(s.flags) > 0 {
			fmt.Fprintf(&b, "        if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W %q -- \"$cur\")); return; fi\n", flagNames(s))
		}
		b.WriteString(bashReply(s.args))
	}
	b.WriteString("    esac\n}\ncomplete -o default -F _hookshim hookshim\n")
	return b.String()
}

// bashReply completes words, or falls back (complete -o default) to file
// names when the reply is empty.
func bashReply(a compArg) string {
	if len(a.words) == 0 {
		return "        return ;;\n"
	}
	files := ""
	if a.files {
		files = " -f"
	}
	return fmt.Sprintf("        COMPREPLY=($(compgen%s -W %q -- \"$cur\")); return ;;\n", files, strings.Join(a.words, " "))
}

func zshCompletion(specs []compSpec) string {
	var b strings.Builder
	b.WriteString(`#compdef hookshim
# zsh completion for hookshim, generated by 'hookshim completion zsh'.
# Load it with: source <(hookshim completion zsh), or save it as _hookshim
# in a folder of $fpath.
_hookshim() {
    local cur=${words[CURRENT]} prev=${words[CURRENT-1]}
    if (( CURRENT == 2 )); then
        compadd -- ` + specNames(specs) + `
        return
    fi
    case "${words[2]} $prev" in
`)
	for _, s := range specs {
		for _, f := range s.flags {
			if f.arg == nil {
				continue
			}
			fmt.Fprintf(&b, "    %q)\n", s.name+" "+f.name)
			b.WriteString(zshReply(*f.arg))
		}
	}
	b.WriteString("    esac\n    case ${words[2]} in\n")
	for _, s := range specs {
		fmt.Fprintf(&b, "    %s)\n", s.name)
		if len(s.flags) > 0 {
			fmt.Fprintf(&b, "        if [[ $cur == -* ]]; then compadd -- %s; return; fi\n", flagNames(s))
		}
		b.WriteString(zshReply(s.args))
	}
	b.WriteString(`    esac
}
if [[ ${funcstack[1]} == _hookshim ]]; then
    _hookshim "$@"
else
    compdef _hookshim hookshim
fi
`)
	return b.String()
}

func zshReply(a compArg) string {
	var parts []string
	if len(a.words) > 0 {
		parts = append(parts, "compadd -- "+strings.Join(a.words, " "))
	}
	if a.files {
		parts = append(parts, "_files")
	}
	parts = append(parts, "return")
	return "        " + strings.Join(parts, "; ") + " ;;\n"
}

func fishCompletion(specs []compSpec) string {
	var b strings.Builder
	b.WriteString(`# fish completion for hookshim, generated by 'hookshim completion fish'.
# Load it with: hookshim completion fish | source, or save it as
# ~/.config/fish/completions/hookshim.fish.
complete -c hookshim -f
complete -c hookshim -n __fish_use_subcommand -a '` + specNames(specs) + `'
`)
	for _, s := range specs {
		cond := "__fish_seen_subcommand_from " + s.name
		for _, f := range s.flags {
			fmt.Fprintf(&b, "complete -c hookshim -n '%s' -l %s%s\n", cond, strings.TrimPrefix(f.name, "--"), fishArg(f.arg, true))
		}
		if len(s.args.words) > 0 || s.args.files {
			fmt.Fprintf(&b, "complete -c hookshim -n '%s'%s\n", cond, fishArg(&s.args, false))
		}
	}
	return b.String()
}

func fishArg(a *compArg, flag bool) string {
	if a == nil {
		return ""
	}
	s := ""
	if flag {
		s = " -r"
	}
	if a.files {
		s += " -F"
	} else if flag {
		s += " -f"
	}
	if len(a.words) > 0 {
		s += " -a '" + strings.Join(a.words, " ") + "'"
	}
	return s
}
