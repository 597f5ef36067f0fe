package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/doctor"
	"github.com/hookshim/hookshim/internal/install"
)

func cmdDoctor(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := newFlags("doctor")
	dir := fs.String("dir", "", "")
	bin := fs.String("bin", "", "")
	asJSON := fs.Bool("json", false, "")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	if fs.NArg() > 0 {
		errorf(stderr, "unexpected arguments: %s", strings.Join(fs.Args(), " "))
		return 2
	}
	env, err := doctorEnv(getenv, *dir, *bin)
	if err != nil {
		errorf(stderr, "%v", err)
		if *bin == "" {
			hintf(stderr, "name the hookshim your tools run with --bin PATH")
		}
		return 1
	}
	cwd, _ := os.Getwd()
	start := cwd
	if *dir != "" {
		start = env.Project
	}
	r := doctor.Check(doctor.Options{Env: env, Getenv: getenv, Start: start, Cwd: cwd, Version: version(),
		Extends: doctor.Extends(getenv)})
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			errorf(stderr, "%v", err)
			return 1
		}
	} else {
		printReport(stdout, r, env)
	}
	if !r.OK {
		return 1
	}
	return 0
}

// doctorEnv is the install environment doctor reads registrations with.
func doctorEnv(getenv func(string) string, dir, bin string) (install.Env, error) {
	env, err := installEnv(getenv, dir)
	if err != nil {
		return env, err
	}
	env.Bin = bin
	if base := strings.TrimSuffix(strings.ToLower(filepath.Base(bin)), ".exe"); bin != "" && base != "hookshim" {
		return env, fmt.Errorf("--bin %s: registrations run a program named hookshim", bin)
	}
	if bin == "" {
		b, err := install.Bin(getenv)
		if err != nil {
			return env, fmt.Errorf("cannot tell which hookshim your tools should run: %v", err)
		}
		env.Bin = b
	} else if abs, err := filepath.Abs(bin); err == nil && strings.ContainsRune(bin, filepath.Separator) {
		env.Bin = abs
		// As install writes it: a binary inside the project is named
		// relative to it in project files.
		if rel, ok := env.ProjectRel(abs); ok {
			env.ProjectBin = rel
		}
	}
	return env, nil
}

func printReport(w io.Writer, r *doctor.Report, env install.Env) {
	if !r.OK {
		for _, p := range r.Problems {
			fmt.Fprintf(w, "%s; fix: %s\n", p.Message, p.Fix)
		}
		fmt.Fprintln(w, plural(len(r.Problems), "problem", "problems"))
		printUnreached(w, r)
		printLogNotes(w, r)
		return
	}
	fmt.Fprintf(w, "ok: hookshim %s at %s\n", r.Version, r.Bin)
	now := time.Now()
	for _, rg := range r.Registrations {
		fmt.Fprintf(w, "ok: %s (%s) %s: %s, last call %s\n", rg.Provider, rg.Scope, env.Display(rg.File), plural(len(rg.Events), "event", "events"), ago(now, *rg.LastCall))
	}
	for _, c := range r.Configs {
		fmt.Fprintf(w, "ok: config %s (%s): %s, every handler can start\n", env.Display(c.Path), c.Trust, plural(c.Hooks, "hook", "hooks"))
	}
	printUnreached(w, r)
	printLogNotes(w, r)
}

// printUnreached notes the configured hooks a registered tool never
// calls, in whole or in part.
func printUnreached(w io.Writer, r *doctor.Report) {
	for _, u := range r.Unreached {
		fmt.Fprintf(w, "note: %s: hook %q %s\n", u.Pos, u.Hook, u.Message)
	}
}

// ago is a time as people say it.
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
}

// warnHandlers prints one warning, with its fix, per reason a handler of f
// cannot start.
func warnHandlers(f *config.File, stderr io.Writer) []config.Problem {
	cwd, _ := os.Getwd()
	problems := doctor.CheckHandlers(f, cwd)
	for _, p := range problems {
		warningf(stderr, "%s", p)
	}
	return problems
}
