package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/trust"
)

// configArg finds the config a trust command is about: the path given (a
// file, or a directory to search up from), else the nearest .openhook.json
// above the current directory.
func configArg(args []string) (string, error) {
	start := "."
	if len(args) > 0 {
		start = args[0]
	}
	abs, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(abs); err == nil && !st.IsDir() {
		return abs, nil
	}
	if p := config.FindUp(abs); p != "" {
		return p, nil
	}
	return "", fmt.Errorf("no %s in %s or above", config.FileName, abs)
}

// trustArgs parses a trust command's flags and finds the config it is
// about; code is -1 when the command should go on.
func trustArgs(name string, args []string, stderr io.Writer) (path string, code int) {
	fs := newFlags(name)
	if !parseFlags(fs, args, stderr) {
		return "", 2
	}
	path, err := configArg(fs.Args())
	if err != nil {
		errorf(stderr, "%v", err)
		return "", 1
	}
	return path, -1
}

func trustStore(stderr io.Writer, getenv func(string) string) (trust.Store, bool) {
	s, err := trust.DefaultStore(getenv)
	if err != nil {
		errorf(stderr, "%v", err)
		return s, false
	}
	return s, true
}

func cmdAllow(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	path, code := trustArgs("allow", args, stderr)
	if code >= 0 {
		return code
	}
	f, err := config.Load(path)
	if err != nil {
		errorf(stderr, "%v", err)
		hintf(stderr, "fix the config before allowing it")
		return 1
	}
	// What parsing let through (an unknown field and the one meant, a
	// newer version) is shown before the file is allowed as it is.
	for _, w := range f.Warnings {
		warningf(stderr, "%s", w)
	}
	if len(f.Unsafe) > 0 {
		// Allowed as it is, the hook would fail open where its author
		// asked it to fail closed.
		for _, w := range f.Unsafe {
			errorf(stderr, "not allowed: %s", w)
		}
		hintf(stderr, "a misspelt on_error, blocking or timeout_action would be ignored and the hook fail open: correct it, then allow again")
		return 1
	}
	if !resolveExtends(f, getenv, true, stderr) {
		hintf(stderr, "an allowance covers every config this one extends: fix or fetch them (hookshim fetch), then allow again")
		return 1
	}
	store, ok := trustStore(stderr, getenv)
	if !ok {
		return 1
	}
	_, files, err := store.Allow(f)
	var over *trust.BoundError
	if errors.As(err, &over) {
		errorf(stderr, "not allowed: %v", err)
		hintf(stderr, "an allowance pins every file under the folders its commands reach (see docs/safety.md): keep the hooks' scripts in a folder of their own")
		return 1
	}
	if err != nil {
		errorf(stderr, "recording the allowance: %v", err)
		return 1
	}
	hooks := "hooks"
	if len(f.Hooks) == 1 {
		hooks = "hook"
	}
	fmt.Fprintf(stdout, "allowed %s (%d %s)\n", path, len(f.Hooks), hooks)
	for _, s := range files {
		fmt.Fprintf(stdout, "  with %s\n", s)
	}
	// The allowance is what was asked for, and it is recorded: a handler
	// that cannot start is warned about, each with its fix, and the exit
	// status stays 0 (hookshim doctor is the check that fails).
	problems := warnHandlers(f, stderr)
	cwd, _ := os.Getwd()
	if slices.ContainsFunc(problems, func(p config.Problem) bool { return p.Kind == config.Missing && inside(f.Dir, cwd, p.Path) }) {
		hintf(stderr, "the allowance covers the scripts as they are now: once you have created them, run 'hookshim allow' again")
	} else if len(problems) > 0 {
		hintf(stderr, "until fixed, these handlers fail on every call (the answer is as on_error says); fixing a mode or installing a program keeps the allowance")
	}
	return 0
}

// inside reports whether path (relative to cwd, as problems show it) lies
// in the project of root: such a script is part of the allowance.
func inside(root, cwd, path string) bool {
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func cmdDeny(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	path, code := trustArgs("deny", args, stderr)
	if code >= 0 {
		return code
	}
	store, ok := trustStore(stderr, getenv)
	if !ok {
		return 1
	}
	if err := store.Deny(path); err != nil {
		errorf(stderr, "recording the denial: %v", err)
		return 1
	}
	fmt.Fprintf(stdout, "denied %s: its hooks will not run\n", path)
	return 0
}

func cmdTrust(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) > 0 && args[0] == "status" {
		args = args[1:]
	}
	path, code := trustArgs("trust", args, stderr)
	if code >= 0 {
		return code
	}
	f, err := config.Load(path)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	store, ok := trustStore(stderr, getenv)
	if !ok {
		return 1
	}
	resolveExtends(f, getenv, false, stderr)
	state, err := store.Check(f)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %s\n", path, state)
	if _, kept := store.Changes(path); state == trust.Allowed && !kept {
		// Allowed by a hookshim that kept no copy: calls run the project's
		// scripts as they are, and a change would stop the policy.
		fmt.Fprintf(stdout, "  no copy of the allowed version is kept: run hookshim allow again to keep one\n")
	}
	if state == trust.Changed || state == trust.Outdated {
		// What changed, against the copy of what was allowed, which hook
		// calls keep running until the change is allowed.
		changes, kept := store.Changes(path)
		for _, c := range changes {
			fmt.Fprintf(stdout, "  changed: %s\n", c)
		}
		if kept {
			fmt.Fprintf(stdout, "  hook calls run the allowed version until you allow the change\n")
		} else {
			fmt.Fprintf(stdout, "  no copy of the allowed version is kept: its hooks do not run, and each call answers as on_error says\n")
		}
	}
	// What an allowance covers, as the config reads now: each pin, then
	// the files under it.
	pins, files, err := trust.Pinned(f)
	for _, p := range pins {
		var held []string
		for _, s := range files {
			if p.Holds(s) {
				held = append(held, s)
			}
		}
		switch {
		case len(held) == 0 && p.Tree:
			fmt.Fprintf(stdout, "  pins folder %s (missing: creating it is a change)\n", p.Path)
		case len(held) == 0:
			fmt.Fprintf(stdout, "  pins file %s (missing: creating it is a change)\n", p.Path)
		case p.Tree:
			fmt.Fprintf(stdout, "  pins folder %s (everything under it)\n", p.Path)
			for _, s := range held[1:] { // held[0] is the folder itself
				fmt.Fprintf(stdout, "    %s\n", s)
			}
		default:
			fmt.Fprintf(stdout, "  pins file %s\n", p.Path)
		}
	}
	printRemotes(stdout, f)
	if err != nil {
		warningf(stderr, "%v", err)
	}
	warnHandlers(f, stderr)
	if state != trust.Allowed {
		hintf(stderr, "review it, then run: hookshim allow %s", path)
		return 1
	}
	return 0
}
