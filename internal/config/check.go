package config

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/mattn/go-shellwords"
)

// Problem is a reason a handler cannot start as configured, with the step
// that fixes it. The check behind it runs at allow, status and doctor
// time, so that a handler that would fail on every call is named before
// the first one.
type Problem struct {
	Hook string // the hook's name
	Pos  string // where the hook is: file:line, shown relative to the folder Check was given
	Kind string // missing, not-executable, no-shebang, interpreter, not-in-path, not-a-program, cwd
	Path string // the program or file concerned, shown the same way (a bare name for PATH lookups)
	Msg  string // what is wrong: "hooks/x.sh is not executable"
	Fix  string // what to do: "chmod +x hooks/x.sh"
}

func (p Problem) String() string {
	return p.Pos + ": hook " + quote(p.Hook) + ": " + p.Msg + "; fix: " + p.Fix
}

func quote(s string) string { return `"` + s + `"` }

// Problem kinds.
const (
	Missing       = "missing"        // a program or script named by path does not exist
	NotExecutable = "not-executable" // a program named by path has no execute permission
	NoShebang     = "no-shebang"     // a text file run directly has no #! line
	Interpreter   = "interpreter"    // the interpreter a #! line names is not there
	NotInPath     = "not-in-path"    // a program named without a path is not in PATH
	NotAProgram   = "not-a-program"  // the program named is a folder
	BadDir        = "cwd"            // the working directory does not exist
)

// LookPath finds a program named without a path, as os/exec does when the
// handler starts (exec.LookPath when nil).
type LookPath func(name string) (string, error)

// Check resolves every command of the file's hooks the way internal/run
// starts them and returns what keeps one from starting. dir is the folder
// paths in the messages are relative to (the user's current folder); a
// problem shared by several hooks is listed once.
func (f *File) Check(dir string, lookPath LookPath) []Problem {
	var out []Problem
	for _, h := range f.Hooks {
		for _, p := range h.Check(dir, lookPath) {
			if !slices.ContainsFunc(out, func(q Problem) bool { return q.Msg == p.Msg }) {
				out = append(out, p)
			}
		}
	}
	return out
}

// Check resolves the hook's command the way internal/run starts it (a
// plain command line directly, split with shell quoting rules; anything
// else under sh -c, or cmd.exe on Windows) and returns what keeps it from
// starting: the program exists and is executable, a script's #!
// interpreter is there, and the script of an `sh x.sh` / `python3 x.py` /
// `node x.js` style command exists. Lines that need a shell are checked up to what can be
// known without running it.
func (h *Hook) Check(dir string, lookPath LookPath) []Problem {
	return h.checkOn(runtime.GOOS, dir, lookPath)
}

// checkOn is Check on the system goos. On Windows a file needs no mode
// bit or #! line to start, and a line for cmd.exe is not read.
func (h *Hook) checkOn(goos, dir string, lookPath LookPath) []Problem {
	if h.Remote != nil {
		return h.checkRemote(lookPath)
	}
	if h.Type != "" && h.Type != "command" {
		// Nothing to start: a handler type run in-process checks itself
		// when the config is parsed.
		return nil
	}
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	c := checker{h: h, dir: dir, lookPath: lookPath, goos: goos}
	c.pos = c.display(h.Pos)
	if st, err := os.Stat(h.Dir); err != nil || !st.IsDir() {
		d := c.display(h.Dir)
		c.add(BadDir, d, "its working folder "+d+" does not exist", "create "+d+" or change the handler's cwd")
		return c.out
	}
	if args, ok := ArgvOn(goos, h.Command); ok {
		c.command(args)
		return c.out
	}
	if goos == "windows" {
		return c.out // cmd.exe syntax: nothing more is known without running it
	}
	c.shellLine(h.Command)
	return c.out
}

// Argv splits a command line that needs no shell into the program and its
// arguments; ok is false when the line needs a shell (pipes, redirections,
// variables, globs...). It is the split internal/run starts handlers with.
func Argv(line string) ([]string, bool) { return ArgvOn(runtime.GOOS, line) }

// ArgvOn is Argv on the system goos. On Windows the shell is cmd.exe: a
// line also needs it for its variables (%VAR%) and escape (^), and for its
// built-in commands, which are no programs of their own.
func ArgvOn(goos, line string) ([]string, bool) {
	special := "|&;<>()$`*?[]{}~\n\\#!="
	if goos == "windows" {
		special += "%^"
	}
	if strings.ContainsAny(line, special) {
		return nil, false
	}
	args, err := shellwords.Parse(line)
	if err != nil || len(args) == 0 {
		return nil, false
	}
	if goos == "windows" && slices.Contains(cmdBuiltins, strings.ToLower(args[0])) {
		return nil, false
	}
	return args, true
}

// cmdBuiltins are the commands cmd.exe runs itself.
var cmdBuiltins = []string{"assoc", "break", "call", "cd", "chdir", "cls", "color", "copy", "date", "del",
	"dir", "echo", "endlocal", "erase", "exit", "for", "ftype", "goto", "if", "md", "mkdir", "mklink",
	"move", "path", "pause", "popd", "prompt", "pushd", "rd", "rem", "ren", "rename", "rmdir", "set",
	"setlocal", "shift", "start", "time", "title", "type", "ver", "verify", "vol"}

type checker struct {
	h        *Hook
	dir      string
	pos      string
	lookPath LookPath
	goos     string
	out      []Problem
	moved    bool // a shell line changed folder: relative paths are no longer known
}

func (c *checker) add(kind, path, msg, fix string) {
	c.out = append(c.out, Problem{Hook: c.h.Name, Pos: c.pos, Kind: kind, Path: path, Msg: msg, Fix: fix})
}

// display shows a path relative to the folder the user is in when it lies
// below it, so that the fix can be typed as shown (the folder itself
// stays absolute: "." names nothing).
func (c *checker) display(p string) string {
	if c.dir == "" || !filepath.IsAbs(p) {
		return p
	}
	rel, err := filepath.Rel(c.dir, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return rel
}

// command checks a program started with its arguments.
func (c *checker) command(args []string) {
	if !c.program(args[0]) {
		return
	}
	c.script(args)
}

// program checks that name can be started; false when it cannot be found.
func (c *checker) program(name string) bool {
	if !strings.ContainsRune(name, '/') && !strings.ContainsRune(name, filepath.Separator) {
		path, err := c.lookPath(name)
		if err == nil {
			c.file(path, name, false)
			return true
		}
		// os/exec never runs a program from the current folder by its
		// bare name (exec.ErrDot): a script next to the config needs ./.
		if st, err := os.Stat(filepath.Join(c.h.Dir, name)); err == nil && !st.IsDir() {
			c.add(NotInPath, name, name+" is not in PATH (a program in the project is named by its path)", "write ./"+name+" in the command")
			return false
		}
		c.add(NotInPath, name, name+" is not in PATH", "install "+name+" (or put it in PATH)")
		return false
	}
	path := name
	if !filepath.IsAbs(path) {
		if c.moved {
			return false
		}
		path = filepath.Join(c.h.Dir, path)
	}
	d := c.display(path)
	st, err := os.Stat(path)
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		c.add(Missing, d, d+" does not exist", "create "+d)
		return false
	case err != nil:
		c.add(Missing, d, d+": "+err.Error(), "make "+d+" readable")
		return false
	case st.IsDir():
		c.add(NotAProgram, d, d+" is a folder, not a program", "name the program to run in the command")
		return false
	}
	if c.goos != "windows" && st.Mode()&0o111 == 0 {
		c.add(NotExecutable, d, d+" is not executable", "chmod +x "+d)
	}
	c.file(path, d, true)
	return true
}

// file checks how the kernel starts the program at path: a binary, or a
// script whose #! line names an interpreter that is there. os/exec does
// not fall back to /bin/sh for a script without one: it fails with "exec
// format error".
func (c *checker) file(path, d string, mine bool) {
	if c.goos == "windows" {
		return
	}
	head := readHead(path)
	if head == nil {
		return // unreadable: the start reports it better than a guess
	}
	if !bytes.HasPrefix(head, []byte("#!")) {
		if binary(head) || !mine {
			return
		}
		c.add(NoShebang, d, d+" has no #! line, so it cannot be started directly", "add "+shebangFor(path)+" as its first line")
		return
	}
	line, _, _ := bytes.Cut(head[2:], []byte("\n"))
	if bytes.HasSuffix(line, []byte("\r")) {
		// The kernel takes the carriage return for part of the
		// interpreter's name (or of its last argument).
		c.add(Interpreter, d, d+" has Windows (CRLF) line endings: its #! line ends in a carriage return", "save "+d+" with Unix (LF) line endings")
		return
	}
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		c.add(Interpreter, d, d+" has an empty #! line", "write the interpreter after #!, e.g. "+shebangFor(path))
		return
	}
	interp := fields[0]
	if st, err := os.Stat(interp); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		base := filepath.Base(interp)
		fix := "install " + base
		if p, err := c.lookPath(base); err == nil {
			fix = "change its #! line to #!/usr/bin/env " + base + " (" + base + " is " + p + " here)"
		}
		c.add(Interpreter, d, d+" starts with #!"+interp+", which does not exist", fix)
		return
	}
	if filepath.Base(interp) != "env" {
		return
	}
	// #!/usr/bin/env [-S] [NAME=VALUE...] program: env looks program up in
	// the handler's PATH.
	for _, f := range fields[1:] {
		if strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
			continue
		}
		if strings.ContainsRune(f, '/') {
			return
		}
		if _, err := c.lookPath(f); err != nil {
			c.add(Interpreter, f, d+" needs "+f+" (#!"+interp+" "+f+"), which is not in PATH", "install "+f)
		}
		return
	}
}

// readHead reads the start of a file, enough for a #! line.
func readHead(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, 256)
	n, err := io.ReadFull(f, b)
	if err != nil && n == 0 && !errors.Is(err, io.EOF) {
		return nil
	}
	return b[:n]
}

// binary reports whether head starts like an executable the kernel loads
// itself: ELF, Mach-O (thin or fat).
func binary(head []byte) bool {
	for _, magic := range [][]byte{
		[]byte("\x7fELF"),
		{0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf},
		{0xce, 0xfa, 0xed, 0xfe}, {0xcf, 0xfa, 0xed, 0xfe},
		{0xca, 0xfe, 0xba, 0xbe},
	} {
		if bytes.HasPrefix(head, magic) {
			return true
		}
	}
	return false
}

// shebangFor suggests a #! line from a script's extension.
func shebangFor(path string) string {
	switch filepath.Ext(path) {
	case ".py":
		return "#!/usr/bin/env python3"
	case ".js", ".mjs", ".cjs":
		return "#!/usr/bin/env node"
	case ".rb":
		return "#!/usr/bin/env ruby"
	case ".pl":
		return "#!/usr/bin/env perl"
	case ".bash":
		return "#!/usr/bin/env bash"
	}
	return "#!/bin/sh"
}

// interpreter says whether a program's first argument (after options) is
// the script it runs; stop are the options after which no script follows
// (inline code, a module). A switch, not a map: a map literal is built
// when the process starts, which every hook call is.
func interpreter(name string) (stop []string, ok bool) {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "fish":
		return []string{"-c"}, true
	case "python", "python3", "pypy3":
		return []string{"-c", "-m"}, true
	case "node", "bun":
		return []string{"-e", "--eval", "-p", "--print"}, true
	case "deno":
		return []string{"eval"}, true
	case "tsx", "ts-node":
		return []string{"-e", "--eval"}, true
	case "ruby", "lua":
		return []string{"-e"}, true
	case "perl":
		return []string{"-e", "-E"}, true
	case "php":
		return []string{"-r"}, true
	case "pwsh":
		return []string{"-c", "-Command", "-EncodedCommand"}, true
	}
	return nil, false
}

// ScriptExts are the extensions by which an argument is taken for a
// script: one that must exist for the handler check, one whose content an
// allowance pins (trust). An argument without one may be anything.
var ScriptExts = []string{".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".rb", ".pl", ".php", ".lua", ".ps1", ".mk"}

// Script is the script an interpreter command runs, resolved from the
// hook's folder: `sh hooks/x.sh`, `python3 x.py`, `node hooks/x.js`; ""
// when args are not an interpreter given a script. internal/run checks it
// exists before starting the interpreter, which reports a missing script
// in its own way, and counts it among the files a handler runs.
func (h *Hook) Script(args []string) string {
	a := scriptArg(args)
	if a == "" || filepath.IsAbs(a) {
		return a
	}
	return filepath.Join(h.Dir, a)
}

// scriptArg is the argument that names the script an interpreter runs, as
// written; "" when there is none, or when the argument has neither a
// folder nor a script's extension (it may be anything then).
func scriptArg(args []string) string {
	base := filepath.Base(args[0])
	if strings.HasPrefix(base, "python3.") {
		base = "python3"
	}
	stop, ok := interpreter(base)
	if !ok {
		return ""
	}
	for _, a := range args[1:] {
		if slices.Contains(stop, a) {
			return ""
		}
		if a == "run" && (base == "deno" || base == "bun") || strings.HasPrefix(a, "-") {
			continue
		}
		if strings.ContainsRune(a, '/') || slices.Contains(ScriptExts, filepath.Ext(a)) {
			return a
		}
		return ""
	}
	return ""
}

// script checks that the script an interpreter is given exists.
func (c *checker) script(args []string) {
	path := scriptArg(args)
	if path == "" {
		return
	}
	if !filepath.IsAbs(path) {
		if c.moved {
			return
		}
		path = filepath.Join(c.h.Dir, path)
	}
	if _, err := os.Stat(path); err != nil {
		d := c.display(path)
		c.add(Missing, d, d+" does not exist", "create "+d)
	}
}

// shellLine checks a command line run under /bin/sh -c: the shell, and the
// program of each simple command that names one plainly (no variables,
// globs, substitutions or shell builtins, which only the shell resolves).
func (c *checker) shellLine(line string) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		c.add(Interpreter, "/bin/sh", "/bin/sh does not exist: the command needs a shell", "install a POSIX shell as /bin/sh")
		return
	}
	SimpleCommands(line, c.simple)
}

// simple checks the program of one simple command of a shell line.
func (c *checker) simple(words []string) {
	words = SkipWrappers(words)
	if len(words) == 0 {
		return
	}
	name := words[0]
	if name == "cd" || name == "pushd" {
		c.moved = true
	}
	if strings.HasPrefix(name, "-") || strings.ContainsAny(name, "$`*?[]{}~()=!#\\") || slices.Contains(builtins, name) {
		return
	}
	c.command(words)
}

func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for _, r := range w[:i] {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// wrappers run the command that follows them.
var wrappers = []string{"exec", "command", "nohup", "time"}

// builtins are what sh resolves itself: no program to look for.
var builtins = []string{
	"if", "then", "else", "elif", "fi", "for", "while",
	"until", "do", "done", "case", "esac", "in", "function",
	"select", "cd", "echo", "printf", "test", "true", "false",
	":", ".", "source", "set", "export", "unset", "read",
	"eval", "trap", "exit", "return", "shift", "wait",
	"ulimit", "umask", "type", "alias", "local", "readonly",
	"kill", "pwd", "getopts", "hash", "times", "break", "continue",
}
