package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/extend"
)

// resolveExtends pulls in what f extends for a command about f's trust
// (allow, trust): with fetch, the URLs the cache lacks are fetched, as an
// allowance must cover every hook that will run. It reports whether f
// could be resolved whole; what could not is printed.
func resolveExtends(f *config.File, getenv func(string) string, fetch bool, stderr io.Writer) bool {
	if len(f.Extends) == 0 {
		return true
	}
	cache, err := extend.DefaultCache(getenv)
	if err != nil {
		errorf(stderr, "%v", err)
		return false
	}
	o := extend.Options{Cache: cache}
	if fetch {
		o.Fetch = extend.HelperFetcher{}
	}
	rep, err := extend.Resolve(f, o)
	if err != nil {
		errorf(stderr, "%v", err)
		return false
	}
	for _, u := range rep.Unavailable {
		errorf(stderr, "%s", u)
	}
	return len(rep.Unavailable) == 0
}

// cmdFetch fills the cache with the configs the configs in force extend
// by URL, checking each against its pin.
func cmdFetch(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fset := flag.NewFlagSet("fetch", flag.ContinueOnError)
	fset.SetOutput(stderr)
	cfg := fset.String("config", "", "fetch what this config extends (default: your config and the project's)")
	if err := fset.Parse(args); err != nil {
		return 2
	}
	if fset.NArg() > 0 {
		errorf(stderr, "fetch takes no arguments (got %q)", fset.Arg(0))
		return 2
	}
	var paths []string
	if *cfg != "" {
		paths = []string{*cfg}
	} else {
		if up := config.UserPath(getenv); up != "" {
			if _, err := os.Stat(up); err == nil {
				paths = append(paths, up)
			}
		}
		if p := config.FindUp("."); p != "" {
			paths = append(paths, p)
		}
	}
	cache, err := extend.DefaultCache(getenv)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	code, urls := 0, 0
	for _, p := range paths {
		f, err := config.Load(p)
		if err != nil {
			errorf(stderr, "%v", err)
			code = 1
			continue
		}
		for _, x := range f.Extends {
			if x.URL != "" {
				urls++
			}
		}
		rep, err := extend.Resolve(f, extend.Options{Cache: cache, Fetch: extend.HelperFetcher{}, Refresh: true})
		for _, n := range rep.Notes {
			if strings.HasPrefix(n, "https://") {
				fmt.Fprintln(stdout, n)
			}
		}
		for _, u := range rep.Unavailable {
			errorf(stderr, "%s", u)
			code = 1
		}
		if err != nil {
			errorf(stderr, "%v", err)
			code = 1
		}
	}
	if urls == 0 && code == 0 {
		fmt.Fprintf(stdout, "nothing to fetch: no config in force extends a URL (looked at: %s)\n", strings.Join(paths, ", "))
	}
	return code
}

// cmdExtend adds an extends entry to a config: a URL is fetched once and
// pinned by its content's hash (an entry for the same URL is pinned
// anew), a path is written relative to the config's folder.
func cmdExtend(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fset := flag.NewFlagSet("extend", flag.ContinueOnError)
	fset.SetOutput(stderr)
	cfg := fset.String("config", "", "the config to add the entry to (default: the nearest .openhook.json, else one in this folder)")
	user := fset.Bool("user", false, "add it to your own config ("+"$XDG_CONFIG_HOME/hookshim/openhook.json)")
	if err := fset.Parse(args); err != nil {
		return 2
	}
	if fset.NArg() != 1 {
		errorf(stderr, "extend takes one path or https URL")
		return 2
	}
	target := *cfg
	switch {
	case *user:
		target = config.UserPath(getenv)
	case target == "":
		if target = config.FindUp("."); target == "" {
			target = config.FileName
		}
	}
	target, err := filepath.Abs(target)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	env, err := installEnv(getenv, "")
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	a, err := extend.Add(target, fset.Arg(0), extend.AddOptions{
		Cache: func() (extend.Cache, error) { return extend.DefaultCache(getenv) },
		Fetch: extend.HelperFetcher{},
		Env:   env,
	})
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	if a.Already {
		fmt.Fprintf(stdout, "%s already extends %s\n", target, a.Path)
		return 0
	}
	switch {
	case a.Repinned:
		fmt.Fprintf(stdout, "pinned anew: %s (%s, %s)\n", a.URL, a.Pin, plural(a.Hooks, "hook", "hooks"))
	case a.URL != "":
		fmt.Fprintf(stdout, "extends %s (%s, %s)\n", a.URL, a.Pin, plural(a.Hooks, "hook", "hooks"))
	default:
		fmt.Fprintf(stdout, "extends %s (%s)\n", a.Path, plural(a.Hooks, "hook", "hooks"))
	}
	kept := ""
	if a.Backup != "" {
		kept = " (previous version kept in " + env.Display(a.Backup) + ")"
	}
	fmt.Fprintf(stdout, "wrote %s%s\n", target, kept)
	if target != config.UserPath(getenv) && *cfg == "" {
		hintf(stderr, "a project config runs once allowed, and this change needs a new allowance: review it, then run: hookshim allow %s", target)
	}
	return 0
}

// printRemotes lists, for hookshim trust, the configs f pulls in from
// URLs: the allowance covers them by their pins, not by path.
func printRemotes(stdout io.Writer, f *config.File) {
	for _, x := range f.Extended {
		if strings.HasPrefix(x.Path, "https://") {
			fmt.Fprintf(stdout, "  extends %s as pinned (%s)\n", x.Path, config.Integrity(x.Content))
		}
	}
}
