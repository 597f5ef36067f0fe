// Package importer turns the hooks a tool already runs, registered in its
// own config files, into .openhook.json entries: Hook Interchange entries
// whose handler runs the same command in that tool's dialect, so that a
// hook written for one tool runs under every tool hookshim is installed
// in (hookshim import, docs/import.md).
//
// Where a tool keeps its registrations, and how an entry looks, is the
// install description of the provider table (provider.Install: Targets
// and Imports); events and tool names come from the provider's tables.
// What the config cannot express is kept under the entry's provider_data
// and reported, one line per loss. The config is edited as install edits
// the tools' files: as text, its comments and layout kept; entries
// already imported are recognised and never added twice; hookshim's own
// registrations are never imported.
package importer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/install"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/tidwall/gjson"
)

// Skeleton is a config import creates.
const Skeleton = `{"spec": "hooks/0.1", "hooks": []}`

// Options say what to import, and where to.
type Options struct {
	Env    install.Env // where the tool's files are (Home, Project, Getenv)
	From   *provider.Provider
	Scope  provider.Scope
	Config string // the .openhook.json to write

	// Plugin, when set, is the folder of a plugin of From (absolute):
	// its hooks/hooks.json is read instead of the tool's own files, and
	// each hook imported gets the folder as CLAUDE_PLUGIN_ROOT, which the
	// tools that run plugins set (Claude Code, and Codex, Copilot and
	// Droid under that name too) and its commands name their scripts by.
	Plugin string

	// After, when set, is a plan of the same config not written yet
	// (import --all --dry-run): this one starts from its result.
	After *Plan
}

// Plan is what an import would do.
type Plan struct {
	Config    string // the config written
	Old, New  []byte
	OldExists bool
	Files     []string // the tool's files that were read, as shown
	Looked    []string // where the tool's files were looked for, as shown
	Added     int      // entries added
	Already   int      // entries the config holds already
	Own       int      // hookshim's own registrations, left out
	Skipped   int      // entries that could not be imported (each also a loss)
	Losses    []string // one line per loss
	Plugin    string   // the plugin folder the hooks came from (Options.Plugin)
}

// Changed reports whether the config would change.
func (pl *Plan) Changed() bool { return !pl.OldExists || string(pl.Old) != string(pl.New) }

// NoHooksError is a tool without command hooks in a file import can read.
type NoHooksError struct {
	Provider *provider.Provider
	Why      string
}

func (e *NoHooksError) Error() string {
	return e.Provider.Name + " has no command hooks to import: " + e.Why
}

// ScopeError is a scope the tool keeps no hooks in.
type ScopeError struct {
	Provider *provider.Provider
	Scope    provider.Scope
	Other    provider.Scope // the scope it has, "" when none
}

func (e *ScopeError) Error() string {
	return fmt.Sprintf("%s keeps no %s-level hooks", e.Provider.Name, e.Scope)
}

// ConfigError is a target config import cannot add to.
type ConfigError struct {
	Path string
	Err  error
}

func (e *ConfigError) Error() string {
	if msg := e.Err.Error(); strings.HasPrefix(msg, e.Path) {
		return msg // a config error names the file already
	}
	return e.Path + ": " + e.Err.Error()
}

// Unwrap gives the reason.
func (e *ConfigError) Unwrap() error { return e.Err }

// Check says whether import can read p's hooks at all.
func Check(p *provider.Provider) error {
	if p.Install == nil {
		why := "its hooks are not in a file hookshim reads"
		if p.ByHand != nil {
			why = "its hooks live in a file hookshim does not edit (YAML, a plugin folder)"
		}
		return &NoHooksError{Provider: p, Why: why}
	}
	for _, t := range p.Install.Targets {
		if t.Format.Layout == provider.LayoutGenerated {
			return &NoHooksError{Provider: p, Why: "its hooks are JavaScript plugins, not commands"}
		}
	}
	return nil
}

// Make plans the import of opts.From's hooks at opts.Scope into
// opts.Config.
func Make(opts Options) (*Plan, error) {
	p := opts.From
	if err := Check(p); err != nil {
		return nil, err
	}
	if install.Target(p, opts.Scope) == nil {
		// Every target is at another scope: the last one is named.
		var other provider.Scope
		if ts := p.Install.Targets; len(ts) > 0 {
			other = ts[len(ts)-1].Scope
		}
		return nil, &ScopeError{Provider: p, Scope: opts.Scope, Other: other}
	}
	pl := &Plan{Config: opts.Config, Plugin: opts.Plugin}
	old, err := os.ReadFile(opts.Config)
	switch {
	case err == nil:
		pl.Old, pl.OldExists = old, true
	case !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	if opts.After != nil {
		// On top of another plan, not written yet: the change shown is
		// the two together.
		pl.Old, pl.OldExists = opts.After.Old, opts.After.OldExists
		old = opts.After.Old
		if opts.After.New != nil {
			old = opts.After.New
		}
	}
	text, bom := strings.CutPrefix(string(old), "\uFEFF")
	doc, err := install.EditJSONC(text, Skeleton)
	if err != nil {
		return nil, &ConfigError{Path: opts.Config, Err: err}
	}
	if len(old) > 0 {
		// A config with an empty "hooks" array is one import may fill.
		var empty *config.Error
		if _, err := config.Parse(opts.Config, old); err != nil && !(errors.As(err, &empty) && empty.Empty) {
			return nil, &ConfigError{Path: opts.Config, Err: err}
		}
	}
	hooks, _ := doc.Get("hooks")
	have := existing(hooks)

	var srcs []source
	if opts.Plugin != "" {
		t := *install.Target(p, opts.Scope)
		srcs = []source{{path: filepath.Join(opts.Plugin, "hooks", "hooks.json"), target: t, plugin: opts.Plugin}}
		pl.Looked = append(pl.Looked, opts.Env.Display(srcs[0].path))
	} else {
		srcs, err = sources(opts.Env, p, opts.Scope)
		if err != nil {
			return nil, err
		}
		for _, t := range append(append([]provider.Target{}, p.Install.Targets...), p.Install.Imports...) {
			if path, err := opts.Env.Path(t); err == nil && t.Scope == opts.Scope {
				pl.Looked = append(pl.Looked, opts.Env.Display(path))
			}
		}
	}
	for _, src := range srcs {
		natives, found, ignored, err := read(opts.Env, p, src)
		if err != nil {
			return nil, err
		}
		for i := range natives {
			natives[i].plugin = src.plugin
		}
		if !found {
			continue
		}
		pl.Files = append(pl.Files, opts.Env.Display(src.path))
		if src.target.Scoped != "" && len(natives) > 0 {
			pl.Losses = append(pl.Losses, fmt.Sprintf("%s: its hooks run %s in %s; in %s they run in every session",
				opts.Env.Display(src.path), src.target.Scoped, p.Name, filepath.Base(opts.Config)))
		}
		for _, n := range natives {
			// Scripts are also read from a second folder.
			if d := filepath.ToSlash(filepath.Dir(n.file)); n.script != "" && !slices.Contains(pl.Files, d) {
				pl.Files = append(pl.Files, d)
			}
		}
		if ignored {
			pl.Losses = append(pl.Losses, fmt.Sprintf("%s: entries under %q are not read by %s, so they never run: not imported", opts.Env.Display(src.path), src.target.Format.Ignored, p.Name))
		}
		for _, n := range natives {
			e, skip, own := translate(p, src.target.Format, n)
			switch {
			case own:
				pl.Own++
				continue
			case skip != "":
				pl.Skipped++
				what := n.event
				if e.command != "" {
					what += " " + quote(e.command)
				}
				pl.Losses = append(pl.Losses, fmt.Sprintf("%s: %s: not imported: %s", n.file, what, skip))
				continue
			}
			if have.has(p.ID, e) {
				pl.Already++
				continue
			}
			if err := doc.Append("hooks", e.json); err != nil {
				return nil, &ConfigError{Path: opts.Config, Err: err}
			}
			have.add(p.ID, e)
			pl.Added++
			pl.Losses = append(pl.Losses, e.losses...)
			if opts.Scope == provider.ScopeUser && relative(e.command) {
				// The tool runs user hooks in the session's folder;
				// hookshim runs a config's commands in its folder.
				pl.Losses = append(pl.Losses, fmt.Sprintf("%s: %s %s: a relative command runs from %s under hookshim, not from the session's folder: make it absolute",
					n.file, n.event, quote(e.command), opts.Env.Display(filepath.Dir(opts.Config))))
			}
		}
	}
	pl.New = []byte(doc.Text())
	if bom {
		pl.New = append([]byte("\uFEFF"), pl.New...)
	}
	if len(old) == 0 && pl.Added == 0 {
		pl.New = nil // nothing to write: no config either
		if opts.After != nil {
			pl.New = opts.After.New
		}
		return pl, nil
	}
	if _, err := config.Parse(opts.Config, pl.New); err != nil {
		return nil, fmt.Errorf("hookshim made a config it cannot read (a bug): %v", err)
	}
	return pl, nil
}

// Apply writes the plan; it returns the backup of the previous config
// ("" when there was none).
func Apply(env install.Env, pl *Plan) (string, error) {
	if pl.New == nil || !pl.Changed() {
		return "", nil
	}
	return env.Write(pl.Config, pl.Old, pl.OldExists, pl.New, 0o644)
}

// ConfigPath is the config import writes for scope: the project's
// .openhook.json at its root, or the user's config.
func ConfigPath(env install.Env, scope provider.Scope) string {
	if scope == provider.ScopeUser {
		return config.UserPath(env.Getenv)
	}
	return filepath.Join(env.Project, config.FileName)
}

// imported are the entries a config holds, as keys that recognise an
// entry imported again: its dialect, command and native event and
// matcher (kept under provider_data), or, for an entry written by hand,
// its dialect, command and canonical event.
type imported map[string]bool

func existing(hooks gjson.Result) imported {
	have := imported{}
	hooks.ForEach(func(_, h gjson.Result) bool {
		handler := h.Get("handler")
		dialect, cmd := handler.Get("dialect").Str, handler.Get("command").Str
		if keys := kindKeys(handler.Get("type").Str); dialect == "" && keys != nil {
			// An imported http or prompt hook: no dialect of its own; the
			// tool it came from names its provider_data.
			cmd = handler.Get(keys[0]).Str
			h.Get("provider_data").ForEach(func(k, _ gjson.Result) bool {
				dialect = k.Str
				return false
			})
		}
		if dialect == "" {
			dialect, cmd = h.Get("dialect").Str, h.Get("command").Str // OpenHook entry
		}
		if dialect == "" {
			return true
		}
		var kept gjson.Result
		h.Get("provider_data").ForEach(func(k, v gjson.Result) bool {
			if k.Str == dialect {
				kept = v
			}
			return !kept.Exists()
		})
		if kept.Get("event").Type == gjson.String {
			have[nativeKey(dialect, cmd, kept.Get("event").Str, kept.Get("matcher").Str)] = true
		} else {
			have[canonKey(dialect, cmd, h.Get("event").Str)] = true
		}
		return true
	})
	return have
}

func (have imported) has(id string, e entry) bool {
	return have[nativeKey(id, e.command, e.native, e.matcher)] || have[canonKey(id, e.command, e.event)]
}

func (have imported) add(id string, e entry) {
	have[nativeKey(id, e.command, e.native, e.matcher)] = true
}

func nativeKey(dialect, cmd, native, matcher string) string {
	return "n\x00" + dialect + "\x00" + cmd + "\x00" + native + "\x00" + matcher
}

func canonKey(dialect, cmd, canonical string) string {
	return "c\x00" + dialect + "\x00" + cmd + "\x00" + canonical
}

// relative reports whether a command's program is a relative path.
func relative(command string) bool {
	first := strings.Trim(strings.SplitN(strings.TrimSpace(command), " ", 2)[0], `"'`)
	return strings.HasPrefix(first, "./") || strings.HasPrefix(first, "../")
}
