// Package shellcmd reads a shell command line as the simple commands it
// would run, so that a policy sees `rm -rf /` inside `a && rm -rf /`,
// `bash -c '…'`, `sudo …`, `$(…)`, a function body or a here-document fed
// to a shell, and does not see it inside `echo 'rm -rf /'`.
//
// The line is parsed once by mvdan.cc/sh/v3/syntax (the parser behind
// shfmt) in its bash dialect, and the syntax tree is walked the way bash
// would run it: lists, pipelines, subshells, blocks, function bodies (as if
// called), if/while/until/for/select/case, [[ ]] and (( )), command and
// process substitutions, here-documents and here-strings, coproc. This
// package adds what a parser leaves to its caller: the wrappers that run
// another command (sudo, env, nice, xargs, find -exec, …, wrappers.go),
// and the programs handed to a shell as a string (`bash -c`, `eval`,
// `trap`, `watch`, a here-document or a literal piped into `sh`), which
// are parsed in turn, nested, within a fixed depth and byte budget. What
// a simpler reader would take for data is read too: the variables the
// line sets, with their values (vars.go), a script it writes and then
// runs (files.go), a literal it decodes (`echo … | base64 -d | sh`), and
// what an interpreter's code on the command line hands to a shell or
// deletes (inline.go).
//
// Everything is linear in the input: each byte is parsed once, plus the
// nested programs, the further readings of a command whose variables may
// hold several values, and the values themselves, whose total is bounded
// by budget.
package shellcmd

import (
	"fmt"
	"path"
	"strings"
	"sync"
)

// Command is one simple command a shell line would run.
type Command struct {
	// Args is argv after the wrappers: quotes removed, static brace
	// expansions expanded (`/{usr,etc}` is two words), variables left as
	// written ($HOME and ${HOME} read `$HOME`), substitutions as written
	// ($(…), `…`, <(…)).
	Args []string
	// Dynamic says, for each of Args, whether the word holds an expansion
	// known only when the command runs: a command, process or arithmetic
	// substitution, or a variable other than $HOME. Globs are not counted:
	// they are in the text (`*`, `?`, `[`).
	Dynamic []bool
	// Unset is each of Args as it reads when every run-time expansion in it
	// is empty (an unset variable, a substitution that prints nothing):
	// `"$DIR"/` reads `/`. It equals Args[i] where Dynamic[i] is false.
	Unset []string
	// Env holds the NAME=value assignments in front of the command (and
	// those given to env).
	Env []string
	// Sudo is true when the command runs through sudo, doas, su or
	// runuser as root.
	Sudo bool
	// Via is the chain of wrappers the command was found in, outermost
	// first: "sudo", "doas", "env", "nice", "nohup", "time", "timeout",
	// "command", "exec", "xargs", "find -exec", "busybox", "parallel", …;
	// "bash -c" (any shell's name) for a program given with -c, "bash -s"
	// for one fed on stdin (here-document, here-string, a literal piped
	// in), "eval", "trap", "watch", "coproc"; and for nested commands
	// "$()", "``", "<()", ">()", "()" (a subshell). A PowerShell line
	// (PowerShellCommands) adds "powershell -c", "powershell
	// -EncodedCommand", "iex", "cmd /c", "Start-Process", "& {}" and
	// "NAME {}" (a script block given to the command NAME), and ends with
	// "pipeline" when a cmdlet takes its paths from its pipeline input
	// (`… | Remove-Item`, `Remove-Item $_` in a ForEach-Object block).
	Via []string
	// Redirects are the command's redirections, in order (those of a
	// compound command it is in come first).
	Redirects []Redirect
	// Pipeline numbers the pipeline the command belongs to: commands with
	// the same number are connected by pipes, in the order listed.
	Pipeline int
	// Parent is the index of the command one of whose words holds this
	// command ($(…), `…`, <(…)), or of the find whose -exec runs it, or
	// -1. InArg is the index in the parent's Args of that word, or -1 when
	// it was a wrapper's word, an assignment, a redirection target or
	// find's -exec.
	Parent, InArg int
	// Dir is the folder the command runs in when the line changes it
	// before (`cd X &&`, `env -C X`, `sudo -D X`), as written, relative
	// ones joined to the earlier change; "" when the line does not change
	// it. DirUnknown is true when it changes it to a folder known only at
	// run time (`cd "$X"`, `cd -`, `popd`).
	Dir        string
	DirUnknown bool
	// Text is the command as the line wrote it, when Args are a reading of
	// it rather than its words: a PowerShell command, whose cmdlets are
	// read as the POSIX programs they stand for (`Remove-Item -Recurse
	// -Force C:\` has Args rm -r -f -- C:/), from its first word to its
	// last (a cmd.exe command's as cmd /c was given it); a bash command
	// that reads a variable the line sets, whose Args hold its value
	// (`x=/; rm -rf $x` has Text `rm -rf $x` and Args rm -rf /). "" for
	// other bash commands, whose Args are their words.
	Text string
	// Program is set when the command runs a program whose text is known
	// only at run time: ProgramArg (`bash -c "$X"`, `eval "$(…)"`),
	// ProgramStdin (a shell reading a pipe or a here-document that is not
	// literal), ProgramFile (`bash < script.sh`).
	Program string
	// Container is set for a command a container runtime runs (`docker
	// run`, `podman run`, `nerdctl run`): its paths are the container's,
	// Dir among them (the folder it runs in there, from -w and cd), and
	// only those under Container.Mounts are this machine's.
	Container *Container
}

// Container is where a command run in a container runs.
type Container struct {
	// Workdir is the folder it runs in, in the container (-w): "" for /.
	Workdir string
	// Mounts are the folders of this machine bound into the container
	// writable (-v, --mount type=bind), and its devices (--device), in
	// the order given.
	Mounts []Mount
	// Escapes is true when the container can reach this machine's
	// processes (--privileged, --pid=host): `nsenter -t 1 …` in it runs
	// what follows on this machine, and is read so.
	Escapes bool
}

// Mount is a folder of this machine seen in a container: Host as written
// (relative to the folder the runtime runs in), at Target (cleaned).
type Mount struct{ Host, Target string }

// What Command.Program says.
const (
	ProgramArg   = "argument"
	ProgramStdin = "stdin"
	ProgramFile  = "file"
)

// Redirect is one redirection: its operator as written (`>`, `>>`, `2>`,
// `&>`, `<`, `<<`, `<<<`, `2>&`, …) and its target word (a here-
// document's delimiter).
type Redirect struct {
	Op      string
	Target  string
	Dynamic bool // the target holds a run-time expansion
}

// Name is the base name of the program: "rm" for /bin/rm.
func (c Command) Name() string {
	if len(c.Args) == 0 {
		return ""
	}
	return base(c.Args[0])
}

// ParseError says that part of a line could not be read, or that nested
// programs went deeper or longer than this package follows: the commands
// returned with it are those read before the problem. A policy should be
// unsure of such a line.
type ParseError struct {
	Line, Col int // where, in the program that failed (1-based); 0 when not known
	Nested    int // how deep that program was nested: 0 for the line itself
	Msg       string
	offset    int // byte offset of Line:Col, -1 when not known
}

func (e *ParseError) Error() string {
	where := ""
	if e.Line > 0 {
		where = fmt.Sprintf("%d:%d: ", e.Line, e.Col)
	}
	if e.Nested > 0 {
		where = fmt.Sprintf("in a program nested %d deep, %s", e.Nested, where)
	}
	return "shell syntax not followed: " + where + e.Msg
}

// Limits on nested programs (bash -c inside eval inside a here-document …).
const (
	maxDepth = 8
	// budgetFactor times the line's length (plus budgetBase) is how many
	// bytes of nested programs are parsed in all, so that a program that
	// quotes itself many times over cannot make the work quadratic.
	budgetFactor = 4
	budgetBase   = 64 << 10
	// maxBraces bounds one word's brace expansion.
	maxBraces = 256
)

// Commands returns the simple commands of line, nested ones included, in
// the order they appear. The error, a *ParseError, says the line was not
// read to its end (or nested programs went too deep); the commands read
// until then are returned all the same.
func Commands(line string) ([]Command, error) { return CommandsIn(line, "") }

// CommandsIn is Commands for a line run in the folder dir, an absolute
// path: $PWD, ~+ and $(pwd) read as that folder (or the one the line
// changed to), so that what the line makes of it is read too
// (${PWD%/*} and $(dirname "$PWD") are the folder above). With dir "",
// or one that is not absolute, they read as "." and what the line makes
// of them is known only at run time.
func CommandsIn(line, dir string) ([]Command, error) {
	w := newWalker(line)
	if strings.HasPrefix(dir, "/") {
		w.cwd = path.Clean(dir)
	}
	w.program(line, &scope{parent: -1, inArg: -1, frame: &frame{}}, "")
	return w.out, w.err
}

// Reader reads a command line once for all the policies and rules of one
// call: they all read the same line, some in parallel. What it returns is
// shared: read it, never change it. The zero Reader is ready to use.
type Reader struct {
	mu    sync.Mutex
	line  string
	shell string
	dir   string
	read  bool
	cmds  []Command
	err   error
}

// Commands is the package's Commands, remembered for the last line read.
// A nil Reader reads the line afresh.
func (r *Reader) Commands(line string) ([]Command, error) {
	return r.Read("", line, "")
}

// Read is the package's ReadIn, remembered for the last line read.
// A nil Reader reads the line afresh.
func (r *Reader) Read(shell, line, dir string) ([]Command, error) {
	if r == nil {
		return ReadIn(shell, line, dir)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.read || r.line != line || r.shell != shell || r.dir != dir {
		r.cmds, r.err = ReadIn(shell, line, dir)
		r.line, r.shell, r.dir, r.read = line, shell, dir, true
	}
	return r.cmds, r.err
}

func base(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	return s
}
