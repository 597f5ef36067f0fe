package run

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	Stopped                // hookshim was told to stop (SIGTERM, SIGINT) and killed it
)

// Interrupted reports whether a signal to hookshim stopped any of the
// handlers: their results say nothing about the call, so they are not
// shared with its duplicates.
func Interrupted(results []Result) bool {
	for _, r := range results {
		if e, ok := r.Err.(*Error); ok && e.Kind == Stopped {
			return true
		}
	}
	return false
}

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

// notStarted explains why the handler's process could not be started: the
// first problem config's check finds with it, so that a handler that
// fails at call time is named with the words and the fix that allow,
// status and doctor give; the start error itself where the check finds
// none. The check runs only here, after a start failed.
func notStarted(h *config.Hook, err error) *Error {
	e := &Error{Kind: NotStarted}
	// Paths relative to the hook's folder, as its command writes them.
	if ps := h.Check(h.Dir, nil); len(ps) > 0 {
		e.Msg, e.Hint = ps[0].Msg, ps[0].Fix
		return e
	}
	args, _ := argvHere(h.Command)
	e.Msg = args[0] + ": " + errText(err)
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

// resolve is where a command word names a file: a relative path is taken
// from the handler's directory; a bare name is looked up on PATH when the
// process starts, and stays as it is.
func resolve(h *config.Hook, word string) string {
	if !filepath.IsAbs(word) && strings.ContainsRune(word, '/') {
		return filepath.Join(h.Dir, word)
	}
	return word
}

// missingScript is the failure of an interpreter whose script does not
// exist: checked before starting, since interpreters report it in their
// own ways (dash exits 2, which would read as a block). One stat on a
// call that starts.
func missingScript(h *config.Hook, args []string) *Error {
	p := h.Script(args)
	if p == "" {
		return nil
	}
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		return notStarted(h, err)
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
	if p := h.Script(args); p != "" {
		out = append(out, p)
	}
	return out
}
