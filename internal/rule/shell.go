package rule

import (
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/shellcmd"
)

// Command is one simple command of the call's shell command line, as
// internal/shellcmd reads it: `a && sudo bash -c 'rm -rf /'` holds two, the
// second `rm -rf /` with sudo true and via ["sudo", "bash -c"]. Words in
// quotes are one word and never a command: `echo 'rm -rf /'` runs echo.
type Command struct {
	Name      string     `expr:"name"`      // the program's base name: "rm" for /bin/rm
	Args      []string   `expr:"args"`      // argv, the program first, quotes removed, variables as written
	Flags     []string   `expr:"flags"`     // the options before "--": each letter of -rf ("r", "f"), the name of --force ("force")
	Operands  []string   `expr:"operands"`  // the other arguments: for rm -rf -- /x /y, ["/x", "/y"]
	Sudo      bool       `expr:"sudo"`      // run through sudo or doas
	Via       []string   `expr:"via"`       // the wrappers it was found in, outermost first: "sudo", "bash -c", "$()", "xargs", …
	Env       []string   `expr:"env"`       // NAME=value assignments in front of it
	Redirects []Redirect `expr:"redirects"` // its redirections, in order
	Dynamic   []bool     `expr:"dynamic"`   // per argument: it holds an expansion known only at run time ($X, $(…))
	Dir       string     `expr:"dir"`       // the folder it runs in when the line changes it (cd, env -C), as written; "" when unchanged; "?" when known only at run time
	Program   string     `expr:"program"`   // "" or why the program it runs is known only at run time: "argument" (bash -c "$X"), "stdin", "file"
}

// Redirect is one redirection of a command: `>` and `/dev/sda` for
// `> /dev/sda`.
type Redirect struct {
	Op     string `expr:"op"`
	Target string `expr:"target"`
}

// shell fills the shell fields of e from its command line, read through
// the call's reader (nil: read afresh) as the shell that runs it reads it,
// in the folder dir.
func (e *Env) shell(r *shellcmd.Reader, sh, line, dir string) {
	cmds, err := r.Read(sh, line, dir)
	if err != nil {
		e.ShellError = err.Error()
	}
	e.Commands = make([]Command, 0, len(cmds))
	for _, c := range cmds {
		rc := Command{Name: c.Name(), Args: c.Args, Sudo: c.Sudo, Via: c.Via, Env: c.Env, Dynamic: c.Dynamic,
			Dir: c.Dir, Program: c.Program,
			Flags: []string{}, Operands: []string{}, Redirects: make([]Redirect, 0, len(c.Redirects))}
		if c.DirUnknown {
			rc.Dir = "?"
		}
		if rc.Via == nil {
			rc.Via = []string{}
		}
		if rc.Env == nil {
			rc.Env = []string{}
		}
		for _, r := range c.Redirects {
			rc.Redirects = append(rc.Redirects, Redirect{Op: r.Op, Target: r.Target})
		}
		rc.Flags, rc.Operands = options(c.Args)
		e.Commands = append(e.Commands, rc)
	}
}

// options splits the arguments after the program into option names and
// operands, the way getopt-style programs read them.
func options(args []string) (flags, operands []string) {
	flags, operands = []string{}, []string{}
	if len(args) < 2 {
		return flags, operands
	}
	for i, a := range args[1:] {
		switch {
		case a == "--":
			return flags, append(operands, args[i+2:]...)
		case strings.HasPrefix(a, "--") && len(a) > 2:
			name, _, _ := strings.Cut(a[2:], "=")
			flags = append(flags, name)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for _, c := range a[1:] {
				flags = append(flags, string(c))
			}
		default:
			operands = append(operands, a)
		}
	}
	return flags, operands
}

// runs reports whether one of the commands runs the program name with
// every one of words among its arguments.
func (e *Env) runs(name string, words ...string) bool {
	for _, c := range e.Commands {
		if c.Name != name {
			continue
		}
		if len(c.Args) > 0 && !slices.ContainsFunc(words, func(w string) bool { return !slices.Contains(c.Args[1:], w) }) {
			return true
		}
	}
	return false
}
