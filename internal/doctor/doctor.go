// Package doctor checks why a hook does not fire (or fires twice), for
// `hookshim doctor`: each tool's registrations, the hookshim they run,
// when each tool last called, the configs in force and their trust,
// every handler, and what the decision log tells of drift and slow
// handlers. It finds; the command line prints.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/dialect"
	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/seen"
	"github.com/hookshim/hookshim/internal/trust"
	"github.com/hookshim/hookshim/internal/wire"
)

// Report is what doctor found; hookshim doctor --json prints it as it
// is.
type Report struct {
	OK            bool           `json:"ok"`
	Version       string         `json:"version"`
	Bin           string         `json:"bin"`
	Project       string         `json:"project"`
	Registrations []Registration `json:"registrations"`
	Configs       []ConfigReport `json:"configs"`
	Log           *LogReport     `json:"log"`
	Problems      []Problem      `json:"problems"`
	// Unreached are configured hooks a registered tool never calls, in
	// whole or in part (reach.go): notes, not problems, since the other
	// tools still call them.
	Unreached []Unreached `json:"unreached"`
}

// Registration is one tool's registration in one scope, and its calls.
type Registration struct {
	Provider string               `json:"provider"`
	Scope    string               `json:"scope"`
	File     string               `json:"file"`
	State    string               `json:"state"` // current, stale, unreadable, error
	Events   []string             `json:"events"`
	LastCall *time.Time           `json:"last_call"` // null: never called hookshim
	Calls    map[string]time.Time `json:"calls"`     // per registered event that called
	// NeverFired are the registered events no stamp and no logged call
	// has seen (log.go).
	NeverFired []string `json:"never_fired"`
}

// ConfigReport is one config in force.
type ConfigReport struct {
	Path       string `json:"path"`
	Discovered bool   `json:"discovered"` // found from the project: needs an allowance
	Trust      string `json:"trust"`
	Hooks      int    `json:"hooks"`
}

// Problem is something wrong, with its fix.
type Problem struct {
	Area     string `json:"area"` // binary, registration, duplicate, calls, config, extends, trust, handler, environment
	Provider string `json:"provider,omitempty"`
	Scope    string `json:"scope,omitempty"`
	Path     string `json:"path,omitempty"`
	Message  string `json:"message"`
	Fix      string `json:"fix"`
}

// Add adds a problem to the report.
func (r *Report) Add(p Problem) { r.Problems = append(r.Problems, p) }

// Options are what doctor checks, and how it says it.
type Options struct {
	// Env is where the tools' registrations are read, with the hookshim
	// they should run (Bin, ProjectBin).
	Env     install.Env
	Getenv  func(string) string
	Start   string // the folder the configs in force are found from, as hookshim run does
	Cwd     string // paths in messages are shown relative to it
	Version string // this hookshim's, which the registered one should be
	// Extends pulls in what the configs in force extend, as a hook call
	// does, and adds to r what cannot be read; nil: nothing is pulled in.
	Extends func(r *Report, found []config.Found)
}

// Check runs every check, in the order the problems are reported.
func Check(o Options) *Report {
	r := &Report{Version: o.Version, Bin: o.Env.Bin, Project: o.Env.Project, Registrations: []Registration{}, Configs: []ConfigReport{}, Problems: []Problem{}, Unreached: []Unreached{}}
	checkBin(r, o.Env, o.Version)
	checkRegistrations(r, o.Env, o.Getenv)
	checkLog(r, o.Getenv)
	checkConfigs(r, o)
	if o.Getenv("HOOKSHIM_DISABLE") == "1" {
		r.Add(Problem{Area: "environment", Message: "HOOKSHIM_DISABLE=1 is set here: a tool started from this shell runs no handler",
			Fix: "unset HOOKSHIM_DISABLE"})
	}
	r.OK = len(r.Problems) == 0
	return r
}

// checkBin checks the hookshim registrations should run: it exists, can
// run, and is this version.
func checkBin(r *Report, env install.Env, version string) {
	if !filepath.IsAbs(env.Bin) {
		// Found in each tool's PATH: this shell's is the best guess.
		if _, err := exec.LookPath(env.Bin); err != nil {
			r.Add(Problem{Area: "binary", Path: env.Bin, Message: env.Bin + " is not in PATH here: a tool started from this shell cannot run it",
				Fix: "put hookshim in PATH, or install with --bin and an absolute path"})
		}
		return
	}
	fi, err := os.Stat(env.Bin)
	switch {
	case err != nil:
		r.Add(Problem{Area: "binary", Path: env.Bin, Message: env.Bin + " does not exist",
			Fix: "install hookshim there, or name the right one with --bin"})
		return
	case fi.IsDir() || (runtime.GOOS != "windows" && fi.Mode()&0o111 == 0):
		r.Add(Problem{Area: "binary", Path: env.Bin, Message: env.Bin + " is not an executable file",
			Fix: "chmod +x " + env.Bin})
		return
	}
	if exe, err := os.Executable(); err == nil {
		if self, err := os.Stat(exe); err == nil && os.SameFile(self, fi) {
			return
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, env.Bin, "version").Output()
	// The first line names the version; commit and Go release follow.
	got, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	want := "hookshim " + version
	switch {
	case err != nil:
		r.Add(Problem{Area: "binary", Path: env.Bin, Message: env.Bin + " version failed: " + wire.OneLine(err.Error()),
			Fix: "reinstall hookshim at " + env.Bin})
	case got != want:
		r.Add(Problem{Area: "binary", Path: env.Bin, Message: fmt.Sprintf("%s is %q, this is %q", env.Bin, got, want),
			Fix: "install this hookshim at " + env.Bin + ", or run the doctor of that one"})
	}
}

// benign are registration differences that are the user's choice, not a
// fault: a registration made with --events covers fewer (or other) events
// than install writes by default.
var benign = []string{"not registered for ", "registered for events install no longer writes", "registered for an event install no longer writes"}

// checkRegistrations reads every tool's project and user registrations
// the way `hookshim status` does, and when each registered tool last
// called hookshim.
func checkRegistrations(r *Report, env install.Env, getenv func(string) string) {
	stamps, err := seen.All(seen.Dir(getenv))
	if err != nil {
		r.Add(Problem{Area: "calls", Message: "cannot read the last-call stamps: " + wire.OneLine(err.Error()),
			Fix: "make " + seen.Dir(getenv) + " readable"})
	}
	type found struct {
		p    *provider.Provider
		t    provider.Target
		path string
		bad  bool // has a problem of its own
	}
	var regs []found
	off := map[*provider.Provider]bool{} // "turns its hooks off" is said once per tool
	for _, p := range provider.All {
		if p.Install == nil {
			continue
		}
		events, _ := install.Events(p, nil)
		for _, t := range p.Install.Targets {
			reinstall := "hookshim install --provider " + p.ID + scopeArg(t)
			path, err := env.Path(t)
			if err != nil {
				continue // no such scope on this machine (no project, no HOME)
			}
			where := env.Display(path)
			_, reg, err := install.Plan(env, p, t, events)
			if pbe := (*install.ProjectBinError)(nil); errors.As(err, &pbe) {
				// This tool's project entries cannot name a binary inside
				// the project: install writes them to run hookshim from
				// PATH, so judge them against that.
				pathEnv := env
				pathEnv.ProjectBin = ""
				_, reg, err = install.Plan(pathEnv, p, t, events)
			}
			if err != nil {
				var unreadable *install.UnreadableError
				state, fix := "error", reinstall
				if errors.As(err, &unreadable) {
					state, fix = "unreadable", "fix "+where+" by hand (hookshim never edits a file it cannot read), then run "+reinstall
				}
				r.Registrations = append(r.Registrations, Registration{Provider: p.ID, Scope: string(t.Scope), File: path, State: state, Events: []string{}, Calls: map[string]time.Time{}})
				r.Add(Problem{Area: "registration", Provider: p.ID, Scope: string(t.Scope), Path: path,
					Message: fmt.Sprintf("%s (%s): %s", p.ID, t.Scope, wire.OneLine(err.Error())), Fix: fix})
				continue
			}
			if len(reg.Events) == 0 {
				continue
			}
			rg := Registration{Provider: p.ID, Scope: string(t.Scope), File: path, State: "current", Events: reg.Events, Calls: map[string]time.Time{}}
			bad := false
			for _, pr := range reg.Problems {
				if slices.ContainsFunc(benign, func(b string) bool { return strings.HasPrefix(pr, b) }) {
					continue
				}
				bad = true
				rg.State = "stale"
				area := "registration"
				if strings.HasPrefix(pr, install.Twice) {
					area = "duplicate" // install takes the second copy away
				}
				r.Add(Problem{Area: area, Provider: p.ID, Scope: string(t.Scope), Path: path,
					Message: fmt.Sprintf("%s (%s): %s: %s", p.ID, t.Scope, where, pr), Fix: reinstall})
			}
			if p.Install.LoginShellPath && t.Scope == provider.ScopeProject && env.ProjectBin == "" && !loginPathHasHookshim(getenv) {
				r.Add(Problem{Area: "registration", Provider: p.ID, Scope: string(t.Scope), Path: path,
					Message: fmt.Sprintf("%s (%s): the entries in %s run hookshim from PATH, but %s runs hooks with the login shell's PATH, where hookshim is not found: those hooks fail open", p.ID, t.Scope, where, p.Name),
					Fix:     "put hookshim's folder on PATH in your login shell's profile (~/.profile), or register with an absolute path: hookshim install --provider " + p.ID + " --scope user"})
			}
			if !off[p] {
				off[p] = true
				for _, d := range install.Disabled(env, p) {
					r.Add(Problem{Area: "registration", Provider: p.ID, Scope: string(t.Scope), Path: path,
						Message: fmt.Sprintf("%s: %s turns all its hooks off", p.ID, d), Fix: "change that setting"})
				}
			}
			for _, s := range stamps {
				if s.Provider != p.ID {
					continue
				}
				if slices.Contains(reg.Events, s.Event) {
					rg.Calls[s.Event] = s.Time
				}
				if rg.LastCall == nil || s.Time.After(*rg.LastCall) {
					t := s.Time
					rg.LastCall = &t
				}
			}
			if rg.LastCall == nil {
				fix := "start a new " + p.Name + " session (a running one may not reload its hooks) and use it once"
				for _, n := range p.Install.Notes {
					if n.Scope == "" || n.Scope == t.Scope {
						fix += "; " + n.Text
					}
				}
				r.Add(Problem{Area: "calls", Provider: p.ID, Scope: string(t.Scope), Path: path,
					Message: fmt.Sprintf("%s (%s): registered in %s, but %s never called hookshim", p.ID, t.Scope, where, p.Name), Fix: fix})
			}
			r.Registrations = append(r.Registrations, rg)
			regs = append(regs, found{p: p, t: t, path: path, bad: bad})
		}
	}

	// A tool that runs no hook at all in this folder (Gemini CLI in an
	// untrusted one), said once per tool registered anywhere.
	untrusted := map[*provider.Provider]bool{}
	for _, a := range regs {
		if a.p.Install.Untrusted == nil || untrusted[a.p] {
			continue
		}
		untrusted[a.p] = true
		if why := a.p.Install.Untrusted(os.ReadFile, env.Home, env.Project); why != "" {
			r.Add(Problem{Area: "registration", Provider: a.p.ID, Message: a.p.ID + ": " + why,
				Fix: "trust this folder in " + a.p.Name + " (its trust dialog when it starts here)"})
		}
	}

	// Two tools registered in files of one folder: the tools that read such
	// a folder read every file of it, and run both tools' entries.
	for i, a := range regs {
		for _, b := range regs[i+1:] {
			if a.p == b.p || filepath.Dir(a.path) != filepath.Dir(b.path) {
				continue
			}
			r.Add(Problem{Area: "duplicate", Provider: b.p.ID, Scope: string(b.t.Scope), Path: b.path,
				Message: fmt.Sprintf("%s and %s are both registered in %s: a tool that reads that folder runs every file in it, so hookshim is called twice per event",
					a.p.ID, b.p.ID, env.Display(filepath.Dir(a.path))+"/"),
				Fix: "keep one: hookshim uninstall --provider " + b.p.ID + scopeArg(b.t)})
		}
	}
	// A tool that runs another tool's registrations besides its own, kept
	// in another folder (Devin CLI runs Claude Code's .claude/ entries):
	// with both registered it calls hookshim twice per event.
	for _, a := range regs {
		for _, b := range regs {
			if a.t.Scope != b.t.Scope || filepath.Dir(a.path) == filepath.Dir(b.path) ||
				!slices.Contains(a.p.Install.AlsoRunBy, b.p) {
				continue
			}
			if ow := a.p.Install.OneWay; ow != nil && !slices.Contains(ow, a.t.Scope) {
				continue
			}
			r.Add(Problem{Area: "duplicate", Provider: b.p.ID, Scope: string(b.t.Scope), Path: b.path,
				Message: fmt.Sprintf("%s runs %s's entries in %s as well as its own in %s, so it calls hookshim twice per event",
					b.p.Name, a.p.Name, env.Display(a.path), env.Display(b.path)),
				Fix: "keep " + a.p.ID + "'s, which serves both: hookshim uninstall --provider " + b.p.ID + scopeArg(b.t)})
		}
	}
	// A tool that also runs another tool's entries (Cursor runs Claude
	// Code's) calls hookshim once only when both files carry the same
	// command, which install writes; a stale one breaks that.
	for _, a := range regs {
		if a.p.Install == nil || len(a.p.Install.SharedCommand) == 0 {
			continue
		}
		for _, b := range regs {
			if !slices.ContainsFunc(a.p.Install.SharedCommand, func(e provider.ForEvent[*provider.Provider]) bool { return e.Value == b.p }) {
				continue
			}
			if !a.bad && !b.bad {
				continue
			}
			var evs []string
			for _, e := range a.p.Install.SharedCommand {
				if e.Value == b.p {
					evs = append(evs, e.Event)
				}
			}
			r.Add(Problem{Area: "duplicate", Provider: a.p.ID, Scope: string(a.t.Scope), Path: a.path,
				Message: fmt.Sprintf("%s also runs %s's entries in %s: their commands differ from %s's in %s, so %s calls hookshim twice for %s",
					a.p.Name, b.p.Name, env.Display(b.path), a.p.ID, env.Display(a.path), a.p.Name, strings.Join(evs, ", ")),
				Fix: "reinstall both with one hookshim: hookshim install --provider " + b.p.ID + scopeArg(b.t) + " && hookshim install --provider " + a.p.ID + scopeArg(a.t)})
		}
	}
	if len(regs) == 0 && len(r.Registrations) == 0 {
		r.Add(Problem{Area: "registration", Message: "hookshim is not registered in any tool, for this project or this user",
			Fix: "hookshim install --provider ID (or --all); hookshim providers lists the ids"})
	}
}

// loginPathHasHookshim reports whether the user's login shell ($SHELL -l)
// finds hookshim on its PATH. A shell that cannot be run, or no $SHELL,
// cannot tell: reported as found, so that doctor never cries wolf.
func loginPathHasHookshim(getenv func(string) string) bool {
	shell := getenv("SHELL")
	if shell == "" || runtime.GOOS == "windows" {
		return true
	}
	// Only a hang is caught: a login profile may be slow.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := exec.CommandContext(ctx, shell, "-lc", "command -v hookshim").Run()
	var exit *exec.ExitError
	return err == nil || !errors.As(err, &exit)
}

func scopeArg(t provider.Target) string {
	if t.Scope == provider.ScopeUser {
		return " --scope user"
	}
	return ""
}

// checkConfigs finds the configs in force as `hookshim run` does from
// start, their trust state, and checks every handler.
func checkConfigs(r *Report, o Options) {
	getenv, start, cwd := o.Getenv, o.Start, o.Cwd
	found, err := config.Discover(config.Sources{Getenv: getenv, StartDirs: []string{start}})
	if err != nil {
		r.Add(Problem{Area: "config", Message: wire.OneLine(err.Error()), Fix: "fix the config (docs/config.md); until then every call answers as on_error says"})
		return
	}
	if len(found) == 0 {
		searched := filepath.Join(start, config.FileName) + " and the folders above"
		if up := config.UserPath(getenv); up != "" {
			searched += ", " + up
		}
		r.Add(Problem{Area: "config", Message: "no config found (searched " + searched + "): hookshim is called but runs nothing",
			Fix: "create " + config.FileName + " at the project root (docs/config.md)"})
		return
	}
	if o.Extends != nil {
		o.Extends(r, found)
	}
	store, storeErr := trust.DefaultStore(getenv)
	hooks := 0
	for _, f := range found {
		hooks += len(f.Hooks)
		cr := ConfigReport{Path: f.Path, Discovered: f.Discovered, Trust: "not needed", Hooks: len(f.Hooks)}
		if f.Discovered {
			switch {
			case getenv("HOOKSHIM_TRUST_ALL") == "1":
				cr.Trust = "HOOKSHIM_TRUST_ALL=1"
			case storeErr != nil:
				cr.Trust = "unknown"
				r.Add(Problem{Area: "trust", Path: f.Path, Message: wire.OneLine(storeErr.Error()), Fix: "set HOME or XDG_STATE_HOME"})
			default:
				state, err := store.Check(f.File)
				cr.Trust = state.String()
				if err != nil {
					r.Add(Problem{Area: "trust", Path: f.Path, Message: wire.OneLine(err.Error()), Fix: "hookshim allow " + f.Path})
				} else if changes, kept := store.Changes(f.Path); state == trust.Changed && kept {
					var what []string
					for _, c := range changes {
						what = append(what, displayPath(cwd, c.Path)+" "+c.How)
					}
					r.Add(Problem{Area: "trust", Path: f.Path,
						Message: displayPath(cwd, f.Path) + " is " + state.String() + " (" + strings.Join(what, ", ") + "): its hooks run the allowed version",
						Fix:     "review the change, then run: hookshim allow " + displayPath(cwd, f.Path)})
				} else if state != trust.Allowed {
					r.Add(Problem{Area: "trust", Path: f.Path,
						Message: displayPath(cwd, f.Path) + " is " + state.String() + ": its hooks do not run",
						Fix:     "review it, then run: hookshim allow " + displayPath(cwd, f.Path)})
				}
			}
		}
		r.Configs = append(r.Configs, cr)
		// What parsing let through with a warning (an unknown field, a
		// newer version) is something to fix, not to find in a log.
		for _, w := range f.Warnings {
			r.Add(Problem{Area: "config", Path: f.Path, Message: wire.OneLine(w), Fix: "correct or remove what the message names (docs/config.md)"})
		}
		for _, p := range CheckHandlers(f.File, cwd) {
			r.Add(Problem{Area: "handler", Path: f.Path, Message: p.Pos + ": hook " + quoteName(p.Hook) + ": " + p.Msg, Fix: p.Fix})
		}
	}
	checkReach(r, found)
	if hooks == 0 {
		last := found[len(found)-1]
		msg := displayPath(cwd, last.Path) + " has no hook hookshim runs"
		if len(last.Warnings) > 0 {
			msg += " (" + wire.OneLine(last.Warnings[0]) + ")"
		}
		r.Add(Problem{Area: "config", Path: last.Path, Message: msg, Fix: "add a command hook (docs/config.md)"})
	}
}

func quoteName(s string) string { return `"` + s + `"` }

// displayPath shows p relative to dir when it lies below it.
func displayPath(dir, p string) string {
	if dir == "" {
		return p
	}
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return rel
}

// HandlerNotes lists, for `hookshim status`, what keeps the handlers of
// the configs in force from dir from starting.
func HandlerNotes(getenv func(string) string, dir string) []string {
	found, err := config.Discover(config.Sources{Getenv: getenv, StartDirs: []string{dir}})
	if err != nil {
		return []string{"config: " + wire.OneLine(err.Error())}
	}
	cwd, _ := os.Getwd()
	var out []string
	for _, f := range found {
		for _, p := range CheckHandlers(f.File, cwd) {
			out = append(out, p.String())
		}
	}
	return out
}

// CheckHandlers is f.Check and the dialect checks: what keeps a handler
// from starting, or from ever being given a payload; and the headers an
// http or prompt handler sends empty on every call, which the call warns
// of only once it is made. Paths are shown relative to cwd.
func CheckHandlers(f *config.File, cwd string) []config.Problem {
	out := f.Check(cwd, nil)
	for _, h := range f.Hooks {
		if p := dialect.Check(h); p != nil {
			p.Pos = displayPath(cwd, p.Pos)
			out = append(out, *p)
		}
		if h.Remote != nil {
			for _, u := range h.Remote.Unlisted() {
				out = append(out, unlisted(h, u, cwd))
			}
		}
	}
	return out
}

// unlisted is the problem of a header variable "allowed_env_vars" does
// not name.
func unlisted(h *config.Hook, u config.UnlistedEnv, cwd string) config.Problem {
	fix := `add "` + u.Var + `" to the handler's "allowed_env_vars"`
	if !config.IsEnvName(u.Var) {
		fix = "remove $" + u.Var + ` from the header: "allowed_env_vars" names only variables (letters, digits and "_")`
	}
	return config.Problem{Hook: h.Name, Pos: displayPath(cwd, h.Pos), Kind: config.Unlisted, Path: u.Var,
		Msg: "header " + u.Header + ": $" + u.Var + ` is not in "allowed_env_vars": every call sends it empty`, Fix: fix}
}
