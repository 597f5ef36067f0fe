package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hookshim/hookshim/internal/importer"
	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/provider"
)

// cmdImport writes the hooks a tool runs from its own config into
// .openhook.json, as handlers in that tool's dialect (internal/importer).
func cmdImport(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "the tool whose hooks to import (see hookshim providers)")
	scope := fs.String("scope", "", "project or user: the tool's hooks to read, and the config to write (default: project where the tool has project hooks)")
	dir := fs.String("dir", "", "project folder (default: the git root above the current folder, else the current folder)")
	cfg := fs.String("config", "", "the config to write (default: the project's .openhook.json, or the user's config for --scope user)")
	dryRun := fs.Bool("dry-run", false, "print the change to the config as a unified diff and write nothing")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		errorf(stderr, "unexpected arguments: %s", strings.Join(fs.Args(), " "))
		return 2
	}
	if *from == "" {
		errorf(stderr, "import needs --from ID")
		hintf(stderr, "the ids: %s", strings.Join(importable(), ", "))
		return 2
	}
	p := provider.Lookup(*from)
	if p == nil {
		errorf(stderr, "unknown provider %q", *from)
		hintf(stderr, "the ids: %s", strings.Join(importable(), ", "))
		return 2
	}
	if err := importer.Check(p); err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	if *scope != "" && *scope != "project" && *scope != "user" {
		errorf(stderr, "--scope must be project or user, not %q", *scope)
		return 2
	}
	env, err := installEnv(getenv, *dir)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	t, err := scopeFor(p, *scope)
	if err != nil {
		var se *scopeError
		errorf(stderr, "%s: %v", p.ID, err)
		if errors.As(err, &se) && se.other != "" {
			hintf(stderr, "%s keeps its hooks in its %s settings: use --scope %s", p.ID, se.other, se.other)
		}
		return 1
	}
	path := *cfg
	if path == "" {
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
	pl, err := importer.Make(importer.Options{Env: env, From: p, Scope: t.Scope, Config: path})
	if err != nil {
		errorf(stderr, "%s: %v", p.ID, err)
		var ue *importer.UnreadableError
		var ce *importer.ConfigError
		switch {
		case errors.As(err, &ue):
			hintf(stderr, "fix %s (the tool cannot read it either) and run the command again", ue.Path)
		case errors.As(err, &ce):
			hintf(stderr, "fix %s, or import into another file with --config PATH", env.Display(ce.Path))
		}
		return 1
	}
	where := env.Display(path)
	for _, l := range pl.Losses {
		warningf(stderr, "%s: %s", p.ID, l)
	}
	if len(pl.Files) == 0 {
		fmt.Fprintf(stdout, "%s: no hooks to import: none of %s exists\n", p.ID, strings.Join(pl.Looked, ", "))
		return 0
	}
	fmt.Fprintf(stdout, "%s: read %s\n", p.ID, strings.Join(pl.Files, ", "))
	if pl.Own > 0 {
		fmt.Fprintf(stdout, "%s: left out %s of hookshim's own (they run hookshim)\n", p.ID, plural(pl.Own, "entry", "entries"))
	}
	if pl.Already > 0 {
		fmt.Fprintf(stdout, "%s: %s already imported in %s\n", p.ID, plural(pl.Already, "hook", "hooks"), where)
	}
	if *dryRun {
		if pl.New != nil {
			fmt.Fprint(stdout, install.Diff(where, pl.Old, pl.OldExists, pl.New, true))
		}
		if pl.Added > 0 {
			fmt.Fprintf(stdout, "%s: would import %s into %s\n", p.ID, plural(pl.Added, "hook", "hooks"), where)
		}
		return 0
	}
	if pl.Added == 0 {
		if pl.Already == 0 {
			fmt.Fprintf(stdout, "%s: nothing to import\n", p.ID)
		}
		return 0
	}
	backup, err := importer.Apply(env, pl)
	if err != nil {
		errorf(stderr, "%s: %v", p.ID, err)
		return 1
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
	importNextSteps(env, p, t.Scope, path, pl, stderr)
	return 0
}

// importNextSteps says what makes the imported hooks run: an allow for a
// project config, hookshim installed in the tools, and the tool's own
// registrations taken away, or that tool runs each hook twice.
func importNextSteps(env install.Env, p *provider.Provider, scope provider.Scope, path string, pl *importer.Plan, stderr io.Writer) {
	if scope == provider.ScopeProject {
		if allowed, err := configAllowed(path, env.Getenv); err == nil && !allowed {
			hintf(stderr, "next: run hookshim allow: %s runs only once allowed", env.Display(path))
		}
	}
	all := "hookshim install --all"
	if scope == provider.ScopeUser {
		all += " --scope user"
	}
	hintf(stderr, "next: run %s, so that every tool here runs these hooks", all)
	hintf(stderr, "next: once hookshim is installed in %s, remove these hooks from %s, or %s runs each of them twice (itself, and through hookshim)",
		p.ID, strings.Join(pl.Files, ", "), p.Name)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// importable are the ids of the tools import reads.
func importable() []string {
	var ids []string
	for _, p := range provider.All {
		if importer.Check(p) == nil {
			ids = append(ids, p.ID)
		}
	}
	return ids
}
