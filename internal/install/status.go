package install

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hookshim/hookshim/internal/provider"
)

// Status is one tool's registration in one scope, as `hookshim status`
// shows it.
type Status struct {
	Provider *provider.Provider
	Target   provider.Target
	Path     string   // the file; "" when the scope has none on this machine (no project, no HOME)
	State    string   // current, stale, not installed, binary missing, unreadable, error; "" without a file
	Events   []string // the events registered
	Notes    []string // what is wrong, one line each, naming the tool and the scope
	Failed   bool     // the registration cannot work as it is (the file cannot be read, a binary is missing)
}

// Statuses reads the registrations of the tools of providers that
// install writes, in each of their scopes, judged against the entries
// install would write now (for every event, running env.Bin).
func Statuses(env Env, providers []*provider.Provider) []Status {
	var out []Status
	for _, p := range providers {
		if p.Install == nil {
			continue
		}
		events, _ := Events(p, nil)
		// Run from the home folder (a dotfiles checkout, a fresh
		// shell), a tool whose project file sits where its user file does
		// (~/.claude/settings.json) has one file, not two: it is the
		// user's, written with an absolute path, and judged as the
		// project's it would be "stale" whatever install wrote.
		user := map[string]bool{}
		for _, t := range p.Install.Targets {
			if t.Scope == provider.ScopeUser {
				if path, err := env.Path(t); err == nil {
					user[path] = true
				}
			}
		}
		for _, t := range p.Install.Targets {
			if t.Scope == provider.ScopeProject {
				if path, err := env.Path(t); err == nil && user[path] {
					continue
				}
			}
			out = append(out, status(env, p, t, events))
		}
	}
	return out
}

func status(env Env, p *provider.Provider, t provider.Target, events []string) Status {
	s := Status{Provider: p, Target: t}
	note := func(format string, a ...any) {
		s.Notes = append(s.Notes, fmt.Sprintf("%s (%s): ", p.ID, t.Scope)+fmt.Sprintf(format, a...))
	}
	path, err := env.Path(t)
	if err != nil {
		note("%v", err)
		return s
	}
	s.Path = path
	_, reg, err := Plan(env, p, t, events)
	if err != nil {
		// Only a file that does not parse is "unreadable"; anything
		// else (a binary install could not recognise later...) is
		// reported as it is.
		s.State, s.Failed = "error", true
		var unreadable *UnreadableError
		if errors.As(err, &unreadable) {
			s.State = "unreadable"
		}
		note("%v", err)
		return s
	}
	s.State, s.Events = "current", reg.Events
	missing := reg.Missing(env)
	switch {
	case len(reg.Events) == 0 && len(reg.Ignored) == 0:
		s.State = "not installed"
	case len(missing) > 0:
		// Gemini CLI and Copilot block every tool call when the hook
		// command is missing: worse than stale.
		s.State, s.Failed = "binary missing", true
		for _, m := range missing {
			note("%s: %s", m, missingFix(m))
		}
	case !reg.Current():
		s.State = "stale"
	}
	if (len(reg.Events) > 0 || len(reg.Ignored) > 0) && !reg.Current() {
		note("%s", strings.Join(reg.Problems, "; "))
	}
	if len(reg.Unread) > 0 {
		note("%s", UnreadNote(p, t, reg.Unread))
	}
	return s
}

// missingFix is the fix for a registered binary that cannot be found.
func missingFix(problem string) string {
	if strings.Contains(problem, " from PATH") {
		return "put hookshim in a folder of PATH (a release archive, install.sh, npm install -g hookshim, or go install ./cmd/... in a checkout: README.md, \"Install\")"
	}
	return "put hookshim back there, or run hookshim install again to register this one"
}

// UnreadNote says that other entries of t's file, under events, sit
// where the tool never reads them.
func UnreadNote(p *provider.Provider, t provider.Target, events []string) string {
	return fmt.Sprintf("entries under %q never run (%s): %s reads the events at the top level of %s; move them there",
		t.Format.Ignored, strings.Join(events, ", "), p.Name, t.File)
}
