package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/extend"
	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
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
	// Read through a symbolic link (a config kept in a dotfiles
	// repository): the file there is edited, and the link stays.
	old, err := os.ReadFile(target)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		errorf(stderr, "%v", err)
		return 1
	}
	// Edited as install edits the tools' files: as text, comments,
	// trailing commas, key order and layout kept.
	doc, err := install.EditJSONC(string(old), newExtending)
	if err != nil {
		if _, perr := config.Parse(target, old); perr != nil {
			err = perr // with its line and column
		} else {
			err = fmt.Errorf("%s: %v", target, err)
		}
		errorf(stderr, "%v; it is left as it was", err)
		return 1
	}
	list, _ := doc.Get("extends")
	arg := fset.Arg(0)
	var what string
	index := -1 // the entry to pin anew
	if strings.Contains(arg, "://") {
		if !strings.HasPrefix(arg, "https://") {
			errorf(stderr, "%s: only https URLs can be extended", arg)
			return 1
		}
		cache, err := extend.DefaultCache(getenv)
		if err != nil {
			errorf(stderr, "%v", err)
			return 1
		}
		content, err := extend.HelperFetcher{}.Get(arg)
		if err != nil {
			errorf(stderr, "fetching %s: %v", arg, err)
			return 1
		}
		pin := config.Integrity(content)
		remote, err := config.ParseRemote(arg, filepath.Dir(target), content)
		if err == nil {
			// What it extends in turn is fetched now too.
			_, err = extend.Resolve(remote, extend.Options{Cache: cache, Fetch: extend.HelperFetcher{}})
		}
		if err != nil {
			errorf(stderr, "%s is not a config hookshim can use: %v", arg, err)
			return 1
		}
		if err := cache.Put(content); err != nil {
			errorf(stderr, "caching %s: %v", arg, err)
			return 1
		}
		list.ForEach(func(k, v gjson.Result) bool {
			if v.Get("url").Str == arg {
				index = int(k.Int())
				return false
			}
			return true
		})
		what = fmt.Sprintf("%s (%s, %s)", arg, pin, plural(len(remote.Hooks), "hook", "hooks"))
		if index >= 0 {
			err = doc.Set(string(wire.Quote(pin)), "extends", index, "integrity")
		} else {
			err = doc.AppendBefore("extends", `{"url": `+string(wire.Quote(arg))+`, "integrity": `+string(wire.Quote(pin))+`}`, "hooks")
		}
		if err != nil {
			errorf(stderr, "%s: %v", target, err)
			return 1
		}
	} else {
		abs, err := filepath.Abs(arg)
		if err != nil {
			errorf(stderr, "%v", err)
			return 1
		}
		ext, err := config.Load(abs)
		if err != nil {
			errorf(stderr, "%v", err)
			return 1
		}
		rel, err := filepath.Rel(filepath.Dir(target), abs)
		if err != nil {
			rel = abs
		}
		rel = filepath.ToSlash(rel)
		dup := false
		list.ForEach(func(_, v gjson.Result) bool {
			p := v.Str
			if v.IsObject() {
				p = v.Get("path").Str
			}
			if p != "" && !filepath.IsAbs(p) {
				p = filepath.Join(filepath.Dir(target), p)
			}
			dup = p != "" && filepath.Clean(p) == abs
			return !dup
		})
		if dup {
			fmt.Fprintf(stdout, "%s already extends %s\n", target, rel)
			return 0
		}
		what = fmt.Sprintf("%s (%s)", rel, plural(len(ext.Hooks), "hook", "hooks"))
		if err := doc.AppendBefore("extends", `{"path": `+string(wire.Quote(rel))+`}`, "hooks"); err != nil {
			errorf(stderr, "%s: %v", target, err)
			return 1
		}
	}
	data := []byte(doc.Text())
	if _, err := config.Parse(target, data); err != nil {
		errorf(stderr, "the entry would leave %s broken: %v", target, err)
		return 1
	}
	// Under the file's lock, the previous version kept, through a
	// temporary file and a rename (a hook call reading the config never
	// sees half of it), where a symbolic link points, the file's mode kept.
	backup, err := env.Write(target, old, exists, data, 0o644)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	if index >= 0 {
		fmt.Fprintf(stdout, "pinned anew: %s\n", what)
	} else {
		fmt.Fprintf(stdout, "extends %s\n", what)
	}
	kept := ""
	if backup != "" {
		kept = " (previous version kept in " + env.Display(backup) + ")"
	}
	fmt.Fprintf(stdout, "wrote %s%s\n", target, kept)
	if target != config.UserPath(getenv) && *cfg == "" {
		hintf(stderr, "a project config runs once allowed, and this change needs a new allowance: review it, then run: hookshim allow %s", target)
	}
	return 0
}

// newExtending is the config extend creates when there is none.
const newExtending = `{"spec": "hooks/0.1", "extends": []}`

// printRemotes lists, for hookshim trust, the configs f pulls in from
// URLs: the allowance covers them by their pins, not by path.
func printRemotes(stdout io.Writer, f *config.File) {
	for _, x := range f.Extended {
		if strings.HasPrefix(x.Path, "https://") {
			fmt.Fprintf(stdout, "  extends %s as pinned (%s)\n", x.Path, config.Integrity(x.Content))
		}
	}
}
