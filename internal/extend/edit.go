package extend

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// AddOptions say how Add reaches URLs and writes the config.
type AddOptions struct {
	// Cache is where a fetched config is kept; asked for a URL only.
	Cache func() (Cache, error)
	// Fetch reads a URL (HelperFetcher for the commands).
	Fetch Fetcher
	// Env writes the config as hookshim writes every file of the user's:
	// under its lock, the previous version kept, through a symbolic link.
	Env install.Env
}

// Added is what Add did.
type Added struct {
	URL      string // the URL extended, or ""
	Path     string // the path extended, as written: relative to the config's folder
	Pin      string // a URL's integrity pin
	Hooks    int    // the hooks of the extended config itself
	Repinned bool   // an entry for the same URL was there: it is pinned anew
	Already  bool   // the config already extends the path: nothing was written
	Backup   string // the config's previous version, "" when it had none
}

// NewConfig is the config Add creates when there is none.
const NewConfig = `{"spec": "hooks/0.1", "extends": []}`

// Add adds to the extends list of the config at target (an absolute
// path; created when absent) an entry for arg: an https URL is fetched
// once, with what it extends in turn, cached and pinned by its content's
// hash (an entry for the same URL is pinned anew); a path is written
// relative to the config's folder (one the config already extends is
// left alone). The file is edited as text, as install edits the tools'
// files: comments, trailing commas, key order and layout kept, and
// checked to parse before it is written. A config kept behind a symbolic
// link (a dotfiles repository) is edited where the link points.
func Add(target, arg string, o AddOptions) (Added, error) {
	var a Added
	old, err := os.ReadFile(target)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return a, err
	}
	doc, err := install.EditJSONC(string(old), NewConfig)
	if err != nil {
		if _, perr := config.Parse(target, old); perr != nil {
			err = perr // with its line and column
		} else {
			err = fmt.Errorf("%s: %v", target, err)
		}
		return a, fmt.Errorf("%v; it is left as it was", err)
	}
	list, _ := doc.Get("extends")
	if strings.Contains(arg, "://") {
		err = addURL(&a, doc, list, target, arg, o)
	} else {
		err = addPath(&a, doc, list, target, arg)
	}
	if err != nil || a.Already {
		return a, err
	}
	data := []byte(doc.Text())
	if _, err := config.Parse(target, data); err != nil {
		return a, fmt.Errorf("the entry would leave %s broken: %v", target, err)
	}
	a.Backup, err = o.Env.Write(target, old, exists, data, 0o644)
	return a, err
}

// addURL fetches arg, checks that it is a config hookshim can use, with
// what it extends, caches it, and pins it in doc's list.
func addURL(a *Added, doc *install.JSONC, list gjson.Result, target, arg string, o AddOptions) error {
	if !strings.HasPrefix(arg, "https://") {
		return fmt.Errorf("%s: only https URLs can be extended", arg)
	}
	cache, err := o.Cache()
	if err != nil {
		return err
	}
	content, err := o.Fetch.Get(arg)
	if err != nil {
		return fmt.Errorf("fetching %s: %v", arg, err)
	}
	a.URL, a.Pin = arg, config.Integrity(content)
	remote, err := config.ParseRemote(arg, filepath.Dir(target), content)
	if err == nil {
		// What it extends in turn is fetched now too.
		_, err = Resolve(remote, Options{Cache: cache, Fetch: o.Fetch})
	}
	if err != nil {
		return fmt.Errorf("%s is not a config hookshim can use: %v", arg, err)
	}
	if err := cache.Put(content); err != nil {
		return fmt.Errorf("caching %s: %v", arg, err)
	}
	a.Hooks = len(remote.Hooks)
	index := -1
	list.ForEach(func(k, v gjson.Result) bool {
		if v.Get("url").Str == arg {
			index = int(k.Int())
			return false
		}
		return true
	})
	if index >= 0 {
		a.Repinned = true
		err = doc.Set(string(wire.Quote(a.Pin)), "extends", index, "integrity")
	} else {
		err = doc.AppendBefore("extends", `{"url": `+string(wire.Quote(arg))+`, "integrity": `+string(wire.Quote(a.Pin))+`}`, "hooks")
	}
	if err != nil {
		return fmt.Errorf("%s: %v", target, err)
	}
	return nil
}

// addPath checks that arg is a config and adds it to doc's list, relative
// to target's folder, unless the list has it (by any spelling).
func addPath(a *Added, doc *install.JSONC, list gjson.Result, target, arg string) error {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return err
	}
	ext, err := config.Load(abs)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(filepath.Dir(target), abs)
	if err != nil {
		rel = abs
	}
	a.Path, a.Hooks = filepath.ToSlash(rel), len(ext.Hooks)
	list.ForEach(func(_, v gjson.Result) bool {
		p := v.Str
		if v.IsObject() {
			p = v.Get("path").Str
		}
		if p != "" && !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(target), p)
		}
		a.Already = p != "" && filepath.Clean(p) == abs
		return !a.Already
	})
	if a.Already {
		return nil
	}
	if err := doc.AppendBefore("extends", `{"path": `+string(wire.Quote(a.Path))+`}`, "hooks"); err != nil {
		return fmt.Errorf("%s: %v", target, err)
	}
	return nil
}
