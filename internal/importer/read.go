package importer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/shellquote"
	"github.com/tidwall/gjson"
)

// native is one hook entry found in a tool's config.
type native struct {
	file    string       // where it is, as messages show it
	event   string       // the native event
	group   gjson.Result // the matcher group around it (LayoutGroups), or nothing
	entry   gjson.Result // the entry itself; nothing for a script
	script  string       // LayoutScriptPerEvent: the command that runs the file
	matcher string       // the native matcher, "" when none
	off     string       // why the tool does not run it, when a setting of the file turns it off
	plugin  string       // the folder of the plugin it comes from, "" for none
	// bad says why the value is not an entry of the tool's format at
	// all (a "hooks" of another shape): reported, never passed over.
	bad string
}

// source is one file (or folder of scripts) a tool reads hooks from.
type source struct {
	path   string
	target provider.Target
	plugin string // the plugin folder the file belongs to, "" for none
}

// sources are the files of p at scope that import reads: the install
// targets and the Imports, with patterns expanded, each once.
func sources(env install.Env, p *provider.Provider, scope provider.Scope) ([]source, error) {
	var out []source
	seen := map[string]bool{}
	add := func(path string, t provider.Target) {
		if !seen[path] {
			seen[path] = true
			out = append(out, source{path: path, target: t})
		}
	}
	all := slices.Concat(p.Install.Targets, p.Install.Imports)
	for _, t := range all {
		if t.Scope != scope {
			continue
		}
		path, err := env.Path(t)
		if err != nil {
			return nil, err
		}
		if !strings.Contains(t.Dir+t.File, "*") {
			add(path, t)
			continue
		}
		matches, err := filepath.Glob(path)
		if err != nil {
			return nil, err
		}
		slices.Sort(matches)
		for _, m := range matches {
			add(m, t)
		}
	}
	return out, nil
}

// read lists the entries of one source; none when it does not exist.
// ignored reports entries under the Format's Ignored key, which the tool
// never reads: read while the file is parsed, so it is parsed once.
func read(env install.Env, p *provider.Provider, src source) (out []native, found, ignored bool, err error) {
	f := src.target.Format
	if f.Layout == provider.LayoutScriptPerEvent {
		out, found, err = readScripts(env, p, src)
		return out, found, false, err
	}
	b, err := os.ReadFile(src.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, false, nil
	}
	if err != nil {
		return nil, false, false, err
	}
	text := string(b)
	if strings.TrimSpace(text) == "" {
		return nil, true, false, nil
	}
	var doc gjson.Result
	toml := f.Layout == provider.LayoutTOMLTables || strings.HasSuffix(src.path, ".toml")
	if toml {
		doc, err = install.TOMLAsJSON(text)
	} else {
		doc, err = install.StandardJSON(text)
	}
	if err != nil {
		return nil, true, false, &UnreadableError{Path: env.Display(src.path), Err: err}
	}
	// Ignored is a key of a JSON file only, where install puts what it
	// moves aside (layout_json.go).
	ignored = !toml && f.Ignored != "" && f.TopLevel && doc.Get(f.Ignored).IsObject()
	shown := env.Display(src.path)
	base := doc.Get("hooks")
	if f.TopLevel {
		base = doc
	}
	what := `"hooks"`
	if f.TopLevel {
		what = "the file"
	}
	switch f.Layout {
	case provider.LayoutArray, provider.LayoutTOMLTables:
		if base.Exists() && !base.IsArray() && !base.IsObject() {
			out = append(out, native{file: shown, event: "hooks", bad: what + " is not the list of hooks " + p.Name + " reads: nothing in it is imported"})
			return out, true, ignored, nil
		}
		base.ForEach(func(_, e gjson.Result) bool {
			out = append(out, native{file: shown, event: e.Get(f.EventKey).String(), entry: e, matcher: matcherOf(e)})
			return true
		})
		switchedOff(env, p, src, doc, out)
		return out, true, ignored, nil
	}
	if base.Exists() && !base.IsObject() {
		// Not the tool's format (the Hook Interchange vectors' flat list
		// for Gemini CLI, say): the tool reads nothing from it either.
		out = append(out, native{file: shown, event: "hooks", bad: what + " is not the object of events " + p.Name + " reads (event name to a list of hooks): nothing in it is imported"})
		return out, true, ignored, nil
	}
	base.ForEach(func(k, list gjson.Result) bool {
		if slices.Contains(f.Settings, k.Str) || (f.TopLevel && !list.IsArray()) {
			return true // a setting, not an event
		}
		if !list.IsArray() {
			out = append(out, native{file: shown, event: k.Str, bad: "its value is not a list of hooks"})
			return true
		}
		list.ForEach(func(_, e gjson.Result) bool {
			if !e.IsObject() {
				out = append(out, native{file: shown, event: k.Str, bad: "an entry is not an object"})
				return true
			}
			// A group of Claude's layout, also where the tool takes flat
			// lists too (Copilot CLI reads both).
			if hs := e.Get("hooks"); hs.IsArray() {
				hs.ForEach(func(_, h gjson.Result) bool {
					out = append(out, native{file: shown, event: k.Str, group: e, entry: h, matcher: matcherOf(e)})
					return true
				})
				return true
			}
			out = append(out, native{file: shown, event: k.Str, entry: e, matcher: matcherOf(e)})
			return true
		})
		return true
	})
	switchedOff(env, p, src, doc, out)
	return out, true, ignored, nil
}

// switchedOff marks the hooks a setting of the file turns off: one of
// the tool's Switches (every hook of the file), or its Format's
// HooksDisabled list.
func switchedOff(env install.Env, p *provider.Provider, src source, doc gjson.Result, out []native) {
	for _, sw := range p.Install.Switches {
		if at, err := env.Path(sw.At); err != nil || at != src.path {
			continue
		}
		if v := doc.Get(sw.Key); v.Exists() && v.Value() == sw.Off {
			for i := range out {
				out[i].off = fmt.Sprintf("every hook of the file is off (%s is %v)", sw.Key, sw.Off)
			}
			return
		}
	}
	f := src.target.Format
	if f.HooksDisabled == "" {
		return
	}
	var names []string
	doc.Get(f.HooksDisabled).ForEach(func(_, v gjson.Result) bool {
		names = append(names, v.String())
		return true
	})
	for i, n := range out {
		name := n.entry.Get("name").String()
		if name == "" {
			name = n.entry.Get("command").String()
		}
		if name != "" && slices.Contains(names, name) {
			out[i].off = fmt.Sprintf("it is disabled (%s)", f.HooksDisabled)
		}
	}
}

func matcherOf(e gjson.Result) string {
	for _, k := range []string{"matcher", "match"} {
		if m := e.Get(k); m.Type == gjson.String {
			return m.Str
		}
	}
	return ""
}

// readScripts lists the event files of a LayoutScriptPerEvent folder,
// and of the folder the tool also reads. Each file is a hook command.
func readScripts(env install.Env, p *provider.Provider, src source) ([]native, bool, error) {
	dirs := []string{src.path}
	if src.target.AlsoRead != "" {
		base := env.Home
		if src.target.Scope == provider.ScopeProject {
			base = env.Project
		}
		dirs = append(dirs, filepath.Join(base, src.target.AlsoRead))
	}
	var out []native
	found := false
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		found = true
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			ev := eventOfFile(p, e.Name())
			if ev == "" {
				continue // not an event's file
			}
			path := filepath.Join(dir, e.Name())
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, true, err
			}
			if strings.Contains(string(b), src.target.Format.Marker) {
				out = append(out, native{file: env.Display(path), event: ev, script: hookshimScript})
				continue
			}
			out = append(out, native{file: env.Display(path), event: ev, script: scriptCommand(env, src.target.Scope, path)})
		}
	}
	return out, found, nil
}

// hookshimScript stands for the command of a script install wrote.
const hookshimScript = "hookshim run"

// eventOfFile is the native event whose file is name; "" when none.
func eventOfFile(p *provider.Provider, name string) string {
	for _, f := range p.Install.Files {
		if f.Value == name {
			return f.Event
		}
	}
	if p.Spec(name) != nil {
		return name
	}
	return ""
}

// scriptCommand is the command that runs a script: relative to the
// project for project scope (the config's commands are relative to its
// folder, the project root), absolute otherwise.
func scriptCommand(env install.Env, scope provider.Scope, path string) string {
	if scope == provider.ScopeProject {
		if rel, ok := env.ProjectRel(path); ok {
			return shellquote.Word("./" + rel)
		}
	}
	return shellquote.Word(path)
}

// UnreadableError is a tool's config that does not parse.
type UnreadableError struct {
	Path string
	Err  error
}

func (e *UnreadableError) Error() string { return e.Path + " does not parse: " + e.Err.Error() }
