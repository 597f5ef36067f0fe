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

	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/provider"
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
	fs.StringVar(&f.providers, "provider", "", "tool to "+cmd+" for (comma-separated ids; see hookshim providers)")
	fs.StringVar(&f.dir, "dir", "", "project folder (default: the git root above the current folder, else the current folder)")
	if cmd == "status" {
		fs.StringVar(&f.bin, "bin", "", "the hookshim command a current registration runs (default: this hookshim)")
		return
	}
	fs.BoolVar(&f.all, "all", false, cmd+" for every tool found on this machine or in the project")
	fs.StringVar(&f.scope, "scope", "", "project or user (default: project where the tool has project hooks)")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the changes as a unified diff and write nothing")
	if cmd == "install" {
		fs.StringVar(&f.events, "events", "", "only these native events (comma-separated; default: every event hookshim handles)")
		fs.StringVar(&f.bin, "bin", "", "the hookshim command entries run (default: this hookshim's absolute path)")
		fs.BoolVar(&f.check, "check", false, "write nothing; exit 1 when the registration is missing or stale")
	}
}

// env builds the install environment from the flags.
func (f *installFlags) env(getenv func(string) string, needBin bool) (install.Env, error) {
	env := install.Env{Getenv: getenv, Home: getenv("HOME"), Now: time.Now}
	if env.Home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			env.Home = h
		}
	}
	if f.dir != "" {
		abs, err := filepath.Abs(f.dir)
		if err != nil {
			return env, err
		}
		fi, err := os.Stat(abs)
		if err != nil || !fi.IsDir() {
			return env, fmt.Errorf("--dir %s is not a folder", f.dir)
		}
		env.Project = abs
	} else if wd, err := os.Getwd(); err == nil {
		env.Project = install.ProjectRoot(wd)
	}
	switch {
	case f.bin != "":
		env.Bin = f.bin
	case needBin:
		bin, err := install.Bin(getenv)
		if err != nil {
			return env, fmt.Errorf("%v; install hookshim first (go install, make build) or name it with --bin", err)
		}
		env.Bin = bin
	}
	return env, nil
}

// selectProviders turns --provider / --all into providers.
func (f *installFlags) selectProviders(env install.Env, stderr io.Writer, cmd string) ([]*provider.Provider, bool) {
	if f.all == (f.providers != "") {
		errorf(stderr, "%s needs --provider ID or --all", cmd)
		hintf(stderr, "the ids: %s", strings.Join(installable(), ", "))
		return nil, false
	}
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
				hintf(stderr, "the ids: %s", strings.Join(installable(), ", "))
				return nil, false
			case p.Install == nil:
				errorf(stderr, "hookshim cannot register itself in %s's config", p.Name)
				return nil, false
			}
			out = append(out, p)
		}
		return out, true
	}
	var out []*provider.Provider
	for _, p := range provider.All {
		if p.Install == nil {
			continue
		}
		if cmd == "uninstall" || install.OnMachine(env, p) || install.InProject(env, p) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		errorf(stderr, "found no tool on this machine or in %s", env.Project)
		hintf(stderr, "name one with --provider ID (%s)", strings.Join(installable(), ", "))
		return nil, false
	}
	return out, true
}

func installable() []string {
	var ids []string
	for _, p := range provider.All {
		if p.Install != nil {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// scopeFor picks the target of p for the --scope flag: the one asked
// for, or project where the tool has project hooks and user otherwise.
func scopeFor(p *provider.Provider, scope string) (*provider.Target, error) {
	switch scope {
	case "":
		if t := install.Target(p, provider.ScopeProject); t != nil {
			return t, nil
		}
		if t := install.Target(p, provider.ScopeUser); t != nil {
			return t, nil
		}
		return nil, fmt.Errorf("%s has no hook config hookshim can write", p.ID)
	case "project", "user":
		if t := install.Target(p, provider.Scope(scope)); t != nil {
			return t, nil
		}
		return nil, fmt.Errorf("%s has no %s-level hook config", p.ID, scope)
	}
	return nil, fmt.Errorf("--scope must be project or user, not %q", scope)
}

// planned is the plan for one provider and target.
type planned struct {
	p       *provider.Provider
	t       provider.Target
	changes []install.Change
	reg     install.Registration
	events  []string
}

func cmdInstall(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	return installOrUninstall("install", args, stdout, stderr, getenv)
}

func cmdUninstall(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	return installOrUninstall("uninstall", args, stdout, stderr, getenv)
}

func installOrUninstall(cmd string, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	var f installFlags
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	f.register(fs, cmd)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		errorf(stderr, "unexpected arguments: %s", strings.Join(fs.Args(), " "))
		return 2
	}
	if f.all == (f.providers != "") {
		errorf(stderr, "%s needs --provider ID or --all", cmd)
		hintf(stderr, "the ids: %s", strings.Join(installable(), ", "))
		return 2
	}
	uninstall := cmd == "uninstall"
	env, err := f.env(getenv, !uninstall)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	if uninstall {
		// Entries are found by what they run, whatever the path.
		env.Bin = "hookshim"
	} else if !filepath.IsAbs(env.Bin) && !f.check {
		warningf(stderr, "--bin %s is not an absolute path: each tool must find it in its own PATH, and Copilot and Gemini block every tool call when the command is missing", env.Bin)
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

	// Plan everything before writing anything: one unreadable file stops
	// the whole command, not half of it.
	var plans []planned
	failed := false
	for _, p := range providers {
		t, err := scopeFor(p, f.scope)
		if err != nil {
			if f.all {
				if f.scope != "" {
					warningf(stderr, "%v: skipped", err)
				}
				continue
			}
			errorf(stderr, "%v", err)
			failed = true
			continue
		}
		var events []string
		if !uninstall {
			if events, err = install.Events(p, asked); err != nil {
				errorf(stderr, "%v", err)
				failed = true
				continue
			}
		}
		changes, reg, err := install.Plan(env, p, *t, events)
		if err != nil {
			reportPlanError(stderr, p, err)
			failed = true
			continue
		}
		plans = append(plans, planned{p: p, t: *t, changes: changes, reg: reg, events: events})
	}
	if failed {
		if len(plans) > 0 && !f.dryRun && !f.check {
			hintf(stderr, "nothing was written")
		}
		return 1
	}

	if f.dryRun {
		for _, pl := range plans {
			for _, c := range pl.changes {
				fmt.Fprint(stdout, install.Diff(env.Display(c.Path), c.Old, c.OldExists, c.New, c.NewExists))
			}
		}
	}
	if f.check {
		warnDisabled(env, plans, stderr)
		return checkPlans(env, plans, stdout, stderr)
	}
	if f.dryRun {
		return 0
	}

	status := 0
	for _, pl := range plans {
		changed := false
		for _, c := range pl.changes {
			if !c.Changed() {
				continue
			}
			changed = true
			backup, err := install.Apply(env, c)
			if err != nil {
				errorf(stderr, "%s: %v", pl.p.ID, err)
				status = 1
				continue
			}
			reportApplied(stdout, env, pl, c, backup, uninstall)
		}
		if !changed {
			where := env.Display(pathOf(env, pl))
			if uninstall {
				if !f.all {
					fmt.Fprintf(stdout, "%s: hookshim is not registered in %s\n", pl.p.ID, where)
				}
			} else {
				fmt.Fprintf(stdout, "%s: %s is already current (%d events)\n", pl.p.ID, where, len(pl.events))
			}
			continue
		}
		if !uninstall && status == 0 {
			for _, n := range pl.p.Install.Notes {
				hintf(stderr, "%s: %s", pl.p.ID, n)
			}
		}
	}
	if !uninstall {
		warnDisabled(env, plans, stderr)
	}
	return status
}

// warnDisabled says when a setting turns all of a tool's hooks off.
func warnDisabled(env install.Env, plans []planned, stderr io.Writer) {
	seen := map[*provider.Provider]bool{}
	for _, pl := range plans {
		if seen[pl.p] {
			continue
		}
		seen[pl.p] = true
		for _, d := range install.Disabled(env, pl.p) {
			warningf(stderr, "%s: %s turns all its hooks off: hookshim's entries will not run", pl.p.ID, d)
		}
	}
}

func pathOf(env install.Env, pl planned) string {
	if pl.reg.Path != "" {
		return pl.reg.Path
	}
	p, _ := env.Path(pl.t)
	return p
}

func reportApplied(w io.Writer, env install.Env, pl planned, c install.Change, backup string, uninstall bool) {
	where := env.Display(c.Path)
	kept := ""
	if backup != "" {
		kept = "; previous version kept in " + env.Display(backup)
	}
	switch {
	case !c.NewExists:
		fmt.Fprintf(w, "%s: removed %s, which only held hookshim's registration%s\n", pl.p.ID, where, kept)
	case uninstall:
		fmt.Fprintf(w, "%s: removed hookshim from %s%s\n", pl.p.ID, where, kept)
	case !c.OldExists:
		fmt.Fprintf(w, "%s: created %s (%s)\n", pl.p.ID, where, eventCount(pl, c))
	default:
		fmt.Fprintf(w, "%s: updated %s (%s)%s\n", pl.p.ID, where, eventCount(pl, c), kept)
	}
}

func eventCount(pl planned, c install.Change) string {
	if pl.t.Format.Layout == provider.LayoutScriptPerEvent {
		return "event " + filepath.Base(c.Path)
	}
	if len(c.Events) == 1 {
		return "1 event"
	}
	return fmt.Sprintf("%d events", len(c.Events))
}

// checkPlans reports, for --check, each registration that install would
// change, and fails when there is one.
func checkPlans(env install.Env, plans []planned, stdout, stderr io.Writer) int {
	status := 0
	for _, pl := range plans {
		changed := false
		for _, c := range pl.changes {
			changed = changed || c.Changed()
		}
		where := env.Display(pathOf(env, pl))
		if !changed {
			fmt.Fprintf(stdout, "%s: %s is current\n", pl.p.ID, where)
			continue
		}
		status = 1
		problems := pl.reg.Problems
		if len(problems) == 0 {
			problems = []string{"differs from what install writes"}
		}
		errorf(stderr, "%s: %s: %s", pl.p.ID, where, strings.Join(problems, "; "))
		scope := ""
		if pl.t.Scope == provider.ScopeUser {
			scope = " --scope user"
		}
		hintf(stderr, "run 'hookshim install --provider %s%s' to write it", pl.p.ID, scope)
	}
	return status
}

func reportPlanError(stderr io.Writer, p *provider.Provider, err error) {
	var unreadable *install.UnreadableError
	var conflict *install.ConflictError
	switch {
	case errors.As(err, &unreadable):
		errorf(stderr, "%s: %v", p.ID, err)
		hintf(stderr, "hookshim never writes a file it cannot read: fix %s (or move it away) and run the command again", unreadable.Path)
	case errors.As(err, &conflict):
		errorf(stderr, "%s: %v", p.ID, err)
		hintf(stderr, "move it away, or merge hookshim into it by hand (hookshim install --dry-run shows what it would write)")
	default:
		errorf(stderr, "%s: %v", p.ID, err)
	}
}

func cmdStatus(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	var f installFlags
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f.register(fs, "status")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	env, err := f.env(getenv, false)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	if env.Bin == "" {
		if env.Bin, err = install.Bin(getenv); err != nil {
			env.Bin = "hookshim"
		}
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
	for _, p := range providers {
		if p.Install == nil {
			continue
		}
		events, _ := install.Events(p, nil)
		for _, t := range p.Install.Targets {
			path, err := env.Path(t)
			if err != nil {
				fmt.Fprintf(tw, "%s\t%s\t-\t-\t\n", p.ID, t.Scope)
				notes = append(notes, fmt.Sprintf("%s (%s): %v", p.ID, t.Scope, err))
				continue
			}
			_, reg, err := install.Plan(env, p, t, events)
			where := env.Display(path)
			if err != nil {
				// Only a file that does not parse is "unreadable"; anything
				// else (a binary install could not recognise later...) is
				// reported as it is, below the table.
				state := "error"
				var unreadable *install.UnreadableError
				if errors.As(err, &unreadable) {
					state = "unreadable"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", p.ID, t.Scope, where, state)
				notes = append(notes, fmt.Sprintf("%s (%s): %v", p.ID, t.Scope, err))
				status = 1
				continue
			}
			state := "current"
			switch {
			case len(reg.Events) == 0:
				state = "not installed"
			case !reg.Current():
				state = "stale"
				notes = append(notes, fmt.Sprintf("%s (%s): %s", p.ID, t.Scope, strings.Join(reg.Problems, "; ")))
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.ID, t.Scope, where, state, strings.Join(reg.Events, ","))
		}
	}
	for _, p := range providers {
		for _, d := range install.Disabled(env, p) {
			notes = append(notes, fmt.Sprintf("%s: %s turns all its hooks off", p.ID, d))
		}
	}
	notes = append(notes, handlerNotes(getenv, env.Project)...)
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
