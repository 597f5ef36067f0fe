// Package extend pulls in the configs a config extends ("extends": paths,
// and https URLs pinned by the SHA-256 of their content), so that one
// policy can be shared by many projects and users.
//
// A hook call never touches the network: a URL is read from the cache
// (see Cache), which the commands the user runs fill (hookshim fetch,
// extend, allow: see Fetcher; hookshim-remote makes the request, so that
// hookshim links no HTTP code). A URL whose content no longer matches its
// pin is refused, and the cached copy that matches is used; a URL with no
// copy at all is an extension that cannot be read, and its on_error says
// whether that denies the call or is a warning.
//
// The extended configs' hooks run before the extending file's own, each
// file's on_error applying to its own hooks. Whether an extension may run
// at all is the trust rule's business (package trust pins the extended
// files of a project config); this package only reads them.
package extend

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/tidwall/gjson"
)

// The bounds of one config's extensions: nesting deeper or pulling in
// more files is an error. Each file is read and parsed once, whichever
// way it is reached, so the work is linear in what is pulled in.
const (
	MaxDepth = 8
	MaxFiles = 64
)

// Options say where fetched configs are and whether to fetch.
type Options struct {
	Cache Cache
	// Fetch, when set, fetches a URL that the cache lacks (and, with
	// Refresh, every URL, to see whether it still matches its pin). Nil on
	// a hook call: the cache alone is read. The commands give a
	// HelperFetcher.
	Fetch   Fetcher
	Refresh bool
	// Seen, when set, is shared by the configs of one call: a file that
	// your config and the project's both extend runs once, where first
	// reached.
	Seen map[string]bool
}

// Report is what resolving found, beyond the hooks.
type Report struct {
	Notes       []string // where each extension was read from
	Unavailable []string // extensions that could not be read or were refused, with positions (also in the file's Warnings)
}

// UnavailableError is an extension that cannot be read whose failure
// policy is deny: the call is to be denied.
type UnavailableError struct {
	Pos string // file:line:col of the entry
	Msg string
}

func (e *UnavailableError) Error() string {
	return e.Pos + ": " + e.Msg + " (on_error: deny)"
}

// Resolve reads what f extends, recursively, and puts their hooks before
// f's own, in the order the entries are written (depth first; a file
// reached twice counts once, where it is first reached). f.Extended gets
// the files pulled in. Extensions that cannot be read under an on_error
// of allow are left out with a warning in f.Warnings; under deny, Resolve
// returns an *UnavailableError. Anything else wrong (a missing file, a
// syntax error, a cycle, a path inside a fetched config) is an error
// naming the entry's position.
func Resolve(f *config.File, o Options) (Report, error) {
	var rep Report
	if len(f.Extends) == 0 {
		return rep, nil
	}
	seen := o.Seen
	if seen == nil {
		seen = map[string]bool{}
	}
	r := &resolver{o: o, root: f, rep: &rep, seen: seen}
	r.stack = []string{key(f.Path, "")}
	r.names = []string{f.Path}
	if err := r.walk(f, f.OnError, "", 1); err != nil {
		return rep, err
	}
	f.Hooks = append(r.hooks, f.Hooks...)
	f.Extended = r.files
	return rep, nil
}

type resolver struct {
	o     Options
	root  *config.File
	rep   *Report
	seen  map[string]bool
	stack []string // keys of the files on the current path, for cycles
	names []string // and their names, for the message
	files []*config.File
	hooks []*config.Hook
}

func key(path, pin string) string {
	if pin != "" {
		return "pin " + pin
	}
	return "file " + path
}

// remote reports whether f was fetched (its Path is its URL).
func remote(f *config.File) bool { return strings.HasPrefix(f.Path, "https://") }

// walk adds the hooks of what f extends. policy is f's failure policy
// (for its entries that name none); inherit is what f's hooks inherit
// ("" for the root's: the call's policy).
func (r *resolver) walk(f *config.File, policy, inherit string, depth int) error {
	for _, x := range f.Extends {
		pos := fmt.Sprintf("%s:%d:%d", f.Path, x.Line, x.Col)
		if x.Path != "" && remote(f) {
			return &config.Error{Path: f.Path, Line: x.Line, Col: x.Col,
				Msg: fmt.Sprintf("extends %s: a config fetched from a URL can extend only pinned URLs, not a path on this machine", x.Path)}
		}
		k := key(x.Path, x.Integrity)
		if i := slices.Index(r.stack, k); i >= 0 {
			cycle := append(slices.Clone(r.names[i:]), x.Name())
			return &config.Error{Path: f.Path, Line: x.Line, Col: x.Col,
				Msg: "extends cycle: " + strings.Join(cycle, " → ")}
		}
		if r.seen[k] {
			continue
		}
		if depth > MaxDepth {
			return &config.Error{Path: f.Path, Line: x.Line, Col: x.Col,
				Msg: fmt.Sprintf("extends nested more than %d deep: %s → %s", MaxDepth, strings.Join(r.names, " → "), x.Name())}
		}
		if len(r.files) >= MaxFiles {
			return &config.Error{Path: f.Path, Line: x.Line, Col: x.Col,
				Msg: fmt.Sprintf("extends pulls in more than %d files", MaxFiles)}
		}
		entryPolicy := x.OnError
		if entryPolicy == "" {
			entryPolicy = policy
		}
		ext, err := r.load(f, x)
		var gone *unavailable
		if errors.As(err, &gone) {
			msg := fmt.Sprintf("extends %s: %s", x.Name(), gone.msg)
			r.rep.Unavailable = append(r.rep.Unavailable, pos+": "+msg)
			if entryPolicy == "deny" {
				return &UnavailableError{Pos: pos, Msg: msg}
			}
			r.root.Warnings = append(r.root.Warnings, pos+": "+msg+"; its hooks do not run (on_error: allow)")
			continue
		}
		if err != nil {
			var ce *config.Error
			if errors.As(err, &ce) && ce.Path != f.Path {
				return &config.Error{Path: f.Path, Line: x.Line, Col: x.Col, Msg: "in the config it extends: " + err.Error()}
			}
			if ce != nil {
				return err
			}
			return &config.Error{Path: f.Path, Line: x.Line, Col: x.Col, Msg: fmt.Sprintf("extends %s: %v", x.Name(), err)}
		}
		r.seen[k] = true
		own, hookPolicy := entryPolicy, inherit
		if setsOnError(ext) {
			own, hookPolicy = ext.OnError, ext.OnError
		}
		r.stack = append(r.stack, k)
		r.names = append(r.names, x.Name())
		err = r.walk(ext, own, hookPolicy, depth+1)
		r.stack = r.stack[:len(r.stack)-1]
		r.names = r.names[:len(r.names)-1]
		if err != nil {
			return err
		}
		for _, h := range ext.Hooks {
			if h.OnError == "" {
				h.OnError = hookPolicy
			}
		}
		r.hooks = append(r.hooks, ext.Hooks...)
		r.files = append(r.files, ext)
		r.root.Warnings = append(r.root.Warnings, ext.Warnings...)
	}
	return nil
}

// setsOnError reports whether the file says what its failures mean: one
// that does not inherits the extending file's policy.
func setsOnError(f *config.File) bool {
	return gjson.GetBytes(bytes.TrimPrefix(f.Content, []byte("\ufeff")), "on_error").Exists()
}

// unavailable is an extension that cannot be read now, which the failure
// policy decides about (as opposed to a config error).
type unavailable struct{ msg string }

func (u *unavailable) Error() string { return u.msg }

// load reads and parses one extension of f.
func (r *resolver) load(f *config.File, x config.Extension) (*config.File, error) {
	if x.Path != "" {
		data, err := config.ReadFileMax(x.Path, config.MaxFileSize)
		if err != nil {
			return nil, err
		}
		r.rep.Notes = append(r.rep.Notes, fmt.Sprintf("%s extends %s", f.Path, x.Path))
		return config.Parse(x.Path, data)
	}
	data, err := r.remote(x)
	if err != nil {
		return nil, err
	}
	return config.ParseRemote(x.URL, f.Dir, data)
}

// remote is the content of a pinned URL: the cached copy, or (with a
// Fetcher) what the URL serves when it matches the pin.
func (r *resolver) remote(x config.Extension) ([]byte, error) {
	c := r.o.Cache
	cached, damaged, err := c.Get(x.Integrity)
	if err != nil {
		return nil, &unavailable{msg: "cache: " + err.Error()}
	}
	if cached != nil && (r.o.Fetch == nil || !r.o.Refresh) {
		r.rep.Notes = append(r.rep.Notes, fmt.Sprintf("%s read from the cache (%s)", x.URL, x.Integrity))
		return cached, nil
	}
	if r.o.Fetch == nil {
		msg := "not in the cache (" + x.Integrity + "); fetch it with: hookshim fetch"
		if damaged {
			msg = "the cached copy does not match its pin " + x.Integrity + " (damaged): not used; fetch it again with: hookshim fetch"
		}
		return nil, &unavailable{msg: msg}
	}
	got, err := r.o.Fetch.Get(x.URL)
	if err == nil {
		if pin := config.Integrity(got); pin != x.Integrity {
			err = &ChangedError{URL: x.URL, Pin: x.Integrity, Got: pin}
		}
	}
	if err != nil {
		var changed *ChangedError
		isChanged := errors.As(err, &changed)
		if cached != nil {
			// The last good copy stays in use: a changed remote, or one
			// that cannot be reached, never replaces what was pinned.
			msg := err.Error()
			if isChanged {
				msg = fmt.Sprintf("changed: it now serves %s, not the pinned %s: refused; the cached copy that matches the pin is used (hint: review the change, then pin it anew: hookshim extend %s)", changed.Got, x.Integrity, x.URL)
			}
			r.rep.Unavailable = append(r.rep.Unavailable, x.URL+": "+msg)
			r.rep.Notes = append(r.rep.Notes, fmt.Sprintf("%s read from the cache (%s)", x.URL, x.Integrity))
			return cached, nil
		}
		if isChanged {
			return nil, &unavailable{msg: fmt.Sprintf("changed: it serves %s, not the pinned %s: refused, and no copy that matches the pin is cached (hint: review the change, then pin it anew: hookshim extend %s)", changed.Got, x.Integrity, x.URL)}
		}
		return nil, &unavailable{msg: "not in the cache, and fetching it failed: " + err.Error()}
	}
	if err := c.Put(got); err != nil {
		return nil, &unavailable{msg: "fetched, but not cached: " + err.Error()}
	}
	r.rep.Notes = append(r.rep.Notes, fmt.Sprintf("%s fetched, matches its pin (%s)", x.URL, x.Integrity))
	return got, nil
}
