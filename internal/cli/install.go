package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/doctor"
	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/trust"
)

// installFlags are the options install, uninstall and status share.
type installFlags struct {
	providers string
	all       bool
	scope     string
	dir       string
	events    string
	bin       string
	dryRun    bool
	check     bool
}

func (f *installFlags) register(fs *flag.FlagSet, cmd string) {
	fs.StringVar(&f.providers, "provider", "", "")
	fs.StringVar(&f.dir, "dir", "", "")
	if cmd == "status" {
		fs.StringVar(&f.bin, "bin", "", "")
		return
	}
	fs.BoolVar(&f.all, "all", false, "")
	fs.StringVar(&f.scope, "scope", "", "")
	fs.BoolVar(&f.dryRun, "dry-run", false, "")
	if cmd == "install" {
		fs.StringVar(&f.events, "events", "", "")
		fs.StringVar(&f.bin, "bin", "", "")
		fs.BoolVar(&f.check, "check", false, "")
	}
}

// env builds the install environment from the flags, without the
// binaries (see bins).
func (f *installFlags) env(getenv func(string) string) (install.Env, error) {
	return installEnv(getenv, f.dir)
}

// installEnv is the environment the tools' configs are found in: HOME,
// and the project (--dir, else the repository around the working
// directory). install, uninstall, status and doctor read the same files.
func installEnv(getenv func(string) string, dir string) (install.Env, error) {
	env := install.Env{Getenv: getenv, Home: getenv("HOME"), Now: time.Now}
	if env.Home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			env.Home = h
		}
	}
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return env, err
		}
		fi, err := os.Stat(abs)
		if err != nil || !fi.IsDir() {
			return env, fmt.Errorf("--dir %s is not a folder", dir)
		}
		env.Project = abs
	} else if wd, err := os.Getwd(); err == nil {
		env.Project = install.ProjectRoot(wd)
	}
	// What install writes depends on it: status and doctor compare with
	// the same.
	env.Handlers = config.LongestTimeout(getenv, env.Project)
	return env, nil
}

// bins sets the binaries entries run, for the scopes of the jobs: user
// scope calls an absolute path (a tool started from a desktop launcher may
// not have the user's PATH); project files are committed, so they call
// hookshim from PATH, or a binary inside the project relative to it,
// never a path of this machine. It reports a problem and returns false
// when the binary cannot be used.
func (f *installFlags) bins(env *install.Env, jobs []*install.Job, getenv func(string) string, stderr io.Writer, quiet bool) bool {
	var user, project bool
	for _, j := range jobs {
		if j.Target == nil {
			continue
		}
		user = user || j.Target.Scope == provider.ScopeUser
		project = project || j.Target.Scope == provider.ScopeProject
	}
	if f.bin != "" {
		abs, err := install.ResolveBin(f.bin, getenv)
		if err != nil {
			var be *install.BinError
			if !f.check || !errors.As(err, &be) {
				errorf(stderr, "%v", err)
				switch {
				case errors.As(err, &be) && be.Problem == "is not executable":
					hintf(stderr, "make it executable (chmod +x %s), or name another hookshim", f.bin)
				default:
					hintf(stderr, "--bin names the hookshim binary the tools run: build or copy it there first (make build writes bin/hookshim), or leave --bin out")
				}
				return false
			}
			// --check only compares files: the binary may live on
			// another machine (CI checking a dotfiles repository).
			if abs, err = filepath.Abs(f.bin); err != nil {
				errorf(stderr, "%v", err)
				return false
			}
		}
		env.Bin = abs
		if project && strings.ContainsAny(f.bin, `/\`) {
			rel, ok := env.ProjectRel(abs)
			if !ok {
				errorf(stderr, "--bin %s is outside the project: project hook files are shared, and teammates' tools cannot run a path of this machine", f.bin)
				hintf(stderr, "leave out --bin (entries run hookshim from PATH), name a binary inside the project (--bin bin/hookshim), or register in your own settings with --scope user")
				return false
			}
			env.ProjectBin = rel
		}
	} else if user {
		bin, err := install.Bin(getenv)
		if err != nil {
			errorf(stderr, "%v", err)
			hintf(stderr, "install hookshim first (README.md, \"Install\") or name it with --bin")
			return false
		}
		env.Bin = bin
	}
	if project && env.ProjectBin == "" && !quiet && install.LookPath("hookshim", getenv("PATH")) == "" {
		warningf(stderr, "hookshim is not in PATH: the project's entries run hookshim from PATH, and the tools will not find it (Gemini CLI and Copilot block every tool call then)")
		hintf(stderr, "put hookshim in a folder of PATH (a release archive, install.sh, npm install -g hookshim, or go install ./cmd/... in a checkout: README.md, \"Install\"), or name a binary inside the project with --bin")
	}
	return true
}

// selectProviders turns --provider / --all into providers.
func (f *installFlags) selectProviders(env install.Env, stderr io.Writer, cmd string) ([]*provider.Provider, bool) {
	if !f.all {
		var out []*provider.Provider
		for _, id := range strings.Split(f.providers, ",") {
			if strings.TrimSpace(id) == "" {
				continue
			}
			p := provider.Lookup(id)
			switch {
			case p == nil:
				errorf(stderr, "unknown provider %q", strings.TrimSpace(id))
				hintf(stderr, "the ids: %s", strings.Join(install.IDs(), ", "))
				return nil, false
			case p.Install == nil:
				// Its config is not a file hookshim can keep intact (a
				// plugin folder, YAML, a file only the user names): print
				// the entry to add, or to take away.
				command := "hookshim run --provider " + p.ID
				if cmd == "install" {
					errorf(stderr, "hookshim cannot register itself in %s's config", p.Name)
					if p.ByHand != nil {
						hintf(stderr, "%s", strings.TrimRight(p.ByHand(command), "\n"))
					}
				} else {
					errorf(stderr, "hookshim does not edit %s's config", p.Name)
					hintf(stderr, "remove the hooks that run %q by hand", command)
				}
				return nil, false
			}
			out = append(out, p)
		}
		return out, true
	}
	out := install.Found(env)
	if cmd == "uninstall" {
		out = install.Editable()
	}
	if len(out) == 0 {
		errorf(stderr, "found no tool on this machine or in %s", env.Project)
		hintf(stderr, "name one with --provider ID (%s)", strings.Join(install.IDs(), ", "))
		return nil, false
	}
	return out, true
}

func cmdInstall(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return installOrUninstall("install", args, stdout, stderr, getenv)
}

func cmdUninstall(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return installOrUninstall("uninstall", args, stdout, stderr, getenv)
}

func installOrUninstall(cmd string, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	var f installFlags
	fs := newFlags(cmd)
	f.register(fs, cmd)
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	if fs.NArg() > 0 {
		errorf(stderr, "unexpected arguments: %s", strings.Join(fs.Args(), " "))
		return 2
	}
	if f.all == (f.providers != "") {
		errorf(stderr, "%s needs --provider ID or --all", cmd)
		hintf(stderr, "the ids: %s", strings.Join(install.IDs(), ", "))
		return 2
	}
	if f.scope != "" && f.scope != "project" && f.scope != "user" {
		errorf(stderr, "--scope must be project or user, not %q", f.scope)
		return 2
	}
	uninstall := cmd == "uninstall"
	env, err := f.env(getenv)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	if f.scope != "user" && !uninstall && env.InHome() {
		// The home folder's .claude/, .gemini/… are the user's own
		// settings: a project-scope entry there would rewrite them with
		// project-style commands, and status would then show each file
		// twice.
		errorf(stderr, "%s is your home folder: its project-level hook configs are your user settings", env.Project)
		hintf(stderr, "run %s in a project folder (or with --dir), or use --scope user to register for every project", cmd)
		return 1
	}
	providers, ok := f.selectProviders(env, stderr, cmd)
	if !ok {
		return 2
	}
	var asked []string
	if f.events != "" {
		if len(providers) > 1 {
			errorf(stderr, "--events names one tool's events: use it with a single --provider")
			return 2
		}
		for _, e := range strings.Split(f.events, ",") {
			if e = strings.TrimSpace(e); e != "" {
				asked = append(asked, e)
			}
		}
	}

	jobs := make([]*install.Job, 0, len(providers))
	for _, p := range providers {
		j := &install.Job{Provider: p}
		jobs = append(jobs, j)
		if j.Target, err = install.TargetFor(p, f.scope); err != nil {
			j.Target = nil
			if f.all {
				j.Skip = err.Error()
			} else {
				j.Err = err
			}
			continue
		}
		if f.scope == "" && j.Target.Scope == provider.ScopeUser && !uninstall {
			hintf(stderr, "%s has no project-level hook config: registered at user level, for every project", p.ID)
		}
		if !uninstall {
			if j.Events, err = install.Events(p, asked); err != nil {
				j.Err = err
			}
		}
	}
	if !uninstall && !f.bins(&env, jobs, getenv, stderr, f.check) {
		return 1
	}
	if f.all && !uninstall {
		install.PickOnce(env, jobs)
	}
	for _, j := range jobs {
		if !j.Ready() {
			continue
		}
		j.Plan(env)
	}

	if f.dryRun {
		for _, j := range jobs {
			if j.Err == nil && j.Skip == "" {
				for _, c := range j.Changes {
					fmt.Fprint(stdout, install.Diff(env.Display(c.Path), c.Old, c.OldExists, c.New, c.NewExists))
				}
			}
		}
	}
	if f.check {
		status := checkJobs(env, jobs, stdout, stderr)
		warnDisabled(env, jobs, stderr)
		return status
	}
	if !f.dryRun {
		for _, j := range jobs {
			if j.Err == nil && j.Skip == "" {
				j.Apply(env)
			}
		}
	}
	return report(env, jobs, stdout, stderr, uninstall, f.dryRun)
}

// report prints one line per tool, then the next steps; the exit status
// is 1 when a tool failed.
func report(env install.Env, jobs []*install.Job, stdout, stderr io.Writer, uninstall, dryRun bool) int {
	var failed []string
	scopes := map[provider.Scope]bool{}
	for _, j := range jobs {
		switch {
		case j.Skip != "":
			fmt.Fprintf(stdout, "%s: skipped: %s\n", j.Provider.ID, j.Skip)
			continue
		case j.Err != nil && len(j.Applied) == 0:
			failed = append(failed, j.Provider.ID)
			reportError(stderr, j.Provider, j.Err)
			continue
		case dryRun:
			continue
		}
		for _, a := range j.Applied {
			reportApplied(stdout, env, j, a, uninstall)
		}
		if j.Err != nil {
			// Some of a folder's files were written, not all.
			failed = append(failed, j.Provider.ID)
			reportError(stderr, j.Provider, j.Err)
			continue
		}
		where := env.Display(j.Path(env))
		changed := len(j.Applied) > 0
		switch {
		case !changed && uninstall:
			fmt.Fprintf(stdout, "%s: hookshim is not registered in %s\n", j.Provider.ID, where)
		case !changed:
			fmt.Fprintf(stdout, "%s: %s is already current (%d events)\n", j.Provider.ID, where, len(j.Events))
		case !uninstall:
			scopes[j.Target.Scope] = true
			for _, n := range j.Provider.Install.Notes {
				if n.Scope == "" || n.Scope == j.Target.Scope {
					hintf(stderr, "%s: %s", j.Provider.ID, n.Text)
				}
			}
		}
	}
	if !uninstall && !dryRun {
		nextSteps(env, scopes, stderr)
		warnDisabled(env, jobs, stderr)
	}
	if len(failed) == 0 {
		return 0
	}
	if len(jobs) > 1 {
		errorf(stderr, "%d of %d tools failed: %s", len(failed), len(jobs), strings.Join(failed, ", "))
	}
	return 1
}

// nextSteps says what hookshim itself still needs once registered: a
// config, and for a project config an allow.
func nextSteps(env install.Env, scopes map[provider.Scope]bool, stderr io.Writer) {
	if scopes[provider.ScopeProject] {
		path := config.FindUp(env.Project)
		if path == "" {
			hintf(stderr, "next: write the project's hooks in %s (see the README), then run hookshim allow", env.Display(filepath.Join(env.Project, config.FileName)))
		} else if allowed, err := trust.Allows(path, env.Getenv); err == nil && !allowed {
			hintf(stderr, "next: run hookshim allow: %s runs only once allowed", env.Display(path))
		}
	}
	if scopes[provider.ScopeUser] {
		if up := config.UserPath(env.Getenv); up != "" {
			if _, err := os.Stat(up); err != nil {
				hintf(stderr, "next: write your hooks in %s: they apply in every project (a project's %s runs once you hookshim allow it)", env.Display(up), config.FileName)
			}
		}
	}
}

// warnDisabled says when a setting turns all of a tool's hooks off, when
// the user's own entries sit where the tool never reads them, and when the
// tool stops a hook before a handler's timeout.
func warnDisabled(env install.Env, jobs []*install.Job, stderr io.Writer) {
	for _, j := range jobs {
		if !j.Ready() {
			continue
		}
		if short := env.ShortTimeouts(j.Provider, *j.Target, j.Events); len(short) > 0 {
			warningf(stderr, "%s stops a hook after %s, before the longest handler's timeout (%s): a handler still running then loses its answer",
				j.Provider.ID, strings.Join(short, "; "), env.Handlers)
		}
		if len(j.Reg.Unread) > 0 {
			warningf(stderr, "%s: %s: %s", j.Provider.ID, env.Display(j.Path(env)), install.UnreadNote(j.Provider, *j.Target, j.Reg.Unread))
		}
		for _, d := range install.Disabled(env, j.Provider) {
			warningf(stderr, "%s: %s turns all its hooks off: hookshim's entries will not run", j.Provider.ID, d)
		}
	}
}

func reportApplied(w io.Writer, env install.Env, j *install.Job, a install.Applied, uninstall bool) {
	c := a.Change
	where := env.Display(c.Path)
	kept := ""
	if a.Backup != "" {
		kept = "; previous version kept in " + env.Display(a.Backup)
	}
	switch {
	case !c.NewExists:
		fmt.Fprintf(w, "%s: removed %s, which only held hookshim's registration%s\n", j.Provider.ID, where, kept)
	case uninstall:
		fmt.Fprintf(w, "%s: removed hookshim from %s%s\n", j.Provider.ID, where, kept)
	case !c.OldExists:
		fmt.Fprintf(w, "%s: created %s (%s)\n", j.Provider.ID, where, eventCount(j, c))
	default:
		fmt.Fprintf(w, "%s: updated %s (%s)%s\n", j.Provider.ID, where, eventCount(j, c), kept)
	}
}

func eventCount(j *install.Job, c install.Change) string {
	if j.Target.Format.Layout == provider.LayoutScriptPerEvent {
		return "event " + filepath.Base(c.Path)
	}
	if len(c.Events) == 1 {
		return "1 event"
	}
	return fmt.Sprintf("%d events", len(c.Events))
}

// checkJobs reports, for --check, each registration that install would
// change, and fails when there is one or a tool failed.
func checkJobs(env install.Env, jobs []*install.Job, stdout, stderr io.Writer) int {
	status := 0
	for _, j := range jobs {
		switch {
		case j.Skip != "":
			fmt.Fprintf(stdout, "%s: skipped: %s\n", j.Provider.ID, j.Skip)
			continue
		case j.Err != nil:
			reportError(stderr, j.Provider, j.Err)
			status = 1
			continue
		}
		changed := false
		for _, c := range j.Changes {
			changed = changed || c.Changed()
		}
		where := env.Display(j.Path(env))
		if !changed {
			fmt.Fprintf(stdout, "%s: %s is current\n", j.Provider.ID, where)
			continue
		}
		status = 1
		problems := j.Reg.Problems
		if len(problems) == 0 {
			problems = []string{"differs from what install writes"}
		}
		errorf(stderr, "%s: %s: %s", j.Provider.ID, where, strings.Join(problems, "; "))
		scope := ""
		if j.Target.Scope == provider.ScopeUser {
			scope = " --scope user"
		}
		hintf(stderr, "run 'hookshim install --provider %s%s' to write it", j.Provider.ID, scope)
	}
	return status
}

// reportError reports a tool that failed, with how to fix it.
func reportError(stderr io.Writer, p *provider.Provider, err error) {
	var unreadable *install.UnreadableError
	var conflict *install.ConflictError
	var projectBin *install.ProjectBinError
	var scope *install.ScopeError
	errorf(stderr, "%s: %v", p.ID, err)
	switch {
	case errors.As(err, &unreadable):
		hintf(stderr, "hookshim never writes a file it cannot read: fix %s (or move it away) and run the command again", unreadable.Path)
	case errors.As(err, &conflict):
		hintf(stderr, "move it away, or merge hookshim into it by hand (hookshim install --dry-run shows what it would write)")
	case errors.As(err, &projectBin):
		hintf(stderr, "leave out --bin to run hookshim from PATH there, or register %s with --scope user", p.ID)
	case errors.As(err, &scope) && scope.Other != "":
		hintf(stderr, "%s reads hooks from its %s settings: use --scope %s", p.ID, scope.Other, scope.Other)
	}
}

func cmdStatus(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	var f installFlags
	fs := newFlags("status")
	f.register(fs, "status")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	env, err := f.env(getenv)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	// What a current registration runs: as install writes it.
	if f.bin != "" {
		if env.Bin, err = filepath.Abs(f.bin); err != nil || !strings.ContainsAny(f.bin, `/\`) {
			env.Bin = f.bin
		}
		if rel, ok := env.ProjectRel(env.Bin); ok {
			env.ProjectBin = rel
		}
	} else if env.Bin, err = install.Bin(getenv); err != nil {
		env.Bin = "hookshim"
	}
	providers := provider.All
	if f.providers != "" {
		providers = nil
		for _, id := range strings.Split(f.providers, ",") {
			p := provider.Lookup(id)
			if p == nil {
				errorf(stderr, "unknown provider %q", strings.TrimSpace(id))
				return 2
			}
			providers = append(providers, p)
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tSCOPE\tFILE\tSTATE\tEVENTS")
	status := 0
	var notes []string
	shown := map[string]bool{}
	for _, st := range install.Statuses(env, providers) {
		where, state := "-", "-"
		if st.Path != "" {
			// In the home folder a project target is the user one: one
			// file, listed once.
			if shown[st.Path] {
				continue
			}
			shown[st.Path] = true
			where, state = env.Display(st.Path), st.State
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", st.Provider.ID, st.Target.Scope, where, state, strings.Join(st.Events, ","))
		notes = append(notes, st.Notes...)
		if st.Failed {
			status = 1
		}
	}
	for _, p := range providers {
		for _, d := range install.Disabled(env, p) {
			notes = append(notes, fmt.Sprintf("%s: %s turns all its hooks off", p.ID, d))
		}
	}
	notes = append(notes, doctor.HandlerNotes(getenv, env.Project)...)
	if err := tw.Flush(); err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	if len(notes) > 0 {
		fmt.Fprintln(stdout)
		for _, n := range notes {
			fmt.Fprintln(stdout, n)
		}
	}
	return status
}
