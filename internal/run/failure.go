package run

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/mattn/go-shellwords"
)

// Kind is the kind of a handler's failure.
type Kind int

const (
	Failed     Kind = iota // it ran, but its exit or its answer cannot be read as a decision
	NotStarted             // it could not be started: missing, not executable, no interpreter
	TimedOut               // it did not answer in time and was killed
)

// Error is a handler's failure, with the fix where hookshim knows it.
type Error struct {
	Kind Kind
	Msg  string // what happened
	Hint string // how to fix it; "" when hookshim does not know
}

func (e *Error) Error() string {
	if e.Kind == NotStarted {
		return "could not start: " + e.Msg
	}
	return e.Msg
}

// Problem is the one line that tells the user a handler failed, naming the
// handler and, where hookshim knows it, the fix; "" when it did not fail.
func Problem(r Result) string {
	if r.Err == nil {
		return ""
	}
	var name string
	if r.Hook != nil {
		name = r.Hook.Name
	}
	e, ok := r.Err.(*Error)
	if !ok {
		return fmt.Sprintf("handler %q failed: %v", name, r.Err)
	}
	var s string
	switch e.Kind {
	case NotStarted, TimedOut:
		s = fmt.Sprintf("handler %q %s", name, e.Error())
	default:
		s = fmt.Sprintf("handler %q failed: %s", name, e.Msg)
	}
	if e.Hint != "" {
		s += " (hint: " + e.Hint + ")"
	}
	return s
}

// Hint is the fix for a handler's failure, "" when hookshim knows none.
func Hint(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Hint
	}
	return ""
}

func failed(msg, hint string) *Error { return &Error{Kind: Failed, Msg: msg, Hint: hint} }

// timedOut is the failure of a handler killed at limit; the fix depends on
// whose limit it was.
func timedOut(h *config.Hook, limit time.Duration) *Error {
	e := &Error{Kind: TimedOut, Msg: fmt.Sprintf("timed out after %s; its process group was killed", round(limit))}
	if limit < h.Timeout {
		e.Hint = "the tool's own hook timeout cut it short: make it answer sooner, or raise the tool's timeout for hookshim"
	} else {
		e.Hint = fmt.Sprintf(`make it answer sooner, or raise its "timeout" (now %s) in %s`, h.Timeout, where(h))
	}
	return e
}

// where names the config line of a hook, for hints.
func where(h *config.Hook) string {
	if h.Pos != "" {
		return h.Pos
	}
	return "the config"
}

// notStarted explains why the handler's process could not be started,
// from the error of starting it.
func notStarted(h *config.Hook, err error) *Error {
	prog, written := program(h)
	e := &Error{Kind: NotStarted}
	switch {
	case prog == "":
		e.Msg = err.Error()
	case errors.Is(err, exec.ErrNotFound):
		e.Msg = written + ": not found on PATH"
		e.Hint = "install " + written + ", or name it by its path"
	case errors.Is(err, fs.ErrPermission):
		if st, serr := os.Stat(prog); serr == nil && st.IsDir() {
			e.Msg = written + ": is a directory"
			e.Hint = fmt.Sprintf(`name the script to run in the "command" at %s`, where(h))
			break
		}
		e.Msg = written + ": permission denied"
		e.Hint = "chmod +x " + written
	case errors.Is(err, fs.ErrNotExist):
		if _, serr := os.Stat(prog); serr != nil {
			e.Msg = written + ": no such file"
			e.Hint = fmt.Sprintf(`create it, or fix the "command" at %s`, where(h))
			break
		}
		// The file is there: what is missing is the interpreter its #!
		// line names.
		interp := shebang(prog)
		switch {
		case strings.HasSuffix(interp, "\r"):
			e.Msg = written + ": its #! line ends in a carriage return"
			e.Hint = "save " + written + " with Unix (LF) line endings"
		case interp != "":
			e.Msg = fmt.Sprintf("%s: its interpreter %s does not exist", written, interp)
			e.Hint = "install " + interp + ", or fix the #! line of " + written
		default:
			e.Msg = written + ": " + errText(err)
		}
	case isNoExec(err):
		e.Msg = written + ": not a program the system can run"
		e.Hint = "start it with a #! line, such as #!/bin/sh"
	default:
		e.Msg = written + ": " + errText(err)
	}
	return e
}

// notRun is the failure of a handler whose process started but reports,
// the way shells and env do (126, 127), that the command in it could not
// be run.
func notRun(exit int, stderr string) *Error {
	e := &Error{Kind: NotStarted, Msg: fmt.Sprintf("exited %d%s", exit, firstLine(stderr))}
	if exit == 126 {
		e.Hint = "make the command executable (chmod +x)"
	} else {
		e.Hint = "check that the command and its interpreter exist"
	}
	return e
}

// errText is a start error without os/exec's "fork/exec PATH:" prefix.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// shebang is the interpreter a script's #! line names, "" when it has none.
func shebang(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return ""
	}
	rest = strings.TrimLeft(strings.TrimSuffix(rest, "\n"), " \t")
	interp, _, _ := strings.Cut(rest, " ")
	return interp
}

// program is the file a handler's process runs: its path as hookshim
// resolves it, and as the command writes it. For a command that needs a
// shell, the shell.
func program(h *config.Hook) (path, written string) {
	args, ok := config.Argv(h.Command)
	if !ok {
		return shell[0], shell[0]
	}
	return resolve(h, args[0]), args[0]
}

// resolve is where a command word names a file: a relative path is taken
// from the handler's directory; a bare name is looked up on PATH when the
// process starts, and stays as it is.
func resolve(h *config.Hook, word string) string {
	if !filepath.IsAbs(word) && strings.ContainsRune(word, '/') {
		return filepath.Join(h.Dir, word)
	}
	return word
}

// interpreters run the script named by their first argument.
var interpreters = []string{"sh", "bash", "dash", "zsh", "ksh", "fish", "python", "python3", "node", "ruby", "perl", "php", "pwsh"}

// scriptExts are what a script's name ends with, so that an interpreter's
// first argument is taken for a script only when it looks like one
// (`node x.js`, not `node --version`, `python3 -m pkg` or `deno run x.ts`).
var scriptExts = []string{".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php", ".ps1"}

// script is the script an interpreter is given as its first argument,
// resolved from the handler's directory, and as written; "" when the
// command is not an interpreter running a script.
func script(h *config.Hook, args []string) (path, written string) {
	if len(args) < 2 || strings.ContainsRune(args[0], '/') || !slices.Contains(interpreters, args[0]) {
		return "", ""
	}
	w := args[1]
	if strings.HasPrefix(w, "-") || !slices.Contains(scriptExts, filepath.Ext(w)) {
		return "", ""
	}
	if !filepath.IsAbs(w) {
		return filepath.Join(h.Dir, w), w
	}
	return w, w
}

// missingScript is the failure of an interpreter whose script does not
// exist: checked before starting, since interpreters report it in their
// own ways (dash exits 2, which would read as a block).
func missingScript(h *config.Hook, args []string) *Error {
	p, written := script(h, args)
	if p == "" {
		return nil
	}
	if _, err := os.Stat(p); err != nil && errors.Is(err, fs.ErrNotExist) {
		return &Error{Kind: NotStarted, Msg: written + ": no such file",
			Hint: fmt.Sprintf(`create it, or fix the "command" at %s`, where(h))}
	}
	return nil
}

// Files are the files a handler's command runs, as far as the command line
// says: its program when named by path, and the script an interpreter is
// given. A change to one of them is a change of policy (see
// dedupe.Call.Files). A command that needs a shell is read up to its first
// shell operator.
func Files(h *config.Hook) []string {
	args, ok := config.Argv(h.Command)
	if !ok {
		line := h.Command
		if i := strings.IndexAny(line, "|&;<>()$`\n"); i >= 0 {
			line = line[:i]
		}
		var err error
		if args, err = shellwords.Parse(line); err != nil {
			args = strings.Fields(line)
		}
	}
	if len(args) == 0 {
		return nil
	}
	var out []string
	if p := resolve(h, args[0]); filepath.IsAbs(p) {
		out = append(out, p)
	}
	if p, _ := script(h, args); p != "" {
		out = append(out, p)
	}
	return out
}
