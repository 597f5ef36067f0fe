package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hookshim/hookshim/internal/importer"
	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/trust"
)

// cmdImport writes the hooks a tool runs from its own config into
// .openhook.json, as handlers in that tool's dialect (internal/importer).
func cmdImport(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := newFlags("import")
	from := fs.String("from", "", "")
	all := fs.Bool("all", false, "")
	scope := fs.String("scope", "", "")
	dir := fs.String("dir", "", "")
	cfg := fs.String("config", "", "")
	dryRun := fs.Bool("dry-run", false, "")
	plugin := fs.String("plugin", "", "")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	if *plugin != "" {
		if *all {
			errorf(stderr, "--plugin names one tool's plugin: use it with --from")
			return 2
		}
		abs, err := filepath.Abs(*plugin)
		if err != nil {
			errorf(stderr, "%v", err)
			return 1
		}
		*plugin = abs
	}
	if fs.NArg() > 0 {
		errorf(stderr, "unexpected arguments: %s", strings.Join(fs.Args(), " "))
		return 2
	}
	if *all == (*from != "") {
		errorf(stderr, "import needs --from ID or --all")
		hintf(stderr, "the ids: %s", strings.Join(importer.IDs(), ", "))
		return 2
	}
	if *scope != "" && *scope != "project" && *scope != "user" {
		errorf(stderr, "--scope must be project or user, not %q", *scope)
		return 2
	}
	var providers []*provider.Provider
	if *all {
		providers = importer.Tools()
		if *scope == "" {
			*scope = string(provider.ScopeProject)
		}
	} else {
		p := provider.Lookup(*from)
		if p == nil {
			errorf(stderr, "unknown provider %q", *from)
			hintf(stderr, "the ids: %s", strings.Join(importer.IDs(), ", "))
			return 2
		}
		if err := importer.Check(p); err != nil {
			errorf(stderr, "%v", err)
			return 1
		}
		providers = []*provider.Provider{p}
	}
	env, err := installEnv(getenv, *dir)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}

	var plans []*importer.Plan
	var done []*provider.Provider
	var last *importer.Plan
	path, chosen := "", provider.Scope(*scope)
	status := 0
	for _, p := range providers {
		t, err := install.TargetFor(p, *scope)
		if err != nil {
			if *all {
				continue // nothing of this tool's at that scope
			}
			var se *install.ScopeError
			errorf(stderr, "%s: %v", p.ID, err)
			if errors.As(err, &se) && se.Other != "" {
				hintf(stderr, "%s keeps its hooks in its %s settings: use --scope %s", p.ID, se.Other, se.Other)
			}
			return 1
		}
		chosen = t.Scope
		if path == "" {
			if path = *cfg; path == "" {
				path = importer.ConfigPath(env, t.Scope)
			}
			if path == "" {
				errorf(stderr, "HOME is not set: no user config to write")
				hintf(stderr, "name the config with --config PATH")
				return 1
			}
			if path, err = filepath.Abs(path); err != nil {
				errorf(stderr, "%v", err)
				return 1
			}
		}
		opts := importer.Options{Env: env, From: p, Scope: t.Scope, Config: path, Plugin: *plugin}
		if *dryRun {
			opts.After = last
		}
		pl, err := importer.Make(opts)
		if err != nil {
			status = 1
			importError(stderr, env, p, err)
			var ce *importer.ConfigError
			if errors.As(err, &ce) {
				return 1 // the same for every tool
			}
			continue
		}
		if len(pl.Files) == 0 {
			if !*all {
				fmt.Fprintf(stdout, "%s: no hooks to import: none of %s exists\n", p.ID, strings.Join(pl.Looked, ", "))
			}
			continue
		}
		if !importOne(env, p, pl, path, *dryRun, stdout, stderr) {
			status = 1
			continue
		}
		if pl.Added > 0 || pl.New != nil {
			last = pl
		}
		plans = append(plans, pl)
		done = append(done, p)
	}
	where := env.Display(path)
	if *all && len(plans) == 0 && status == 0 {
		fmt.Fprintf(stdout, "no tool's hooks found in the %s scope\n", chosen)
	}
	if *dryRun {
		if last != nil && last.New != nil {
			fmt.Fprint(stdout, install.Diff(where, last.Old, last.OldExists, last.New, true))
		}
		return status
	}
	added := 0
	for _, pl := range plans {
		added += pl.Added
	}
	if added > 0 {
		importNextSteps(env, done, plans, chosen, path, stderr)
	}
	return status
}

// importOne reports one tool's plan and, but for a dry run, writes it.
func importOne(env install.Env, p *provider.Provider, pl *importer.Plan, path string, dryRun bool, stdout, stderr io.Writer) bool {
	where := env.Display(path)
	for _, l := range pl.Losses {
		warningf(stderr, "%s: %s", p.ID, l)
	}
	fmt.Fprintf(stdout, "%s: read %s\n", p.ID, strings.Join(pl.Files, ", "))
	if pl.Own > 0 {
		fmt.Fprintf(stdout, "%s: left out %s of hookshim's own (they run hookshim)\n", p.ID, plural(pl.Own, "entry", "entries"))
	}
	if pl.Already > 0 {
		fmt.Fprintf(stdout, "%s: %s already imported in %s\n", p.ID, plural(pl.Already, "hook", "hooks"), where)
	}
	switch {
	case pl.Added == 0 && pl.Already == 0:
		fmt.Fprintf(stdout, "%s: nothing to import\n", p.ID)
		return true
	case pl.Added == 0:
		return true
	case dryRun:
		fmt.Fprintf(stdout, "%s: would import %s into %s\n", p.ID, plural(pl.Added, "hook", "hooks"), where)
		return true
	}
	backup, err := importer.Apply(env, pl)
	if err != nil {
		errorf(stderr, "%s: %v", p.ID, err)
		return false
	}
	verb := "updated"
	if !pl.OldExists {
		verb = "created"
	}
	kept := ""
	if backup != "" {
		kept = "; previous version kept in " + env.Display(backup)
	}
	fmt.Fprintf(stdout, "%s: imported %s into %s (%s)%s\n", p.ID, plural(pl.Added, "hook", "hooks"), where, verb, kept)
	return true
}

// importError reports a tool import failed for, with the fix.
func importError(stderr io.Writer, env install.Env, p *provider.Provider, err error) {
	errorf(stderr, "%s: %v", p.ID, err)
	var ue *importer.UnreadableError
	var ce *importer.ConfigError
	var changed *install.ChangedError
	switch {
	case errors.As(err, &ue):
		hintf(stderr, "fix %s (the tool cannot read it either) and run the command again", ue.Path)
	case errors.As(err, &ce):
		hintf(stderr, "fix %s, or import into another file with --config PATH", env.Display(ce.Path))
	case errors.As(err, &changed):
		hintf(stderr, "run the command again")
	}
}

// importNextSteps says what makes the imported hooks run: an allow for a
// project config, hookshim installed in the tools, and the tools' own
// registrations taken away, or each tool runs its hooks twice.
func importNextSteps(env install.Env, from []*provider.Provider, plans []*importer.Plan, scope provider.Scope, path string, stderr io.Writer) {
	if scope == provider.ScopeProject {
		if allowed, err := trust.Allows(path, env.Getenv); err == nil && !allowed {
			hintf(stderr, "next: run hookshim allow: %s runs only once allowed", env.Display(path))
		}
	}
	all := "hookshim install --all"
	if scope == provider.ScopeUser {
		all += " --scope user"
	}
	hintf(stderr, "next: run %s, so that every tool here runs these hooks", all)
	for i, p := range from {
		if plans[i].Added == 0 {
			continue
		}
		if plans[i].Plugin != "" {
			// The plugin's files are its own: an edit is undone by its
			// next update.
			hintf(stderr, "next: once hookshim is installed in %s, disable the plugin there (not its hooks.json, which its next update restores), or %s runs each of its hooks twice (itself, and through hookshim)",
				p.ID, p.Name)
			continue
		}
		hintf(stderr, "next: once hookshim is installed in %s, remove these hooks from %s, or %s runs each of them twice (itself, and through hookshim)",
			p.ID, strings.Join(plans[i].Files, ", "), p.Name)
	}
}

// plural is a count with its noun: "1 hook", "2 hooks".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
